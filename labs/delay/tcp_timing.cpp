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

bool seq_before(std::uint32_t a, std::uint32_t b) {
  return static_cast<std::int32_t>(a - b) < 0;
}
double seconds(netlib::duration d) {
  return netlib::to_seconds(d);
}
int index_of(tcp_direction d) {
  return d == tcp_direction::client_to_server ? 0 : 1;
}

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

// The connection's state, made when first needed. A client SYN that opened the connection left
// no state: its time is the connection's first packet's.
tcp_timing::live& tcp_timing::get(const netlib::packet::tcp_conversation& c, bool opened_by_syn) {
  auto& slot = live_[c.id];
  if (!slot) {
    slot = std::make_unique<live>();
    if (opened_by_syn) slot->syn = c.first_ts;
  }
  return *slot;
}

void tcp_timing::on_segment(const netlib::packet::tcp_conversation& c, tcp_direction d,
                            const netlib::packet::tcp_header& tcp, netlib::time_point ts) {
  const int i = index_of(d);
  const bool syn = tcp.has(flag::syn), ack = tcp.has(flag::ack);
  const bool client_syn = syn && !ack && i == 0;
  live* found = nullptr;
  if (const auto it = live_.find(c.id); it != live_.end()) found = it->second.get();
  if (found == nullptr) {
    // Only a segment that starts something needs state: data, a client SYN other than the one
    // that opened the connection, a SYN-ACK answering a captured SYN. (A pure ACK without state
    // neither completes a handshake nor acknowledges data this side has seen.)
    if (client_syn && c.packets == 1) return;
    if (tcp.payload.empty() && !client_syn && !(syn && ack && i == 1 && c.handshake_seen)) return;
  }
  // Without state, a captured client SYN is the opening one: only a connection opened by a SYN
  // is still in syn_sent when another SYN comes (a retransmission).
  live& l = found != nullptr ? *found
                             : get(c, c.handshake_seen &&
                                          (!client_syn || c.state == netlib::packet::tcp_conversation_state::syn_sent));
  // Handshake: SYN (client), SYN-ACK (server), then the client's first ACK.
  if (client_syn && !l.syn) l.syn = ts;
  if (syn && ack && i == 1 && l.syn && !l.synack) {
    l.synack = ts;
    l.syn_to_synack_s = seconds(ts - *l.syn);
  }
  if (!syn && ack && i == 0 && l.synack && !l.handshake_done) {
    l.handshake_done = true;
    l.synack_to_ack_s = seconds(ts - *l.synack);
  }
  if (!tcp.payload.empty()) on_data_segment(l, i, tcp, ts);
  if (ack) on_ack(l, 1 - i, tcp.ack, ts);
}

void tcp_timing::on_data_segment(live& l, int d, const netlib::packet::tcp_header& tcp, netlib::time_point ts) {
  sender& s = l.senders[d];
  ++s.data_segments;
  if (s.last_data) s.interarrival_s.add(seconds(ts - *s.last_data));
  s.last_data = ts;
  const std::uint32_t end = tcp.seq + static_cast<std::uint32_t>(tcp.payload.size());
  if (s.high && seq_before(tcp.seq, *s.high)) {
    // Karn: this resends bytes already sent; no sample from anything it may be confused with.
    const auto first = s.pending.begin() + static_cast<std::ptrdiff_t>(s.head);
    s.pending.erase(std::remove_if(first, s.pending.end(), [&](const auto& p) { return seq_before(tcp.seq, p.first); }),
                    s.pending.end());
    if (seq_before(*s.high, end)) s.high = end;
    return;
  }
  s.high = end;
  if (s.pending.size() - s.head >= max_pending_samples) ++s.head;
  if (s.head > 4096 && s.head * 2 > s.pending.size()) {  // keep the FIFO's storage bounded
    s.pending.erase(s.pending.begin(), s.pending.begin() + static_cast<std::ptrdiff_t>(s.head));
    s.head = 0;
  }
  s.pending.emplace_back(end, ts);
}

void tcp_timing::on_ack(live& l, int acked_direction, std::uint32_t ack, netlib::time_point ts) {
  sender& s = l.senders[acked_direction];
  std::optional<netlib::time_point> newest;
  while (s.head < s.pending.size() && !seq_before(ack, s.pending[s.head].first)) {
    newest = s.pending[s.head].second;
    ++s.head;
  }
  if (s.head == s.pending.size()) {
    s.pending.clear();
    s.head = 0;
  }
  if (newest) s.rtt_s.add(seconds(ts - *newest));
}

void tcp_timing::on_data(const netlib::packet::tcp_conversation& c, tcp_direction d, netlib::byte_view,
                         netlib::time_point ts) {
  sender& s = get(c, c.handshake_seen).senders[index_of(d)];
  if (!s.first_data) s.first_data = ts;
  s.last_delivered = ts;
}

void tcp_timing::on_close(const netlib::packet::tcp_conversation& c) {
  std::unique_ptr<live> l;
  if (auto it = live_.find(c.id); it != live_.end()) {
    l = std::move(it->second);
    live_.erase(it);
  }
  if (done_.size() >= max_connections_kept) {
    ++dropped_;
    return;
  }
  connection_timing t;
  t.id = c.id;
  t.client = c.client.to_string();
  t.server = c.server.to_string();
  t.state = std::string(netlib::packet::state_name(c.state));
  const auto fill = [&](direction_timing& out, const netlib::packet::tcp_direction_stats& st, const sender* s) {
    out.packets = st.packets;
    out.bytes = st.payload_bytes;
    out.retransmitted_bytes = st.retransmitted_bytes;
    out.missing_bytes = st.gap_bytes;
    if (s == nullptr) return;
    out.data_segments = s->data_segments;
    out.rtt_s = s->rtt_s;
    out.interarrival_s = s->interarrival_s;
    out.first_data = s->first_data;
    out.last_data = s->last_delivered;
  };
  fill(t.to_server, c.to_server, l ? &l->senders[0] : nullptr);
  fill(t.to_client, c.to_client, l ? &l->senders[1] : nullptr);
  if (l) {
    t.syn_to_synack_s = l->syn_to_synack_s;
    t.synack_to_ack_s = l->synack_to_ack_s;
  }
  done_.push_back(std::move(t));
}

}  // namespace netlab::lab_delay
