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
// Memory (docs/architecture.md, "Capture memory"): a conversation is released (on_close) as soon
// as it ends: a RST, or a FIN from each side acknowledged by the other; a conversation whose FINs were
// delivered but whose last ACK was not captured goes `closed_linger` of capture time later, and any
// conversation after `idle_timeout` without packets. A conversation released because it ended
// leaves a tombstone (its 4-tuple's hash, id and client ISN) for `closed_linger`: later packets of it (a retransmitted
// FIN, a late ACK or RST) are counted in late_packets() instead of opening a new conversation,
// and a SYN with another ISN starts a new one (port reuse). Until a conversation carries payload,
// a FIN or a RST it is kept in a compact form (about 110 bytes: no streams, no buffers).
#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "netlib/core/bytes.hpp"
#include "netlib/core/clock.hpp"
#include "netlib/packet/ip_address.hpp"
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
  // How long a conversation whose FINs were delivered waits for its last ACK, and how long a
  // released conversation's tombstone absorbs its late packets.
  duration closed_linger = std::chrono::seconds(120);
  duration idle_timeout = std::chrono::hours(1);
  // Open at once; beyond it the least recently active sixteenth is released.
  std::size_t max_conversations = 1'000'000;
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

  [[nodiscard]] std::size_t open_conversations() const noexcept { return live_; }
  [[nodiscard]] std::uint64_t conversations_seen() const noexcept { return next_id_; }
  [[nodiscard]] std::uint64_t ignored_packets() const noexcept { return ignored_; }
  // Packets of a conversation already released (see "Memory" above).
  [[nodiscard]] std::uint64_t late_packets() const noexcept { return late_; }
  // Bytes reported as gaps (never captured), over every conversation so far.
  [[nodiscard]] std::uint64_t missing_bytes() const noexcept { return missing_bytes_; }

 private:
  struct flow;
  struct heavy;
  // A conversation released because it ended, for closed_linger: its late packets are counted.
  struct tombstone {
    std::uint64_t hash = 0;  // of the 4-tuple, all 64 bits
    std::uint64_t id = 0;
    time_point expiry{};
    std::uint32_t client_isn = 0;
    bool has_isn = false;
    bool dead = false;  // its slot is gone (a new conversation took the tuple)
  };
  class direction_output;
  // The two endpoints as machine words (address octets 0..7 and 8..15, port, family), endpoint a
  // before b in the order of (lo, hi, port, family).
  struct flow_key {
    std::uint64_t a_lo = 0, a_hi = 0, b_lo = 0, b_hi = 0;
    std::uint16_t a_port = 0, b_port = 0;
    std::uint8_t families = 0;  // bit 0: a is IPv6, bit 1: b is IPv6
    friend bool operator==(const flow_key&, const flow_key&) = default;
  };
  // One slot of the open-addressing table: the high half of the key's hash and a reference (0
  // empty; else a flow's pool index + 1, or tombstone_ref | a tombstone's sequence number).
  struct slot {
    std::uint32_t tag = 0;
    std::uint32_t ref = 0;
  };
  static constexpr std::uint32_t tombstone_ref = 0x8000'0000U;

  static std::uint64_t hash(const flow_key& k) noexcept;
  static bool same_key(const flow_key& x, const flow_key& y) noexcept;
  flow& at(std::uint32_t index) noexcept;
  // The slot holding `ref` for a key of this tag (it must be there).
  std::size_t slot_of(std::uint32_t tag, std::uint32_t ref) const noexcept;
  void table_insert(std::uint32_t tag, std::uint32_t ref);
  void table_erase(std::size_t slot);
  std::uint32_t allocate_flow();
  void free_flow(std::uint32_t index);

  std::uint32_t allocate_open(const flow_key& key, std::uint32_t tag, bool src_is_a, const tcp_header& tcp,
                              time_point ts);
  void promote(flow& f);
  tcp_conversation light_conversation(const flow& f) const;
  void feed_usual(std::uint32_t index, heavy& h, tcp_direction dir, const tcp_header& tcp, time_point ts);
  void feed_heavy(std::uint32_t index, tcp_direction dir, const tcp_header& tcp, time_point ts);
  void after_fin(std::uint32_t index, heavy& h, time_point ts, bool rst);
  void maintain(time_point now);
  void feed_light(flow& f, tcp_direction dir, const tcp_header& tcp, time_point ts);
  void close_streams(heavy& h, time_point ts);
  void report_ends(heavy& h, time_point ts, bool all);
  void release(std::uint32_t index, bool leave_tombstone);
  void expire_tombstones(time_point now);
  void sweep(time_point now);
  void evict_least_recent();

  static constexpr unsigned block_bits = 12;
  static constexpr std::uint32_t block_size = 1U << block_bits;

  tcp_visitor& visitor_;
  reassembly_limits limits_;
  std::vector<slot> table_;  // size a power of two, at most half used
  std::size_t used_slots_ = 0;
  std::vector<std::unique_ptr<flow[]>> blocks_;  // the flow pool: stable addresses
  std::vector<std::uint32_t> free_;              // pool indices to reuse
  std::uint32_t pool_size_ = 0;                  // indices handed out so far
  std::size_t live_ = 0;
  std::deque<tombstone> tombstones_;  // in the order they were left
  std::uint32_t tombstone_base_ = 0;  // sequence number of tombstones_.front()
  std::uint64_t next_id_ = 0;
  std::uint64_t ignored_ = 0;
  std::uint64_t late_ = 0;
  std::uint64_t missing_bytes_ = 0;
  time_point next_check_{};  // the earlier of the two below
  time_point next_tombstone_check_{};
  time_point next_sweep_{};
  duration sweep_period_{};
};

}  // namespace netlib::packet
