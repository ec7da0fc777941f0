// TCP conversations.
//
// Theory of operation: flows_ maps the unordered 4-tuple to a flow (conversation + one tcp_stream
// per direction). The key is the two endpoints as machine words in a fixed order (any total order
// will do; this one compares the words) and flows_ is a flat open-addressing table, so a packet
// costs one hash and usually one slot; the flow remembers which key side is its client, so the
// direction of a packet needs no address comparison. A packet on an unknown tuple opens a conversation whose client is the SYN sender
// (the SYN-ACK receiver, or else the first packet's sender). Each packet then: updates counters,
// advances the state (one transition function, advance()), is shown to the visitor, and feeds the
// stream of its direction (its ACK feeds the other stream's loss detection). When both directions
// are finished or a RST is seen, the streams are flushed and freed; the conversation lingers for
// late packets and is released by sweep() after `closed_linger` (or `idle_timeout` without
// packets). A SYN on a closed or reset tuple with a new ISN starts a new conversation (port reuse).
#include "netlib/packet/tcp_reassembler.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <vector>

#include "netlib/packet/tcp_stream.hpp"

namespace netlib::packet {

std::string_view state_name(tcp_conversation_state s) noexcept {
  switch (s) {
    case tcp_conversation_state::syn_sent: return "syn_sent";
    case tcp_conversation_state::syn_received: return "syn_received";
    case tcp_conversation_state::established: return "established";
    case tcp_conversation_state::closing: return "closing";
    case tcp_conversation_state::closed: return "closed";
    case tcp_conversation_state::reset: return "reset";
  }
  return "unknown";
}

struct tcp_reassembler::flow {
  tcp_conversation conv;
  tcp_stream to_server;
  tcp_stream to_client;
  tcp_stream::sink to_server_sink;
  tcp_stream::sink to_client_sink;
  bool client_is_a = false;  // the client is the key's endpoint a (b: both when a == b)
  bool client_is_b = false;
  bool streams_closed = false;
  bool to_server_ended = false;
  bool to_client_ended = false;
  time_point closed_at{};

  flow(std::size_t limit, tcp_visitor* v) : to_server(limit), to_client(limit) {
    to_server_sink = {[this, v](byte_view b, time_point t) { v->on_data(conv, tcp_direction::client_to_server, b, t); },
                      [this, v](std::uint64_t n, time_point t) { v->on_gap(conv, tcp_direction::client_to_server, n, t); }};
    to_client_sink = {[this, v](byte_view b, time_point t) { v->on_data(conv, tcp_direction::server_to_client, b, t); },
                      [this, v](std::uint64_t n, time_point t) { v->on_gap(conv, tcp_direction::server_to_client, n, t); }};
  }
  tcp_stream& stream(tcp_direction d) { return d == tcp_direction::client_to_server ? to_server : to_client; }
  tcp_direction_stats& stats(tcp_direction d) {
    return d == tcp_direction::client_to_server ? conv.to_server : conv.to_client;
  }
  void sync(tcp_direction d) {  // the stream's counters into the conversation's
    auto& s = stats(d);
    const auto& st = stream(d);
    s.payload_bytes = st.delivered_bytes();
    s.gap_bytes = st.gap_bytes();
    s.gaps = st.gaps();
    s.retransmitted_bytes = st.retransmitted_bytes();
  }
  void sync() {
    sync(tcp_direction::client_to_server);
    sync(tcp_direction::server_to_client);
  }
};

namespace {

// The one transition function of the observed connection (RFC 9293 §3.3.2, §3.6).
tcp_conversation_state advance(const tcp_conversation& c, tcp_direction d, const tcp_header& t) {
  using s = tcp_conversation_state;
  if (c.state == s::reset || t.has(tcp_flag::rst)) return s::reset;
  if (c.to_server.fin && c.to_client.fin) return s::closed;
  if (t.has(tcp_flag::fin)) return s::closing;
  switch (c.state) {
    case s::syn_sent:
      if (d == tcp_direction::server_to_client && t.has(tcp_flag::syn) && t.has(tcp_flag::ack)) return s::syn_received;
      return s::syn_sent;
    case s::syn_received:
      if (d == tcp_direction::client_to_server && t.has(tcp_flag::ack) && !t.has(tcp_flag::syn)) return s::established;
      return s::syn_received;
    default: return c.state;
  }
}

}  // namespace

bool tcp_reassembler::flow_key_equal::operator()(const flow_key& x, const flow_key& y) const noexcept {
  return x.a_lo == y.a_lo && x.a_hi == y.a_hi && x.b_lo == y.b_lo && x.b_hi == y.b_hi && x.a_port == y.a_port &&
         x.b_port == y.b_port && x.families == y.families;
}

std::uint64_t tcp_reassembler::flow_key_hash::operator()(const flow_key& k) const noexcept {
  const std::uint64_t ports = (std::uint64_t{k.a_port} << 17U) ^ (std::uint64_t{k.b_port} << 2U) ^ k.families;
  std::uint64_t h = (k.a_lo * 0x9e3779b97f4a7c15ULL) ^ std::rotl(k.a_hi * 0xc2b2ae3d27d4eb4fULL, 29) ^
                    std::rotl((k.b_lo ^ ports) * 0x165667b19e3779f9ULL, 17) ^ std::rotl(k.b_hi * 0x94d049bb133111ebULL, 43);
  h ^= h >> 32;  // the high bits reach the slot index too
  h *= 0xd6e8feb86659fd93ULL;
  return h ^ (h >> 32);
}

tcp_reassembler::tcp_reassembler(tcp_visitor& visitor, reassembly_limits limits)
    : visitor_(visitor), limits_(limits) {}

tcp_reassembler::~tcp_reassembler() = default;

void tcp_reassembler::feed(const decoded_packet& packet, time_point ts) {
  const auto* tcp = packet.tcp();
  if (tcp != nullptr) {
    if (const auto* v4 = packet.ipv4(); v4 != nullptr && !v4->is_fragment()) return feed(v4->src, v4->dst, *tcp, ts);
    if (const auto* v6 = packet.ipv6(); v6 != nullptr && !v6->is_fragment) return feed(v6->src, v6->dst, *tcp, ts);
  }
  ++ignored_;
}

tcp_reassembler::flow& tcp_reassembler::open(const flow_key& key, bool src_is_a, const endpoint& src,
                                             const endpoint& dst, const tcp_header& tcp, time_point ts) {
  if (flows_.size() >= limits_.max_conversations && !flows_.empty()) {  // the least recent goes (ties: the oldest)
    const flow* oldest = nullptr;
    flow_key oldest_key;
    flows_.for_each([&](const flow_key& k, const std::unique_ptr<flow>& f) {
      if (oldest == nullptr || std::pair(f->conv.last_ts, f->conv.id) < std::pair(oldest->conv.last_ts, oldest->conv.id)) {
        oldest = f.get();
        oldest_key = k;
      }
    });
    release(oldest_key);
  }
  auto f = std::make_unique<flow>(limits_.max_buffered_bytes, &visitor_);
  const bool syn = tcp.has(tcp_flag::syn);
  const bool ack = tcp.has(tcp_flag::ack);
  auto& c = f->conv;
  c.id = next_id_++;
  c.client = syn && ack ? dst : src;
  c.server = syn && ack ? src : dst;
  c.handshake_seen = syn && !ack;
  c.state = syn ? (ack ? tcp_conversation_state::syn_received : tcp_conversation_state::syn_sent)
                : tcp_conversation_state::established;
  c.first_ts = ts;
  const bool client_is_src = !(syn && ack);
  const bool one_endpoint = key.a_lo == key.b_lo && key.a_hi == key.b_hi && key.a_port == key.b_port &&
                            (key.families == 0 || key.families == 3);
  f->client_is_a = one_endpoint || client_is_src == src_is_a;
  f->client_is_b = one_endpoint || client_is_src != src_is_a;
  visitor_.on_open(c);
  return *flows_.insert(key, std::move(f));
}

void tcp_reassembler::feed(const ip_address& src_ip, const ip_address& dst_ip, const tcp_header& tcp, time_point ts) {
  // The key straight from the address words (no endpoint built unless a conversation opens).
  std::uint64_t s_lo = 0, s_hi = 0, d_lo = 0, d_hi = 0;
  std::memcpy(&s_lo, src_ip.octets.data(), 8);
  std::memcpy(&s_hi, src_ip.octets.data() + 8, 8);
  std::memcpy(&d_lo, dst_ip.octets.data(), 8);
  std::memcpy(&d_hi, dst_ip.octets.data() + 8, 8);
  const bool dst_first = d_lo != s_lo             ? d_lo < s_lo
                         : d_hi != s_hi           ? d_hi < s_hi
                         : tcp.dst_port != tcp.src_port ? tcp.dst_port < tcp.src_port
                                                  : dst_ip.v6 < src_ip.v6;
  const bool src_is_a = !dst_first;
  const auto fam = [](bool a_v6, bool b_v6) { return static_cast<std::uint8_t>((a_v6 ? 1U : 0U) | (b_v6 ? 2U : 0U)); };
  const flow_key key = src_is_a ? flow_key{s_lo, s_hi, d_lo, d_hi, tcp.src_port, tcp.dst_port, fam(src_ip.v6, dst_ip.v6)}
                                : flow_key{d_lo, d_hi, s_lo, s_hi, tcp.dst_port, tcp.src_port, fam(dst_ip.v6, src_ip.v6)};
  std::unique_ptr<flow>* found = flows_.find(key);
  if (found != nullptr && tcp.has(tcp_flag::syn) && !tcp.has(tcp_flag::ack)) {
    const auto& old = **found;
    const bool finished = old.conv.state == tcp_conversation_state::closed || old.conv.state == tcp_conversation_state::reset;
    if (finished && old.to_server.isn() != tcp.seq) {  // port reuse: a new connection
      release(key);
      found = nullptr;
    }
  }
  flow& f = found == nullptr ? open(key, src_is_a, endpoint{src_ip, tcp.src_port}, endpoint{dst_ip, tcp.dst_port}, tcp, ts)
                              : **found;
  const bool from_client = src_is_a ? f.client_is_a : f.client_is_b;
  const auto dir = from_client ? tcp_direction::client_to_server : tcp_direction::server_to_client;
  auto& stats = f.stats(dir);
  ++f.conv.packets;
  ++stats.packets;
  f.conv.last_ts = ts;
  stats.syn = stats.syn || tcp.has(tcp_flag::syn);
  stats.fin = stats.fin || tcp.has(tcp_flag::fin);
  stats.rst = stats.rst || tcp.has(tcp_flag::rst);
  if (dir == tcp_direction::client_to_server && tcp.has(tcp_flag::syn) && !tcp.has(tcp_flag::ack)) f.conv.handshake_seen = true;
  f.conv.state = advance(f.conv, dir, tcp);
  visitor_.on_segment(f.conv, dir, tcp, ts);
  if (!f.streams_closed) {
    const auto other = dir == tcp_direction::client_to_server ? tcp_direction::server_to_client : tcp_direction::client_to_server;
    if (!tcp.has(tcp_flag::rst)) {
      f.stream(dir).on_segment(tcp.seq, tcp.has(tcp_flag::syn), tcp.has(tcp_flag::fin), tcp.payload, ts,
                               dir == tcp_direction::client_to_server ? f.to_server_sink : f.to_client_sink);
    }
    if (tcp.has(tcp_flag::ack)) f.stream(other).on_peer_ack(tcp.ack);
    f.sync(dir);  // only this direction's stream delivered (the peer's ACK changes no counter)
    if (f.to_server.fin_seen() || f.to_client.fin_seen()) report_ends(f, ts, false);  // only a FIN ends a stream here
    if ((f.to_server.finished() && f.to_client.finished()) || tcp.has(tcp_flag::rst)) close_streams(f, ts);
  }
  if (ts >= next_sweep_) sweep(ts);  // at most once a second of capture time
}

void tcp_reassembler::close_streams(flow& f, time_point ts) {
  if (f.streams_closed) return;
  f.to_server.flush(ts, f.to_server_sink);
  f.to_client.flush(ts, f.to_client_sink);
  f.sync();
  f.streams_closed = true;
  f.closed_at = ts;
  report_ends(f, ts, true);
}

void tcp_reassembler::report_ends(flow& f, time_point ts, bool all) {
  if (!f.to_server_ended && (all || f.to_server.finished())) {
    f.to_server_ended = true;
    visitor_.on_end_of_stream(f.conv, tcp_direction::client_to_server, ts);
  }
  if (!f.to_client_ended && (all || f.to_client.finished())) {
    f.to_client_ended = true;
    visitor_.on_end_of_stream(f.conv, tcp_direction::server_to_client, ts);
  }
}

void tcp_reassembler::release(const flow_key& key) {
  std::unique_ptr<flow>* found = flows_.find(key);
  if (found == nullptr) return;
  auto f = std::move(*found);
  flows_.erase(key);
  close_streams(*f, f->conv.last_ts);
  visitor_.on_close(f->conv);
}

void tcp_reassembler::sweep(time_point now) {
  next_sweep_ = now + std::chrono::seconds(1);
  std::vector<std::pair<std::uint64_t, flow_key>> done;
  flows_.for_each([&](const flow_key& key, const std::unique_ptr<flow>& f) {
    const bool lingered = f->streams_closed && now - f->closed_at > limits_.closed_linger;
    const bool idle = now - f->conv.last_ts > limits_.idle_timeout;
    if (lingered || idle) done.emplace_back(f->conv.id, key);
  });
  std::sort(done.begin(), done.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  for (const auto& [id, key] : done) release(key);
}

void tcp_reassembler::finish() {
  std::vector<std::pair<std::uint64_t, flow_key>> all;
  flows_.for_each([&](const flow_key& key, const std::unique_ptr<flow>& f) { all.emplace_back(f->conv.id, key); });
  std::sort(all.begin(), all.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  for (const auto& [id, key] : all) release(key);
}

}  // namespace netlib::packet
