#pragma once
// TCP conversations from decoded packets: each 4-tuple becomes a conversation with a client (the
// side that sent the SYN, or that sent the first packet when the handshake was not captured), a
// handshake/teardown state, and both directions reassembled by tcp_stream. A visitor receives
// every segment, the in-order bytes of each direction with their capture timestamps, gaps with
// their size, and the conversation when it is released.
//
//   struct printer : netlib::packet::tcp_visitor {
//     void on_data(const conversation& c, tcp_direction d, byte_view b, time_point t) override {...}
//   } v;
//   netlib::packet::tcp_reassembler r(v);
//   for (each packet) r.feed(decode_packet(link, bytes), ts);
//   r.finish();
//
// Memory: a conversation's buffers are freed when both directions are finished (FIN delivered)
// or reset; the conversation itself is released (on_close) `closed_linger` of capture time later,
// so late ACKs and retransmitted FINs still count in it, or after `idle_timeout` without packets.
#include <cstdint>
#include <memory>

#include "netlib/core/bytes.hpp"
#include "netlib/core/clock.hpp"
#include "netlib/packet/ip_address.hpp"
#include "netlib/packet/open_hash_map.hpp"
#include "netlib/packet/packet_decoder.hpp"
#include "netlib/packet/tcp.hpp"
#include "netlib/packet/tcp_conversation.hpp"

namespace netlib::packet {

class tcp_visitor {
 public:
  virtual ~tcp_visitor() = default;
  virtual void on_open(const tcp_conversation&) {}
  // Every TCP segment of the conversation, before its data is delivered.
  virtual void on_segment(const tcp_conversation&, tcp_direction, const tcp_header&, time_point) {}
  virtual void on_data(const tcp_conversation&, tcp_direction, byte_view, time_point) {}
  virtual void on_gap(const tcp_conversation&, tcp_direction, std::uint64_t /*size*/, time_point) {}
  // No more bytes in this direction: its FIN was reached in order, or the conversation ended
  // (RST, release, end of capture). Called once per direction.
  virtual void on_end_of_stream(const tcp_conversation&, tcp_direction, time_point) {}
  // The conversation is released; its counters are final.
  virtual void on_close(const tcp_conversation&) {}
};

struct reassembly_limits {
  std::size_t max_buffered_bytes = 1 << 20;  // per direction, waiting out-of-order bytes
  duration closed_linger = std::chrono::seconds(120);
  duration idle_timeout = std::chrono::hours(1);
  std::size_t max_conversations = 1'000'000; // open at once; the least recent is released beyond
};

class tcp_reassembler {
 public:
  explicit tcp_reassembler(tcp_visitor& visitor, reassembly_limits limits = {});
  ~tcp_reassembler();
  tcp_reassembler(const tcp_reassembler&) = delete;
  tcp_reassembler& operator=(const tcp_reassembler&) = delete;

  // Feeds a decoded packet; packets without TCP, and IP fragments, are counted and ignored.
  void feed(const decoded_packet& packet, time_point ts);
  void feed(const ip_address& src, const ip_address& dst, const tcp_header& tcp, time_point ts);
  // End of the capture: flushes and releases every conversation, in the order they began.
  void finish();

  [[nodiscard]] std::size_t open_conversations() const noexcept { return flows_.size(); }
  [[nodiscard]] std::uint64_t conversations_seen() const noexcept { return next_id_; }
  [[nodiscard]] std::uint64_t ignored_packets() const noexcept { return ignored_; }

 private:
  struct flow;
  // The two endpoints as machine words (address octets 0..7 and 8..15, port, family), endpoint a
  // before b in the order of (lo, hi, port, family).
  struct flow_key {
    std::uint64_t a_lo = 0, a_hi = 0, b_lo = 0, b_hi = 0;
    std::uint16_t a_port = 0, b_port = 0;
    std::uint8_t families = 0;  // bit 0: a is IPv6, bit 1: b is IPv6
    friend bool operator==(const flow_key&, const flow_key&) = default;
  };
  struct flow_key_hash {
    std::uint64_t operator()(const flow_key& k) const noexcept;
  };
  struct flow_key_equal {  // == without the library memcmp calls of the defaulted operator
    bool operator()(const flow_key& x, const flow_key& y) const noexcept;
  };
  flow& open(const flow_key& key, bool src_is_a, const endpoint& src, const endpoint& dst, const tcp_header& tcp,
             time_point ts);
  void close_streams(flow& f, time_point ts);
  void report_ends(flow& f, time_point ts, bool all);
  void release(const flow_key& key);
  void sweep(time_point now);

  tcp_visitor& visitor_;
  reassembly_limits limits_;
  open_hash_map<flow_key, std::unique_ptr<flow>, flow_key_hash, flow_key_equal> flows_;
  std::uint64_t next_id_ = 0;
  std::uint64_t ignored_ = 0;
  time_point next_sweep_{};
};

}  // namespace netlib::packet
