// TCP traces and the textbook's readings of them. Theory of operation: the recorder keeps, per
// selected conversation, each segment with its sequence numbers made relative to the ISNs (the
// SYN's sequence number; without a captured SYN, the first sequence number seen), its window
// scaled by the shift the sender's SYN announced (RFC 7323 §2.2: only when both SYNs carried the
// option, and never in a SYN), and whether it resends sequence space already sent (it starts
// before the highest sequence number sent so far in its direction). The analyses walk the trace
// in capture order, comparing sequence numbers in serial arithmetic (RFC 9293 §3.4) on the
// relative values.
#include "netlib/packet/tcp_trace.hpp"

#include <algorithm>
#include <cmath>

namespace netlib::packet {
namespace {

int trace_side(tcp_direction d) {
  return d == tcp_direction::client_to_server ? 0 : 1;
}
bool serial_before(std::uint32_t a, std::uint32_t b) {
  return static_cast<std::int32_t>(a - b) < 0;
}
bool serial_at_or_before(std::uint32_t a, std::uint32_t b) {
  return static_cast<std::int32_t>(b - a) >= 0;
}

}  // namespace

void tcp_trace_recorder::on_open(const tcp_conversation& c) {
  if (traces_.size() >= max_traces_ || !wanted_(c)) return;
  traces_[c.id].conversation = c;
  progress_[c.id];
}

void tcp_trace_recorder::on_segment(const tcp_conversation& c, tcp_direction d, const tcp_header& t, time_point ts) {
  const auto it = traces_.find(c.id);
  if (it == traces_.end()) return;
  auto& tr = it->second;
  auto& pr = progress_[c.id];
  const int me = trace_side(d), peer = 1 - me;
  if (t.has(tcp_flag::syn)) {
    if (!tr.isn[me]) {
      tr.isn[me] = t.seq;
      tr.window_scale[me] = t.options.window_scale;
      tr.mss[me] = t.options.mss;
    }
    if (!tr.base[me]) tr.base[me] = t.seq;
  }
  if (!tr.base[me]) tr.base[me] = t.seq;
  if (tr.segments.size() >= max_segments_) {
    ++tr.segments_not_kept;
    return;
  }
  tcp_trace_segment s;
  s.ts = ts;
  s.direction = d;
  s.flags = t.flags;
  s.raw_seq = t.seq;
  s.raw_ack = t.ack;
  s.seq = t.seq - *tr.base[me];
  if (t.has(tcp_flag::ack) && tr.base[peer]) s.ack = t.ack - *tr.base[peer];
  s.length = static_cast<std::uint32_t>(t.payload.size());
  s.window = t.window;
  if (!t.has(tcp_flag::syn) && tr.scaling())
    s.window <<= std::min<unsigned>(*tr.window_scale[me], 14);  // RFC 7323 §2.3
  const std::uint32_t end = t.seq + s.span();
  if (s.span() > 0) {
    auto& high = pr.highest_end[me];
    if (high && serial_before(t.seq, *high)) s.retransmission = true;
    if (!high || serial_before(*high, end)) high = end;
  }
  tr.segments.push_back(s);
}

void tcp_trace_recorder::on_close(const tcp_conversation& c) {
  const auto it = traces_.find(c.id);
  if (it == traces_.end()) return;
  it->second.conversation = c;
  progress_.erase(c.id);
}

tcp_direction data_sender(const tcp_trace& t) noexcept {
  return t.conversation.to_client.payload_bytes > t.conversation.to_server.payload_bytes
             ? tcp_direction::server_to_client
             : tcp_direction::client_to_server;
}

std::vector<rtt_row> rtt_estimates(const tcp_trace& t, tcp_direction sender, std::size_t count,
                                   const rtt_gains& gains) {
  std::vector<rtt_row> rows;
  const auto& seg = t.segments;
  for (std::size_t i = 0; i < seg.size() && rows.size() < count; ++i) {
    if (seg[i].direction != sender || seg[i].length == 0) continue;
    rtt_row r;
    r.segment = i;
    const std::uint32_t end = seg[i].seq + seg[i].span();
    for (std::size_t j = i + 1; j < seg.size(); ++j) {
      if (seg[j].direction != sender && seg[j].has(tcp_flag::ack) && serial_at_or_before(end, seg[j].ack)) {
        r.ack_segment = j;
        break;
      }
    }
    // Karn (RFC 6298 §3): no sample from a segment resent, or whose bytes were resent before the ACK.
    bool ambiguous = seg[i].retransmission;
    const std::size_t until = r.ack_segment.value_or(seg.size());
    for (std::size_t j = i + 1; j < until && !ambiguous; ++j) {
      const auto& o = seg[j];
      if (o.direction == sender && o.retransmission && o.length > 0 && serial_before(o.seq, end) &&
          serial_before(seg[i].seq, o.seq + o.span())) {
        ambiguous = true;
      }
    }
    if (r.ack_segment && !ambiguous) r.sample_rtt_s = to_seconds(seg[*r.ack_segment].ts - seg[i].ts);
    rows.push_back(r);
  }
  std::optional<double> srtt, rttvar;
  for (auto& r : rows) {
    if (r.sample_rtt_s) {
      const double sample = *r.sample_rtt_s;
      if (!srtt) {
        srtt = sample;  // RFC 6298 (2.2)
        rttvar = sample / 2;
      } else {
        rttvar = (1 - gains.beta) * *rttvar + gains.beta * std::abs(*srtt - sample);  // (2.3), old SRTT
        srtt = (1 - gains.alpha) * *srtt + gains.alpha * sample;
      }
    }
    r.estimated_rtt_s = srtt;
    r.dev_rtt_s = rttvar;
    if (srtt) r.timeout_s = *srtt + gains.k * *rttvar;
  }
  return rows;
}

std::vector<std::optional<std::uint64_t>> bytes_in_flight(const tcp_trace& t, tcp_direction sender) {
  std::vector<std::optional<std::uint64_t>> out(t.segments.size());
  std::optional<std::uint32_t> next, acked;
  for (std::size_t i = 0; i < t.segments.size(); ++i) {
    const auto& s = t.segments[i];
    if (s.direction != sender) {
      if (s.has(tcp_flag::ack) && (!acked || serial_before(*acked, s.ack))) acked = s.ack;
      continue;
    }
    const std::uint32_t end = s.seq + s.span();
    if (s.span() > 0 && (!next || serial_before(*next, end))) next = end;
    if (s.length > 0 && next && acked) out[i] = static_cast<std::uint32_t>(*next - *acked);
  }
  return out;
}

std::optional<loss_recovery> first_loss(const tcp_trace& t, tcp_direction sender) {
  const auto& seg = t.segments;
  const auto flight = bytes_in_flight(t, sender);
  std::optional<loss_recovery> out;
  std::optional<std::uint32_t> high;
  std::uint64_t most = 0;
  for (std::size_t i = 0; i < seg.size(); ++i) {
    const auto& s = seg[i];
    if (s.direction != sender) continue;
    if (s.length > 0 && s.retransmission) {
      if (!out) {
        out.emplace();
        out->first_retransmission = i;
        out->recovery_point = high.value_or(s.seq + s.span());
        out->flight_before_loss = most;
      }
      ++out->retransmissions;
      continue;
    }
    if (!out) {
      if (flight[i]) most = std::max(most, *flight[i]);
      const std::uint32_t end = s.seq + s.span();
      if (s.span() > 0 && (!high || serial_before(*high, end))) high = end;
    }
  }
  if (!out) return out;
  for (std::size_t j = out->first_retransmission + 1; j < seg.size(); ++j) {
    if (seg[j].direction != sender && seg[j].has(tcp_flag::ack) &&
        serial_at_or_before(out->recovery_point, seg[j].ack)) {
      out->recovered = j;
      break;
    }
  }
  return out;
}

std::optional<transfer_throughput> throughput(const tcp_trace& t, tcp_direction sender) {
  const auto& seg = t.segments;
  std::optional<std::size_t> first;
  std::optional<std::uint32_t> last_end;
  for (std::size_t i = 0; i < seg.size(); ++i) {
    if (seg[i].direction != sender || seg[i].length == 0) continue;
    if (!first) first = i;
    const std::uint32_t end = seg[i].seq + seg[i].length;
    if (!last_end || serial_before(*last_end, end)) last_end = end;
  }
  if (!first) return std::nullopt;
  for (std::size_t j = *first + 1; j < seg.size(); ++j) {
    if (seg[j].direction != sender && seg[j].has(tcp_flag::ack) && serial_at_or_before(*last_end, seg[j].ack)) {
      // Relative sequence 1 is the first data byte after the SYN (0 without a captured SYN).
      const std::uint32_t start = seg[*first].seq;
      transfer_throughput tp;
      tp.bytes = static_cast<std::uint32_t>(*last_end - start);
      tp.seconds = to_seconds(seg[j].ts - seg[*first].ts);
      return tp;
    }
  }
  return std::nullopt;
}

std::optional<std::uint64_t> min_receive_window(const tcp_trace& t, tcp_direction sender) {
  std::optional<std::uint64_t> out;
  for (const auto& s : t.segments) {
    if (s.direction == sender) continue;
    out = out ? std::min(*out, s.window) : s.window;
  }
  return out;
}

}  // namespace netlib::packet
