// Theory of operation. The second half of the textbook's TCP lab reads a connection's trace: the
// segments of the first max_per_kind conversations are recorded (netlib::packet::tcp_trace_recorder)
// and read by the trace analyses of netlib::packet (tcp_trace.hpp): the handshake's sequence
// numbers, the first six data segments of the side that sent more data with their sample RTTs
// (an ACK covering the segment; none for a segment sent twice, Karn) and the RFC 6298 estimates
// after each (EstimatedRTT, DevRTT and the timeout EstimatedRTT + 4 DevRTT), the smallest window
// the receiver advertised, retransmissions, throughput, and where slow start ends: at the first
// retransmission (the first loss the sender reacted to), with congestion avoidance from the ACK
// that covers everything sent before it (the end of the recovery). Questions that need the whole
// connection are left out when its trace was cut at the segment limit. Times are seconds since
// the capture's first packet, as Wireshark's time column and netlab-ladder's --stevens graph show
// them.
#include <fmt/format.h>

#include <algorithm>

#include "netlib/capture/tcp_replay.hpp"
#include "netlib/packet/tcp_trace.hpp"
#include "questions_packets.hpp"

namespace netlab::grade {

namespace {

namespace pk = netlib::packet;
constexpr std::size_t max_segments_per_connection = 20000;
constexpr std::size_t first_segments = 6;  // the textbook's "first six segments"

std::string instant(netlib::time_point t, netlib::time_point start) {
  return fmt::format("{:.6f} s", netlib::to_seconds(t - start));
}

void connection_questions(std::vector<question>& out, const pk::tcp_trace& t, netlib::time_point start,
                          const key_options& options) {
  const auto& c = t.conversation;
  const std::size_t n = c.id + 1;
  const auto sender = pk::data_sender(t);
  const bool client_sends = sender == pk::tcp_direction::client_to_server;
  const auto which = fmt::format("TCP conversation {} (tshark's tcp.stream == {}: {} to {}; the data sender is the {})",
                                 n, c.id, c.client, c.server, client_sends ? "client" : "server");
  const auto add = [&](std::string id, std::string text, std::string answer, answer_kind kind) {
    out.push_back({std::move(id), "tcp", fmt::format("{}: {}", which, text), std::move(answer), kind});
  };
  const auto graph = fmt::format("netlab-ladder CAPTURE -c {} --stevens graph.svg", c.id);
  // The handshake (raw sequence numbers: Wireshark's "Sequence Number (raw)").
  if (t.isn[0])
    add(fmt::format("tcp.syn_seq.{}", n), "what is the (raw) sequence number of the client's SYN?",
        std::to_string(*t.isn[0]), answer_kind::number);
  for (const auto& s : t.segments) {
    if (s.direction == pk::tcp_direction::server_to_client && s.has(pk::tcp_flag::syn) && s.has(pk::tcp_flag::ack)) {
      add(fmt::format("tcp.synack_seq.{}", n), "what is the (raw) sequence number of the SYN-ACK?",
          std::to_string(s.raw_seq), answer_kind::number);
      add(fmt::format("tcp.synack_ack.{}", n), "what is the (raw) acknowledgement number of the SYN-ACK?",
          std::to_string(s.raw_ack), answer_kind::number);
      break;
    }
  }
  if (!t.handshake_seen()) return;  // relative numbers and the first segments need the SYN
  const auto rows = pk::rtt_estimates(t, sender, std::min(first_segments, options.max_per_kind));
  for (std::size_t k = 1; k <= rows.size(); ++k) {
    const auto& r = rows[k - 1];
    const auto& s = t.segments[r.segment];
    const auto seg = fmt::format("data segment {} of the {} (sent at {} since the capture began)", k,
                                 client_sends ? "client" : "server", instant(s.ts, start));
    const auto id = [&](std::string_view what) { return fmt::format("tcp.{}.{}.{}", what, n, k); };
    add(id("segment_seq"), fmt::format("{}: what is its (relative) sequence number?", seg), std::to_string(s.seq),
        answer_kind::number);
    add(id("segment_length"), fmt::format("{}: how many bytes of data does it carry?", seg), std::to_string(s.length),
        answer_kind::number);
    if (r.ack_segment) {
      add(id("ack_time"),
          fmt::format("{}: when (seconds since the capture began) did the first ACK covering it arrive?", seg),
          instant(t.segments[*r.ack_segment].ts, start), answer_kind::duration);
    }
    if (r.sample_rtt_s) {
      add(id("sample_rtt"), fmt::format("{}: what is its SampleRTT (ACK time minus send time, ms)?", seg),
          duration_answer(*r.sample_rtt_s), answer_kind::duration);
    }
    if (!r.estimated_rtt_s) continue;
    const char* rule =
        "RFC 6298: the first sample R gives EstimatedRTT = R and DevRTT = R/2; each later one "
        "DevRTT = 0.75 DevRTT + 0.25 |EstimatedRTT - R| (with the EstimatedRTT before it), then "
        "EstimatedRTT = 0.875 EstimatedRTT + 0.125 R; segments without a sample change nothing";
    add(id("estimated_rtt"), fmt::format("{}: what is EstimatedRTT after it, in ms ({})?", seg, rule),
        duration_answer(*r.estimated_rtt_s), answer_kind::duration);
    add(id("dev_rtt"), fmt::format("{}: what is DevRTT after it, in ms (same rules)?", seg),
        duration_answer(*r.dev_rtt_s), answer_kind::duration);
    add(id("timeout"),
        fmt::format("{}: what is the TimeoutInterval EstimatedRTT + 4 DevRTT after it, in ms (no lower bound)?", seg),
        duration_answer(*r.timeout_s), answer_kind::duration);
  }
  if (t.segments_not_kept > 0) return;  // the rest needs the whole connection
  if (const auto w = pk::min_receive_window(t, sender)) {
    add(fmt::format("tcp.min_window.{}", n),
        fmt::format("what is the smallest receive window (bytes, window scaling applied) the {} advertised?",
                    client_sends ? "server" : "client"),
        std::to_string(*w), answer_kind::number);
  }
  const auto loss = pk::first_loss(t, sender);
  add(fmt::format("tcp.retransmissions.{}", n),
      fmt::format("how many data segments did the {} retransmit (segments resending bytes it had sent before)?",
                  client_sends ? "client" : "server"),
      std::to_string(loss ? loss->retransmissions : 0), answer_kind::number);
  if (const auto tp = pk::throughput(t, sender); tp && tp->seconds > 0) {
    add(fmt::format("tcp.throughput.{}", n),
        "what is the throughput of the transfer: the bytes of data sent divided by the time from the first data "
        "segment to the ACK of the last byte (bytes per second)?",
        rate_answer(tp->bytes_per_second()), answer_kind::rate);
  }
  if (!loss) return;
  const auto& first = t.segments[loss->first_retransmission];
  add(fmt::format("tcp.slow_start_end.{}", n),
      fmt::format("in its time-sequence graph ({}), slow start ends at the first loss: when (seconds since the capture "
                  "began) was the first segment retransmitted?",
                  graph),
      instant(first.ts, start), answer_kind::duration);
  add(fmt::format("tcp.slow_start_end_seq.{}", n),
      "what is the (relative) sequence number of the first retransmitted segment?", std::to_string(first.seq),
      answer_kind::number);
  add(fmt::format("tcp.flight_at_loss.{}", n),
      "how many bytes were in flight at most (sent and not yet acknowledged) before the first retransmission: the "
      "congestion window slow start reached?",
      std::to_string(loss->flight_before_loss), answer_kind::number);
  if (loss->recovered) {
    add(fmt::format("tcp.congestion_avoidance_start.{}", n),
        fmt::format("congestion avoidance begins once the loss is repaired: when (seconds since the capture began) did "
                    "the first ACK covering everything sent before the first retransmission arrive (see {})?",
                    graph),
        instant(t.segments[*loss->recovered].ts, start), answer_kind::duration);
  }
}

}  // namespace

void tcp_timing_questions(const std::string& capture, const key_options& options, std::vector<question>& out) {
  const std::size_t keep = options.max_per_kind;
  pk::tcp_trace_recorder recorder([keep](const pk::tcp_conversation& c) { return c.id < keep; },
                                  max_segments_per_connection, keep);
  const auto stats = netlib::capture::replay_tcp(capture, recorder);
  for (const auto& [id, t] : recorder.traces()) {
    bool data = false;
    for (const auto& s : t.segments) data = data || s.length > 0;
    if (data) connection_questions(out, t, stats.first_ts, options);
  }
}

}  // namespace netlab::grade
