// Theory of operation: each conversation keeps, per direction, a FIFO of (sequence end, time) for
// data segments not yet acknowledged. An ACK from the other side pops every entry it covers and
// yields one RTT sample, from the newest entry popped. A segment that starts below the highest
// sequence already sent is a retransmission: the entries it could be confused with are dropped,
// so no sample is ever taken from a retransmitted segment (Karn). Sequence numbers compare in
// serial arithmetic (RFC 9293 §3.4), so wrap-around is handled.
#include "tcp_timing.hpp"

#include <algorithm>
#include <cmath>

namespace netlab::lab_delay {
namespace {

using netlib::packet::tcp_direction;
namespace flag = netlib::packet::tcp_flag;

bool seq_before(std::uint32_t a, std::uint32_t b) { return static_cast<std::int32_t>(a - b) < 0; }
double seconds(netlib::duration d) { return netlib::to_seconds(d); }
int index_of(tcp_direction d) { return d == tcp_direction::client_to_server ? 0 : 1; }

}  // namespace

void running_stats::add(double x) {
  min = count ? std::min(min, x) : x;
  max = count ? std::max(max, x) : x;
  ++count;
  sum += x;
  squares += x * x;
}

double running_stats::stddev() const {
  if (count < 2) return 0;
  const double m = mean();
  return std::sqrt(std::max(0.0, squares / double(count) - m * m));
}

double direction_timing::duration_s() const {
  return first_data && last_data ? seconds(*last_data - *first_data) : 0;
}

std::optional<double> direction_timing::goodput_bps() const {
  const double d = duration_s();
  if (d <= 0) return std::nullopt;
  return 8.0 * double(bytes) / d;
}

std::optional<double> connection_timing::handshake_rtt_s() const {
  if (!syn_to_synack_s || !synack_to_ack_s) return std::nullopt;
  return *syn_to_synack_s + *synack_to_ack_s;
}

tcp_timing::live& tcp_timing::get(const netlib::packet::tcp_conversation& c) {
  auto [it, inserted] = live_.try_emplace(c.id);
  if (inserted) {
    it->second.timing.id = c.id;
    it->second.timing.client = c.client.to_string();
    it->second.timing.server = c.server.to_string();
  }
  return it->second;
}

void tcp_timing::on_segment(const netlib::packet::tcp_conversation& c, tcp_direction d,
                            const netlib::packet::tcp_header& tcp, netlib::time_point ts) {
  live& l = get(c);
  const int i = index_of(d);
  (i == 0 ? l.timing.to_server : l.timing.to_client).packets++;
  // Handshake: SYN (client), SYN-ACK (server), then the client's first ACK.
  if (tcp.has(flag::syn) && !tcp.has(flag::ack) && i == 0 && !l.syn) l.syn = ts;
  if (tcp.has(flag::syn) && tcp.has(flag::ack) && i == 1 && l.syn && !l.synack) {
    l.synack = ts;
    l.timing.syn_to_synack_s = seconds(ts - *l.syn);
  }
  if (!tcp.has(flag::syn) && tcp.has(flag::ack) && i == 0 && l.synack && !l.handshake_done) {
    l.handshake_done = true;
    l.timing.synack_to_ack_s = seconds(ts - *l.synack);
  }
  if (!tcp.payload.empty()) on_data_segment(l, i, tcp, ts);
  if (tcp.has(flag::ack)) on_ack(l, 1 - i, tcp.ack, ts);
}

void tcp_timing::on_data_segment(live& l, int d, const netlib::packet::tcp_header& tcp, netlib::time_point ts) {
  sender& s = l.senders[d];
  direction_timing& t = d == 0 ? l.timing.to_server : l.timing.to_client;
  ++t.data_segments;
  if (s.last_data) t.interarrival_s.add(seconds(ts - *s.last_data));
  s.last_data = ts;
  const std::uint32_t end = tcp.seq + static_cast<std::uint32_t>(tcp.payload.size());
  if (s.high && seq_before(tcp.seq, *s.high)) {
    // Karn: this resends bytes already sent; no sample from anything it may be confused with.
    std::erase_if(s.pending, [&](const auto& p) { return seq_before(tcp.seq, p.first); });
    if (seq_before(*s.high, end)) s.high = end;
    return;
  }
  s.high = end;
  if (s.pending.size() >= max_pending_samples) s.pending.pop_front();
  s.pending.emplace_back(end, ts);
}

void tcp_timing::on_ack(live& l, int acked_direction, std::uint32_t ack, netlib::time_point ts) {
  sender& s = l.senders[acked_direction];
  std::optional<netlib::time_point> newest;
  while (!s.pending.empty() && !seq_before(ack, s.pending.front().first)) {
    newest = s.pending.front().second;
    s.pending.pop_front();
  }
  if (newest) (acked_direction == 0 ? l.timing.to_server : l.timing.to_client).rtt_s.add(seconds(ts - *newest));
}

void tcp_timing::on_data(const netlib::packet::tcp_conversation& c, tcp_direction d, netlib::byte_view,
                         netlib::time_point ts) {
  direction_timing& t = index_of(d) == 0 ? get(c).timing.to_server : get(c).timing.to_client;
  if (!t.first_data) t.first_data = ts;
  t.last_data = ts;
}

void tcp_timing::on_close(const netlib::packet::tcp_conversation& c) {
  auto it = live_.find(c.id);
  if (it == live_.end()) return;
  connection_timing t = std::move(it->second.timing);
  live_.erase(it);
  t.state = std::string(netlib::packet::state_name(c.state));
  t.to_server.bytes = c.to_server.payload_bytes;
  t.to_server.retransmitted_bytes = c.to_server.retransmitted_bytes;
  t.to_client.bytes = c.to_client.payload_bytes;
  t.to_client.retransmitted_bytes = c.to_client.retransmitted_bytes;
  if (done_.size() >= max_connections_kept) {
    ++dropped_;
    return;
  }
  done_.push_back(std::move(t));
}

}  // namespace netlab::lab_delay
