#pragma once
// One direction of a TCP connection put back in order: segments in, in-order byte chunks and
// reported gaps out. Sequence numbers are unwrapped into 64-bit offsets from the first byte
// (the byte after the SYN, or the first segment seen when the handshake was not captured), so
// wrap-around past 2^32 is ordinary arithmetic (RFC 9293 §3.4).
//
// Policy: the first copy of a byte wins (retransmitted or overlapping bytes that were already
// delivered are counted, not delivered again). Segments ahead of the next expected byte wait in a
// buffer bounded by `max_buffered_bytes`; when it overflows, the hole before the earliest waiting
// segment is reported as a gap of its exact size and delivery goes on after it.
#include <concepts>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <vector>

#include "netlib/core/bytes.hpp"
#include "netlib/core/clock.hpp"

namespace netlib::packet {

class tcp_stream {
 public:
  // Where the in-order bytes and the gaps go. The reassembler passes a small final class made on
  // the stack for each segment (no allocation, and the inline fast path calls it directly).
  class output {
   public:
    virtual void data(byte_view bytes, time_point ts) = 0;
    virtual void gap(std::uint64_t size, time_point ts) = 0;

   protected:
    ~output() = default;
  };
  // The same as two callables (either may be empty), for tests and simple users.
  struct sink {
    std::function<void(byte_view, time_point)> data;
    std::function<void(std::uint64_t size, time_point)> gap;
  };

  explicit tcp_stream(std::size_t max_buffered_bytes = 1 << 20) : max_buffered_(max_buffered_bytes) {}

  // A segment of this direction: its sequence number, flags and payload. Inline for the usual
  // segment (no SYN or FIN, the next expected bytes, nothing waiting): delivered as it is.
  template <class Output>
  requires std::derived_from<Output, output>
  void on_segment(std::uint32_t seq, bool syn, bool fin, byte_view payload, time_point ts, Output& out) {
    if (!syn && !fin && base_ && !payload.empty() && waiting_.empty() &&
        seq == static_cast<std::uint32_t>(*base_ + next_)) {
      next_ += payload.size();
      delivered_ += payload.size();
      return out.data(payload, ts);
    }
    on_other_segment(seq, syn, fin, payload, ts, out);
  }
  void on_segment(std::uint32_t seq, bool syn, bool fin, byte_view payload, time_point ts, const sink& out);
  // The peer acknowledged up to `ack` (used to detect data lost before the capture saw it, and
  // whether the FIN was acknowledged).
  void on_peer_ack(std::uint32_t ack) noexcept {
    if (!base_) return;
    const std::int64_t a = unwrap(ack);
    if (a > 0 && static_cast<std::uint64_t>(a) > acked_) acked_ = static_cast<std::uint64_t>(a);
  }
  // End of this direction (connection closed or capture over): reports the holes before the
  // waiting segments and delivers them, then a final gap when the peer acknowledged (or a FIN
  // sits at) bytes never seen. Frees the buffer.
  void flush(time_point ts, output& out);
  void flush(time_point ts, const sink& out);

  [[nodiscard]] bool started() const noexcept { return base_.has_value(); }
  [[nodiscard]] bool syn_seen() const noexcept { return syn_seen_; }
  [[nodiscard]] bool fin_seen() const noexcept { return fin_offset_.has_value(); }
  // All bytes up to the FIN were delivered.
  [[nodiscard]] bool finished() const noexcept { return fin_offset_ && next_ >= *fin_offset_; }
  // The peer acknowledged the FIN.
  [[nodiscard]] bool fin_acknowledged() const noexcept { return fin_offset_ && acked_ > *fin_offset_; }
  [[nodiscard]] std::uint64_t delivered_bytes() const noexcept { return delivered_; }
  [[nodiscard]] std::uint64_t gap_bytes() const noexcept { return gap_bytes_; }
  [[nodiscard]] std::uint64_t gaps() const noexcept { return gaps_; }
  [[nodiscard]] std::uint64_t retransmitted_bytes() const noexcept { return retransmitted_; }
  [[nodiscard]] std::size_t buffered_bytes() const noexcept { return buffered_; }
  [[nodiscard]] std::optional<std::uint32_t> isn() const noexcept { return isn_; }

 private:
  struct pending {
    std::vector<std::byte> bytes;
    time_point ts;
  };
  [[nodiscard]] std::int64_t unwrap(std::uint32_t seq) const noexcept {
    const auto next_seq = static_cast<std::uint32_t>(*base_ + next_);
    const auto diff = static_cast<std::int32_t>(seq - next_seq);
    return static_cast<std::int64_t>(next_) + diff;
  }
  void on_other_segment(std::uint32_t seq, bool syn, bool fin, byte_view payload, time_point ts, output& out);
  void deliver(std::uint64_t offset, byte_view bytes, time_point ts, output& out) {
    next_ = offset + bytes.size();
    delivered_ += bytes.size();
    if (!bytes.empty()) out.data(bytes, ts);
  }
  void store(std::uint64_t offset, byte_view bytes, time_point ts);
  void drain(output& out);
  void skip_to(std::uint64_t offset, time_point ts, output& out);

  std::size_t max_buffered_;
  std::optional<std::uint32_t> base_;  // sequence number of offset 0
  std::optional<std::uint32_t> isn_;
  bool syn_seen_ = false;
  std::uint64_t next_ = 0;  // next offset to deliver
  std::optional<std::uint64_t> fin_offset_;
  std::uint64_t acked_ = 0;  // highest offset the peer acknowledged
  std::map<std::uint64_t, pending> waiting_;
  std::size_t buffered_ = 0;
  std::uint64_t delivered_ = 0;
  std::uint64_t gap_bytes_ = 0;
  std::uint64_t gaps_ = 0;
  std::uint64_t retransmitted_ = 0;
};

}  // namespace netlib::packet
