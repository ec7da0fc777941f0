#pragma once
// IP fragments put back together: IPv4 (RFC 791 §3.2, keyed by source, destination, protocol and
// identification) and IPv6 (RFC 8200 §4.5, keyed by source, destination and identification), as
// an observer of a capture does it, sans-I/O: fragments in, whole datagrams out, time from the
// capture.
//
//   netlib::packet::ip_reassembler r;
//   for (each packet p at time ts)
//     if (p.is_fragment())
//       if (auto d = r.feed(p, ts)) { ... d->payload is the upper layer, d->fragments the pieces ... }
//
// Policy (stated, as RFC 791 leaves it to the implementation):
//   - Overlaps: a fragment that repeats exactly the bytes of one already held (same offset, same
//     length, same bytes) is a duplicate and is ignored. Any other overlap drops the whole
//     datagram, as RFC 5722 requires for IPv6 and Linux does for IPv4 since 2018: overlapping
//     fragments are how reassembly is attacked (Teardrop) and how a monitor is shown other bytes
//     than the receiver sees. The datagram's key then stays refused until the timeout, so that
//     its remaining fragments do not start a second, partial datagram.
//   - A fragment that is not the last (more fragments set) must carry a multiple of 8 bytes, and
//     a datagram has one end: a last fragment that disagrees with the end already known, or data
//     beyond it, drops the datagram (RFC 8200 §4.5; as Linux does for IPv4).
//   - Limits (ip_fragment_limits): bytes per datagram (65,535: the largest IPv4 datagram and
//     IPv6 payload), fragments per datagram, datagrams in progress and bytes held over all of
//     them, and a timeout after the first fragment (30 s, Linux's ipfrag_time; RFC 791 suggests
//     a 15 s lower bound, RFC 8200 60 s). A fragment past a per-datagram limit drops its datagram;
//     a new datagram that finds the table or the byte budget full evicts the oldest in progress
//     (the one least likely to complete), which is counted.
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <vector>

#include "netlib/core/bytes.hpp"
#include "netlib/core/clock.hpp"
#include "netlib/packet/ip_address.hpp"
#include "netlib/packet/ipv4.hpp"
#include "netlib/packet/ipv6.hpp"
#include "netlib/packet/packet_decoder.hpp"

namespace netlib::packet {

struct ip_fragment_limits {
  std::size_t max_datagram_bytes = 65535;
  std::size_t max_fragments_per_datagram = 1024;
  std::size_t max_datagrams = 1024;             // in progress at once
  std::size_t max_buffered_bytes = 8u << 20;    // held over every datagram in progress
  duration timeout = std::chrono::seconds(30);  // from a datagram's first fragment
};

// One fragment as it was captured.
struct ip_fragment_piece {
  std::uint32_t offset = 0;  // in bytes
  std::uint32_t length = 0;  // data bytes (after the IP header, and the Fragment header for IPv6)
  bool more_fragments = false;
  time_point ts{};
  std::uint64_t sequence = 0;  // the caller's number for the packet (e.g. the frame number)
};

struct reassembled_datagram {
  bool v6 = false;
  ip_address src, dst;
  std::uint32_t identification = 0;
  std::uint8_t protocol = 0;                 // IPv4 protocol / the Fragment header's Next Header
  std::vector<std::byte> payload;            // the upper-layer bytes, whole
  std::vector<ip_fragment_piece> fragments;  // in the order they were captured (duplicates left out)
  time_point first_ts{}, last_ts{};
};

struct ip_reassembly_stats {
  std::uint64_t fragments = 0;          // fed
  std::uint64_t completed = 0;          // datagrams put back together
  std::uint64_t duplicates = 0;         // fragments that repeated bytes already held
  std::uint64_t overlaps = 0;           // datagrams dropped for an overlap
  std::uint64_t inconsistent = 0;       // datagrams dropped: two ends, data past the end, a bad length
  std::uint64_t over_limit = 0;         // datagrams dropped for a per-datagram limit
  std::uint64_t timed_out = 0;          // datagrams still incomplete at their timeout
  std::uint64_t evicted = 0;            // datagrams dropped to make room for a new one
  std::uint64_t refused = 0;            // fragments of a datagram already dropped (until its timeout)
  std::uint64_t incomplete_at_end = 0;  // set by finish()
};

class ip_reassembler {
 public:
  explicit ip_reassembler(ip_fragment_limits limits = {}) : limits_(limits) {}

  // A packet that is a fragment (decoded_packet::is_fragment()); anything else is ignored.
  // Returns the datagram this fragment completed. `sequence` is stored with the piece.
  std::optional<reassembled_datagram> feed(const decoded_packet& p, time_point ts, std::uint64_t sequence = 0);
  std::optional<reassembled_datagram> feed(const ipv4_header& h, time_point ts, std::uint64_t sequence = 0);
  std::optional<reassembled_datagram> feed(const ipv6_header& h, time_point ts, std::uint64_t sequence = 0);
  // Drops datagrams whose timeout passed before `now` (feed calls it with each fragment's time).
  void expire(time_point now);
  // End of the capture: what is still incomplete is counted and dropped.
  void finish();

  [[nodiscard]] const ip_reassembly_stats& stats() const noexcept { return stats_; }
  [[nodiscard]] std::size_t in_progress() const noexcept { return partial_.size(); }
  [[nodiscard]] std::size_t buffered_bytes() const noexcept { return buffered_; }

 private:
  struct key {
    bool v6 = false;
    ip_address src, dst;
    std::uint32_t id = 0;
    std::uint8_t protocol = 0;  // IPv4 only (0 for IPv6: RFC 8200 keys without it)
    friend auto operator<=>(const key&, const key&) = default;
  };
  struct chunk {
    ip_fragment_piece piece;
    std::vector<std::byte> bytes;
  };
  struct partial {
    std::vector<chunk> chunks;         // in capture order
    std::optional<std::uint32_t> end;  // known from the last fragment
    std::uint8_t protocol = 0;
    std::size_t bytes = 0;
    time_point first_ts{}, expiry{};
    std::uint64_t order = 0;  // for eviction: smaller is older
  };
  std::optional<reassembled_datagram> add(const key& k, std::uint8_t protocol, std::uint32_t offset, bool more,
                                          byte_view data, time_point ts, std::uint64_t sequence);
  void drop(std::map<key, partial>::iterator it, bool refuse);
  bool make_room(std::size_t bytes);

  ip_fragment_limits limits_;
  std::map<key, partial> partial_;
  std::map<key, time_point> refused_;              // dropped datagrams' keys, until their timeout
  std::deque<std::pair<key, std::uint64_t>> age_;  // (key, order) in the order datagrams began
  std::uint64_t next_order_ = 0;
  std::size_t buffered_ = 0;
  ip_reassembly_stats stats_;
};

}  // namespace netlib::packet
