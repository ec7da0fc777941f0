#pragma once
// Per-connection timing from a capture, as a netlib::packet::tcp_visitor (sans-I/O: it sees
// segments and capture timestamps, nothing else):
//   - handshake RTT: SYN -> SYN-ACK -> ACK (from the capture point: SYN to ACK is one full RTT);
//   - RTT samples: a data segment to the first ACK from the other side that covers it; segments
//     sent more than once give no sample (Karn's rule);
//   - goodput per direction: in-order payload bytes from the first to the last data segment;
//   - inter-arrival of data segments per direction.
// Memory: a connection gets state here only once it needs some (its SYN-ACK, its data, a SYN
// that did not open it); a connection that is only a SYN, the first packet of a scan, costs
// nothing until it closes, and every state goes when its connection is released.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "netlib/packet/tcp_reassembler.hpp"

namespace netlab::lab_delay {

struct running_stats {
  std::uint64_t count = 0;
  double sum = 0, squares = 0, min = 0, max = 0;
  void add(double x);
  [[nodiscard]] double mean() const { return count ? sum / double(count) : 0; }
  [[nodiscard]] double stddev() const;
};

struct direction_timing {
  std::uint64_t packets = 0, bytes = 0, retransmitted_bytes = 0, data_segments = 0;
  std::uint64_t missing_bytes = 0;  // payload the capture never saw (gaps): not in `bytes`
  std::optional<netlib::time_point> first_data, last_data;
  running_stats rtt_s;           // samples of data sent in this direction
  running_stats interarrival_s;  // between data segments of this direction
  [[nodiscard]] double duration_s() const;
  [[nodiscard]] std::optional<double> goodput_bps() const;
};

struct connection_timing {
  std::uint64_t id = 0;
  std::string client, server, state;
  std::optional<double> syn_to_synack_s, synack_to_ack_s;
  [[nodiscard]] std::optional<double> handshake_rtt_s() const;
  direction_timing to_server, to_client;
};

class tcp_timing : public netlib::packet::tcp_visitor {
 public:
  static constexpr std::size_t max_connections_kept = 10000;
  static constexpr std::size_t max_pending_samples = 100000;

  void on_segment(const netlib::packet::tcp_conversation& c, netlib::packet::tcp_direction d,
                  const netlib::packet::tcp_header& tcp, netlib::time_point ts) override;
  void on_data(const netlib::packet::tcp_conversation& c, netlib::packet::tcp_direction d, netlib::byte_view bytes,
               netlib::time_point ts) override;
  void on_close(const netlib::packet::tcp_conversation& c) override;

  // Connections released so far, in the order they closed (at most max_connections_kept).
  [[nodiscard]] const std::vector<connection_timing>& connections() const { return done_; }
  [[nodiscard]] std::uint64_t dropped_connections() const { return dropped_; }

 private:
  struct sender {  // RTT sampling state of one direction's data
    // (sequence end, sent at) of data not yet acknowledged: a FIFO from `head`.
    std::vector<std::pair<std::uint32_t, netlib::time_point>> pending;
    std::size_t head = 0;
    std::optional<std::uint32_t> high;  // highest sequence end sent
    std::optional<netlib::time_point> last_data;
    std::uint64_t data_segments = 0;
    running_stats rtt_s, interarrival_s;
    std::optional<netlib::time_point> first_data, last_delivered;
  };
  struct live {
    std::optional<netlib::time_point> syn, synack;
    std::optional<double> syn_to_synack_s, synack_to_ack_s;
    bool handshake_done = false;
    sender senders[2];
  };
  live& get(const netlib::packet::tcp_conversation& c, bool opened_by_syn);
  void on_data_segment(live& l, int d, const netlib::packet::tcp_header& tcp, netlib::time_point ts);
  void on_ack(live& l, int acked_direction, std::uint32_t ack, netlib::time_point ts);
  std::unordered_map<std::uint64_t, std::unique_ptr<live>> live_;
  std::vector<connection_timing> done_;
  std::uint64_t dropped_ = 0;
};

}  // namespace netlab::lab_delay
