#pragma once
// Every segment of chosen TCP conversations as a trace (time, relative sequence and
// acknowledgement numbers, length, scaled window, retransmission), and what the textbook reads
// off such a trace: per data segment its sample RTT and the RFC 6298 estimates after it, bytes in
// flight, throughput, the first loss and the end of its recovery. Sans-I/O: a tcp_visitor fed by
// the reassembler; the analyses are functions of the trace. netlab-ladder's time-sequence graph
// and netlab-grade's TCP questions read the same trace.
//
//   netlib::packet::tcp_trace_recorder rec([](const tcp_conversation& c) { return c.id == 3; });
//   ... replay_tcp(reader, rec) ...
//   for (const auto& t : rec.traces()) { auto rows = rtt_estimates(t, data_sender(t), 6); ... }
//
// Memory: at most max_segments segments per conversation (later ones are counted, not kept) and
// at most max_traces conversations.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <vector>

#include "netlib/core/clock.hpp"
#include "netlib/packet/tcp.hpp"
#include "netlib/packet/tcp_conversation.hpp"
#include "netlib/packet/tcp_reassembler.hpp"

namespace netlib::packet {

struct tcp_trace_segment {
  time_point ts{};
  tcp_direction direction{};
  std::uint8_t flags = 0;
  std::uint32_t seq = 0;  // relative to the sender's ISN (the SYN is 0, its first data byte 1)
  std::uint32_t ack = 0;  // relative to the receiver's ISN, when ACK is set
  std::uint32_t raw_seq = 0, raw_ack = 0;
  std::uint32_t length = 0;     // payload bytes
  std::uint64_t window = 0;     // receive window in bytes: scaled (RFC 7323 §2.2) except in a SYN
  bool retransmission = false;  // all its sequence space was sent before in this direction
  [[nodiscard]] bool has(std::uint8_t flag) const noexcept { return (flags & flag) != 0; }
  // Sequence space it occupies (payload, plus one for SYN and for FIN).
  [[nodiscard]] std::uint32_t span() const noexcept {
    return length + (has(tcp_flag::syn) ? 1U : 0U) + (has(tcp_flag::fin) ? 1U : 0U);
  }
};

struct tcp_trace {
  tcp_conversation conversation;                // as released (final counters); while recording: as opened
  std::optional<std::uint32_t> isn[2];          // raw ISN per direction (client 0, server 1): its SYN's
  std::optional<std::uint32_t> base[2];         // raw sequence number that is relative 0
  std::optional<std::uint8_t> window_scale[2];  // the option each SYN carried
  std::optional<std::uint16_t> mss[2];
  std::vector<tcp_trace_segment> segments;
  std::uint64_t segments_not_kept = 0;
  // Window scaling is in effect when both SYNs carried the option (RFC 7323 §2.2).
  [[nodiscard]] bool scaling() const noexcept { return window_scale[0].has_value() && window_scale[1].has_value(); }
  [[nodiscard]] bool handshake_seen() const noexcept { return isn[0].has_value(); }
};

class tcp_trace_recorder : public tcp_visitor {
 public:
  using selector = std::function<bool(const tcp_conversation&)>;
  static constexpr std::size_t default_max_segments = 200000;
  static constexpr std::size_t default_max_traces = 64;
  explicit tcp_trace_recorder(selector wanted, std::size_t max_segments = default_max_segments,
                              std::size_t max_traces = default_max_traces)
      : wanted_(std::move(wanted)), max_segments_(max_segments), max_traces_(max_traces) {}

  void on_open(const tcp_conversation& c) override;
  void on_segment(const tcp_conversation& c, tcp_direction d, const tcp_header& t, time_point ts) override;
  void on_close(const tcp_conversation& c) override;
  // The traces recorded, by conversation id (complete after the reassembler finished).
  [[nodiscard]] const std::map<std::uint64_t, tcp_trace>& traces() const noexcept { return traces_; }
  std::map<std::uint64_t, tcp_trace> take() { return std::move(traces_); }

 private:
  struct progress {
    std::optional<std::uint32_t> highest_end[2];  // raw, per direction
  };
  selector wanted_;
  std::size_t max_segments_, max_traces_;
  std::map<std::uint64_t, tcp_trace> traces_;
  std::map<std::uint64_t, progress> progress_;
};

// The direction that sent more payload (ties: the client's).
tcp_direction data_sender(const tcp_trace& t) noexcept;

// RFC 6298 §2 with the gains it recommends (alpha 1/8, beta 1/4, K 4); G, the clock granularity,
// is 0 and no lower bound is applied (the textbook's TimeoutInterval = EstimatedRTT + 4 DevRTT).
struct rtt_gains {
  double alpha = 0.125, beta = 0.25, k = 4;
};

// One data segment of the sender, in the order sent, with the estimates after its sample.
struct rtt_row {
  std::size_t segment = 0;                 // index in the trace
  std::optional<std::size_t> ack_segment;  // the first segment of the receiver whose ACK covers it
  // ACK time - send time; nullopt when the segment or any byte of it was sent twice before that
  // ACK (Karn's rule, RFC 6298 §3), or when no ACK covers it.
  std::optional<double> sample_rtt_s;
  // After this segment's sample (nullopt before the first sample): SRTT and RTTVAR of RFC 6298
  // (the textbook's EstimatedRTT and DevRTT; the first sample R gives SRTT = R, RTTVAR = R/2,
  // later ones RTTVAR = (1-beta) RTTVAR + beta |SRTT - R| with the SRTT before this sample, then
  // SRTT = (1-alpha) SRTT + alpha R) and the timeout SRTT + K RTTVAR.
  std::optional<double> estimated_rtt_s, dev_rtt_s, timeout_s;
};
std::vector<rtt_row> rtt_estimates(const tcp_trace& t, tcp_direction sender, std::size_t count,
                                   const rtt_gains& gains = {});

// Bytes in flight after each segment of `sender`: the highest sequence number it has sent minus
// the highest acknowledgement received from the peer (as Wireshark's tcp.analysis.bytes_in_flight),
// for segments that carry data; nullopt for the others.
std::vector<std::optional<std::uint64_t>> bytes_in_flight(const tcp_trace& t, tcp_direction sender);

struct loss_recovery {
  std::size_t first_retransmission = 0;  // index of the first retransmitted data segment
  std::size_t retransmissions = 0;       // retransmitted data segments in the whole trace
  std::uint32_t recovery_point = 0;      // relative: the highest sequence sent before the first retransmission
  std::optional<std::size_t> recovered;  // the first ACK covering the recovery point, after it (RFC 6582 §3.2)
  std::uint64_t flight_before_loss = 0;  // the most bytes in flight before the first retransmission
};
// nullopt when `sender` retransmitted nothing.
std::optional<loss_recovery> first_loss(const tcp_trace& t, tcp_direction sender);

struct transfer_throughput {
  std::uint64_t bytes = 0;  // payload sent, each byte once
  double seconds = 0;       // from the first data segment to the ACK that covers the last byte
  [[nodiscard]] double bytes_per_second() const noexcept { return seconds > 0 ? double(bytes) / seconds : 0; }
};
// nullopt when the sender sent no data or the last byte is never acknowledged in the trace.
std::optional<transfer_throughput> throughput(const tcp_trace& t, tcp_direction sender);

// The smallest window the receiver of `sender`'s data advertised (bytes, scaled); nullopt
// without segments from it.
std::optional<std::uint64_t> min_receive_window(const tcp_trace& t, tcp_direction sender);

}  // namespace netlib::packet
