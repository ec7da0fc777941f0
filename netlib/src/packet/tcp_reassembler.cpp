// TCP conversations.
//
// Theory of operation. table_ maps the unordered 4-tuple to a flow in a pool. The key is the two
// endpoints as machine words in a fixed order (any total order will do; this one compares the
// words); table_ is a flat open-addressing array of 8-byte slots (the high half of the key's hash
// and a pool index), so a packet costs one hash, usually one slot, and the flow it names, whose
// key is compared in full. The flow remembers which key side is its client, so the direction of a
// packet needs no address comparison. A packet on an unknown tuple opens a conversation whose
// client is the SYN sender (the SYN-ACK receiver, or else the first packet's sender).
//
// Two forms of a flow. A conversation that has carried no payload, FIN or RST (a handshake, a
// scan's lone SYN, pure ACKs) is *light*: its counters, its state and, per direction, what a
// tcp_stream fed only such segments would hold (the first sequence number, the ISN, the highest
// ACK from the peer), about 120 bytes and no allocation; the visitor is shown a tcp_conversation
// built from it. The first segment with payload, a FIN or a RST *promotes* it: a `heavy` part is
// allocated with the conversation and one tcp_stream per direction, the streams replaying the
// light facts (so they are exactly as if they had been fed every segment), and from then on each
// packet updates counters, advances the state (one transition function, advance()), is shown to
// the visitor, and feeds the stream of its direction (its ACK feeds the other stream's loss
// detection).
//
// Release. A RST, or a FIN from each side acknowledged by the other, ends the conversation at
// once: its streams are flushed (holes reported as gaps), the visitor gets on_close, and the flow
// goes back to the pool, leaving a tombstone (hash, id, client ISN) for `closed_linger`, so a
// retransmitted FIN or a late ACK is counted in late_packets() and never opens a new conversation
// (tshark's tcp.stream numbering stays the same), while a SYN with another ISN does (port reuse).
// When both directions are finished but the last ACK was not captured, the conversation lingers
// and sweep() releases it after `closed_linger`; sweep() also releases conversations idle for
// `idle_timeout`. Beyond `max_conversations` open at once, the least recently active sixteenth is
// released in one pass (amortised: no scan per new conversation).
#include "netlib/packet/tcp_reassembler.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <optional>
#include <vector>

#include "netlib/packet/tcp_stream.hpp"

namespace netlib::packet {

std::string_view state_name(tcp_conversation_state s) noexcept {
  switch (s) {
    case tcp_conversation_state::syn_sent:
      return "syn_sent";
    case tcp_conversation_state::syn_received:
      return "syn_received";
    case tcp_conversation_state::established:
      return "established";
    case tcp_conversation_state::closing:
      return "closing";
    case tcp_conversation_state::closed:
      return "closed";
    case tcp_conversation_state::reset:
      return "reset";
  }
  return "unknown";
}

namespace {

constexpr int client_side = 0;  // index of client_to_server in the light per-direction arrays

int side(tcp_direction d) {
  return d == tcp_direction::client_to_server ? 0 : 1;
}

// The one transition function of the observed connection (RFC 9293 §3.3.2, §3.6).
tcp_conversation_state advance(tcp_conversation_state state, bool both_fins, tcp_direction d, const tcp_header& t) {
  using s = tcp_conversation_state;
  if (state == s::reset || t.has(tcp_flag::rst)) return s::reset;
  if (both_fins) return s::closed;
  if (t.has(tcp_flag::fin)) return s::closing;
  switch (state) {
    case s::syn_sent:
      if (d == tcp_direction::server_to_client && t.has(tcp_flag::syn) && t.has(tcp_flag::ack)) return s::syn_received;
      return s::syn_sent;
    case s::syn_received:
      if (d == tcp_direction::client_to_server && t.has(tcp_flag::ack) && !t.has(tcp_flag::syn)) return s::established;
      return s::syn_received;
    default:
      return state;
  }
}

// Output of segments that carry no payload and no FIN: nothing can come out.
class null_output final : public tcp_stream::output {
 public:
  void data(byte_view, time_point) override {}
  void gap(std::uint64_t, time_point) override {}
};

}  // namespace

// Per direction of a light flow: what tcp_stream would hold after segments without payload/FIN.
namespace light_bits {
constexpr std::uint8_t has_base = 1;     // a segment was seen (base: its sequence number, +1 for a SYN)
constexpr std::uint8_t plain_first = 2;  // the first segment was not a SYN (base is its sequence number)
constexpr std::uint8_t has_isn = 4;      // a SYN was seen (isn)
constexpr std::uint8_t has_ack = 8;      // the peer acknowledged beyond base (ack: the highest)
}  // namespace light_bits

struct tcp_reassembler::heavy {
  tcp_conversation conv;
  tcp_stream to_server;
  tcp_stream to_client;
  bool streams_closed = false;
  bool to_server_ended = false;
  bool to_client_ended = false;
  time_point closed_at{};

  explicit heavy(std::size_t limit) : to_server(limit), to_client(limit) {}
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

struct tcp_reassembler::flow {
  flow_key key;
  bool live = false;
  bool client_is_a = false;  // the client is the key's endpoint a (b: both when a == b)
  bool client_is_b = false;
  std::uint64_t id = 0;
  time_point first_ts{};
  time_point last_ts{};  // of a light flow (a heavy one keeps it in its conversation)
  std::unique_ptr<heavy> h;
  // Light form (while h is null), per direction [client -> server, server -> client].
  std::uint32_t packets[2] = {0, 0};
  std::uint32_t base[2] = {0, 0};
  std::uint32_t isn[2] = {0, 0};
  std::uint32_t ack[2] = {0, 0};
  std::uint8_t bits[2] = {0, 0};
  tcp_conversation_state state = tcp_conversation_state::established;
  bool handshake_seen = false;

  [[nodiscard]] time_point last() const noexcept { return h ? h->conv.last_ts : last_ts; }
};

// Bytes and gaps of one direction to the visitor.
class tcp_reassembler::direction_output final : public tcp_stream::output {
 public:
  direction_output(tcp_reassembler& r, const tcp_conversation& c, tcp_direction d) : r_(r), c_(c), d_(d) {}
  void data(byte_view bytes, time_point ts) override { r_.visitor_.on_data(c_, d_, bytes, ts); }
  void gap(std::uint64_t size, time_point ts) override {
    r_.missing_bytes_ += size;
    r_.visitor_.on_gap(c_, d_, size, ts);
  }

 private:
  tcp_reassembler& r_;
  const tcp_conversation& c_;
  tcp_direction d_;
};

bool tcp_reassembler::same_key(const flow_key& x, const flow_key& y) noexcept {
  // == without the library memcmp calls of the defaulted operator
  return x.a_lo == y.a_lo && x.a_hi == y.a_hi && x.b_lo == y.b_lo && x.b_hi == y.b_hi && x.a_port == y.a_port &&
         x.b_port == y.b_port && x.families == y.families;
}

std::uint64_t tcp_reassembler::hash(const flow_key& k) noexcept {
  const std::uint64_t ports = (std::uint64_t{k.a_port} << 17U) ^ (std::uint64_t{k.b_port} << 2U) ^ k.families;
  std::uint64_t h = (k.a_lo * 0x9e3779b97f4a7c15ULL) ^ std::rotl(k.a_hi * 0xc2b2ae3d27d4eb4fULL, 29) ^
                    std::rotl((k.b_lo ^ ports) * 0x165667b19e3779f9ULL, 17) ^
                    std::rotl(k.b_hi * 0x94d049bb133111ebULL, 43);
  h ^= h >> 32;  // the high bits reach the slot index too
  h *= 0xd6e8feb86659fd93ULL;
  return h ^ (h >> 32);
}

tcp_reassembler::tcp_reassembler(tcp_visitor& visitor, reassembly_limits limits) : visitor_(visitor), limits_(limits) {
  // Lingering and idle conversations are looked for a few times per limit (at least every second
  // of capture time, at most every minute); tombstones expire every second.
  const duration shortest = std::min(limits_.closed_linger, limits_.idle_timeout);
  sweep_period_ = std::clamp<duration>(shortest / 8, std::chrono::seconds(1), std::chrono::seconds(60));
  // next_check_ starts at the epoch's origin: the first packet sets the schedule.
  table_.resize(1024);
}

tcp_reassembler::~tcp_reassembler() = default;

// ---------------------------------------------------------------------------- table and pool

inline tcp_reassembler::flow& tcp_reassembler::at(std::uint32_t index) noexcept {
  return blocks_[index >> block_bits][index & (block_size - 1)];
}

std::size_t tcp_reassembler::slot_of(std::uint32_t tag, std::uint32_t ref) const noexcept {
  const std::size_t mask = table_.size() - 1;
  std::size_t i = tag & mask;
  while (table_[i].ref != ref) i = (i + 1) & mask;
  return i;
}

void tcp_reassembler::table_insert(std::uint32_t tag, std::uint32_t ref) {
  if ((used_slots_ + 1) * 2 > table_.size()) {
    std::vector<slot> old(table_.size() * 2);
    old.swap(table_);
    const std::size_t mask = table_.size() - 1;
    for (const slot& s : old) {
      if (s.ref == 0) continue;
      std::size_t i = s.tag & mask;
      while (table_[i].ref != 0) i = (i + 1) & mask;
      table_[i] = s;
    }
  }
  const std::size_t mask = table_.size() - 1;
  std::size_t i = tag & mask;
  while (table_[i].ref != 0) i = (i + 1) & mask;
  table_[i] = slot{tag, ref};
  ++used_slots_;
}

void tcp_reassembler::table_erase(std::size_t hole) {
  // Backward shift: pull later entries of the same run into the hole when their home slot is at
  // or before it (cyclically), so every entry stays reachable from its home without markers.
  const std::size_t mask = table_.size() - 1;
  for (std::size_t j = (hole + 1) & mask; table_[j].ref != 0; j = (j + 1) & mask) {
    const std::size_t home = table_[j].tag & mask;
    if (((j - home) & mask) >= ((j - hole) & mask)) {
      table_[hole] = table_[j];
      hole = j;
    }
  }
  table_[hole] = slot{};
  --used_slots_;
}

std::uint32_t tcp_reassembler::allocate_flow() {
  if (!free_.empty()) {
    const std::uint32_t index = free_.back();
    free_.pop_back();
    return index;
  }
  if (pool_size_ % block_size == 0) blocks_.push_back(std::make_unique<flow[]>(block_size));
  return pool_size_++;
}

void tcp_reassembler::free_flow(std::uint32_t index) {
  flow& f = at(index);
  f.h.reset();
  f.live = false;
  free_.push_back(index);
  --live_;
}

// ---------------------------------------------------------------------------- packets

void tcp_reassembler::feed(const decoded_packet& packet, time_point ts) {
  const auto* tcp = packet.tcp();
  if (tcp != nullptr) {
    if (const auto* v4 = packet.ipv4(); v4 != nullptr && !v4->is_fragment()) return feed(v4->src, v4->dst, *tcp, ts);
    if (const auto* v6 = packet.ipv6(); v6 != nullptr && !v6->is_fragment) return feed(v6->src, v6->dst, *tcp, ts);
  }
  ++ignored_;
}

void tcp_reassembler::feed(const ip_address& src_ip, const ip_address& dst_ip, const tcp_header& tcp, time_point ts) {
  // The key straight from the address words (no endpoint built unless a conversation opens).
  std::uint64_t s_lo = 0, s_hi = 0, d_lo = 0, d_hi = 0;
  std::memcpy(&s_lo, src_ip.octets.data(), 8);
  std::memcpy(&s_hi, src_ip.octets.data() + 8, 8);
  std::memcpy(&d_lo, dst_ip.octets.data(), 8);
  std::memcpy(&d_hi, dst_ip.octets.data() + 8, 8);
  const bool dst_first = d_lo != s_lo                   ? d_lo < s_lo
                         : d_hi != s_hi                 ? d_hi < s_hi
                         : tcp.dst_port != tcp.src_port ? tcp.dst_port < tcp.src_port
                                                        : dst_ip.v6 < src_ip.v6;
  const bool src_is_a = !dst_first;
  const auto fam = [](bool a_v6, bool b_v6) { return static_cast<std::uint8_t>((a_v6 ? 1U : 0U) | (b_v6 ? 2U : 0U)); };
  const flow_key key = src_is_a
                           ? flow_key{s_lo, s_hi, d_lo, d_hi, tcp.src_port, tcp.dst_port, fam(src_ip.v6, dst_ip.v6)}
                           : flow_key{d_lo, d_hi, s_lo, s_hi, tcp.dst_port, tcp.src_port, fam(dst_ip.v6, src_ip.v6)};
  const std::uint64_t h = hash(key);
  const auto tag = static_cast<std::uint32_t>(h >> 32);
  const bool new_syn = tcp.has(tcp_flag::syn) && !tcp.has(tcp_flag::ack);
  constexpr std::uint32_t none = std::numeric_limits<std::uint32_t>::max();
  std::uint32_t index = none;
  const std::size_t mask = table_.size() - 1;
  for (std::size_t i = tag & mask;; i = (i + 1) & mask) {
    const slot s = table_[i];
    if (s.ref == 0) break;
    if (s.tag != tag) continue;
    if ((s.ref & tombstone_ref) == 0) {
      if (!same_key(at(s.ref - 1).key, key)) continue;
      index = s.ref - 1;
      break;
    }
    tombstone& t = tombstones_[(s.ref - tombstone_base_) & ~tombstone_ref];
    if (t.hash != h) continue;
    if (t.expiry <= ts || (new_syn && (!t.has_isn || t.client_isn != tcp.seq))) {
      t.dead = true;  // its linger is over (not swept yet), or port reuse: a new connection
      table_erase(i);
      break;
    }
    ++late_;  // a packet of a released conversation
    if (ts >= next_check_) maintain(ts);
    return;
  }
  if (index != none && new_syn) {
    const flow& old = at(index);
    const bool finished = old.h && (old.h->conv.state == tcp_conversation_state::closed ||
                                    old.h->conv.state == tcp_conversation_state::reset);
    if (finished && old.h->to_server.isn() != tcp.seq) {  // port reuse on a lingering conversation
      release(index, false);
      index = none;
    }
  }
  if (index == none) index = allocate_open(key, tag, src_is_a, tcp, ts);
  flow& f = at(index);
  const bool from_client = src_is_a ? f.client_is_a : f.client_is_b;
  const auto dir = from_client ? tcp_direction::client_to_server : tcp_direction::server_to_client;
  if (f.h && (tcp.flags & (tcp_flag::syn | tcp_flag::fin | tcp_flag::rst)) == 0 && !f.h->streams_closed) {
    feed_usual(index, *f.h, dir, tcp, ts);  // most packets of a capture
  } else if (f.h) {
    feed_heavy(index, dir, tcp, ts);
  } else if (tcp.payload.empty() && !tcp.has(tcp_flag::fin) && !tcp.has(tcp_flag::rst) &&
             f.packets[side(dir)] != std::numeric_limits<std::uint32_t>::max()) {
    feed_light(f, dir, tcp, ts);
  } else {
    promote(f);
    feed_heavy(index, dir, tcp, ts);
  }
  if (ts >= next_check_) maintain(ts);
}

void tcp_reassembler::maintain(time_point now) {
  if (now >= next_tombstone_check_) expire_tombstones(now);
  if (now >= next_sweep_) sweep(now);
  next_check_ = std::min(next_tombstone_check_, next_sweep_);
}

std::uint32_t tcp_reassembler::allocate_open(const flow_key& key, std::uint32_t tag, bool src_is_a,
                                             const tcp_header& tcp, time_point ts) {
  if (live_ >= limits_.max_conversations && live_ > 0) evict_least_recent();
  const std::uint32_t index = allocate_flow();
  flow& f = at(index);
  f = flow{};
  f.key = key;
  f.live = true;
  f.id = next_id_++;
  const bool syn = tcp.has(tcp_flag::syn);
  const bool ack = tcp.has(tcp_flag::ack);
  f.handshake_seen = syn && !ack;
  f.state = syn ? (ack ? tcp_conversation_state::syn_received : tcp_conversation_state::syn_sent)
                : tcp_conversation_state::established;
  f.first_ts = ts;
  const bool client_is_src = !(syn && ack);
  const bool one_endpoint = key.a_lo == key.b_lo && key.a_hi == key.b_hi && key.a_port == key.b_port &&
                            (key.families == 0 || key.families == 3);
  f.client_is_a = one_endpoint || client_is_src == src_is_a;
  f.client_is_b = one_endpoint || client_is_src != src_is_a;
  table_insert(tag, index + 1);
  ++live_;
  visitor_.on_open(light_conversation(f));
  return index;
}

tcp_conversation tcp_reassembler::light_conversation(const flow& f) const {
  tcp_conversation c;
  c.id = f.id;
  const auto end = [](std::uint64_t lo, std::uint64_t hi, bool v6, std::uint16_t port) {
    endpoint e;
    std::memcpy(e.address.octets.data(), &lo, 8);
    std::memcpy(e.address.octets.data() + 8, &hi, 8);
    e.address.v6 = v6;
    e.port = port;
    return e;
  };
  const endpoint a = end(f.key.a_lo, f.key.a_hi, (f.key.families & 1U) != 0, f.key.a_port);
  const endpoint b = end(f.key.b_lo, f.key.b_hi, (f.key.families & 2U) != 0, f.key.b_port);
  c.client = f.client_is_a ? a : b;
  c.server = f.client_is_a ? b : a;
  c.handshake_seen = f.handshake_seen;
  c.state = f.state;
  c.first_ts = f.first_ts;
  c.last_ts = f.last_ts;
  c.to_server.packets = f.packets[0];
  c.to_client.packets = f.packets[1];
  c.packets = std::uint64_t{f.packets[0]} + f.packets[1];
  c.to_server.syn = (f.bits[0] & light_bits::has_isn) != 0;
  c.to_client.syn = (f.bits[1] & light_bits::has_isn) != 0;
  return c;
}

void tcp_reassembler::promote(flow& f) {
  auto h = std::make_unique<heavy>(limits_.max_buffered_bytes);
  h->conv = light_conversation(f);
  null_output none;
  for (int d = 0; d < 2; ++d) {
    tcp_stream& s = d == client_side ? h->to_server : h->to_client;
    const std::uint8_t bits = f.bits[d];
    if ((bits & light_bits::plain_first) != 0) s.on_segment(f.base[d], false, false, {}, f.first_ts, none);
    if ((bits & light_bits::has_isn) != 0) s.on_segment(f.isn[d], true, false, {}, f.first_ts, none);
    if ((bits & light_bits::has_ack) != 0) s.on_peer_ack(f.ack[d]);
  }
  f.h = std::move(h);
}

// A segment without payload, FIN or RST on a light flow: the same counters and state as
// feed_heavy, and per direction what tcp_stream::on_segment / on_peer_ack would keep.
void tcp_reassembler::feed_light(flow& f, tcp_direction dir, const tcp_header& tcp, time_point ts) {
  const int d = side(dir);
  const int o = 1 - d;
  ++f.packets[d];
  f.last_ts = ts;
  const bool syn = tcp.has(tcp_flag::syn);
  if (dir == tcp_direction::client_to_server && syn && !tcp.has(tcp_flag::ack)) f.handshake_seen = true;
  f.state = advance(f.state, false, dir, tcp);
  std::uint8_t& mine = f.bits[d];
  if (syn) {
    if ((mine & light_bits::has_isn) == 0) {
      f.isn[d] = tcp.seq;
      mine |= light_bits::has_isn;
    }
    if ((mine & light_bits::has_base) == 0) {
      f.base[d] = tcp.seq + 1;  // RFC 9293 §3.4: the SYN occupies one sequence number
      mine |= light_bits::has_base;
    }
  } else if ((mine & light_bits::has_base) == 0) {
    f.base[d] = tcp.seq;
    mine |= light_bits::has_base | light_bits::plain_first;
  }
  std::uint8_t& theirs = f.bits[o];
  if (tcp.has(tcp_flag::ack) && (theirs & light_bits::has_base) != 0) {
    const auto ahead = static_cast<std::int32_t>(tcp.ack - f.base[o]);
    if (ahead > 0 && ((theirs & light_bits::has_ack) == 0 || ahead > static_cast<std::int32_t>(f.ack[o] - f.base[o]))) {
      f.ack[o] = tcp.ack;
      theirs |= light_bits::has_ack;
    }
  }
  visitor_.on_segment(light_conversation(f), dir, tcp, ts);
}

// A segment without SYN, FIN or RST on a conversation whose streams are open: what feed_heavy
// does for it, without the flag tests that cannot apply (its state can only complete a handshake).
inline void tcp_reassembler::feed_usual(std::uint32_t index, heavy& h, tcp_direction dir, const tcp_header& tcp,
                                        time_point ts) {
  auto& c = h.conv;
  ++c.packets;
  ++h.stats(dir).packets;
  c.last_ts = ts;
  if (c.state == tcp_conversation_state::syn_received && dir == tcp_direction::client_to_server &&
      tcp.has(tcp_flag::ack)) {
    c.state = tcp_conversation_state::established;  // advance(): the handshake's ACK
  }
  visitor_.on_segment(c, dir, tcp, ts);
  direction_output out(*this, c, dir);
  if (dir == tcp_direction::client_to_server) {
    h.to_server.on_segment(tcp.seq, false, false, tcp.payload, ts, out);
    if (tcp.has(tcp_flag::ack)) h.to_client.on_peer_ack(tcp.ack);
  } else {
    h.to_client.on_segment(tcp.seq, false, false, tcp.payload, ts, out);
    if (tcp.has(tcp_flag::ack)) h.to_server.on_peer_ack(tcp.ack);
  }
  h.sync(dir);
  if (h.to_server.fin_seen() || h.to_client.fin_seen()) after_fin(index, h, ts, false);
}

void tcp_reassembler::feed_heavy(std::uint32_t index, tcp_direction dir, const tcp_header& tcp, time_point ts) {
  heavy& h = *at(index).h;
  auto& c = h.conv;
  auto& stats = h.stats(dir);
  ++c.packets;
  ++stats.packets;
  c.last_ts = ts;
  const bool rst = tcp.has(tcp_flag::rst);
  stats.syn = stats.syn || tcp.has(tcp_flag::syn);
  stats.fin = stats.fin || tcp.has(tcp_flag::fin);
  stats.rst = stats.rst || rst;
  if (dir == tcp_direction::client_to_server && tcp.has(tcp_flag::syn) && !tcp.has(tcp_flag::ack))
    c.handshake_seen = true;
  c.state = advance(c.state, c.to_server.fin && c.to_client.fin, dir, tcp);
  visitor_.on_segment(c, dir, tcp, ts);
  const auto other =
      dir == tcp_direction::client_to_server ? tcp_direction::server_to_client : tcp_direction::client_to_server;
  if (h.streams_closed) {
    if (tcp.has(tcp_flag::ack)) h.stream(other).on_peer_ack(tcp.ack);  // the last ACK of a closed conversation
    if (rst || (h.to_server.fin_acknowledged() && h.to_client.fin_acknowledged())) release(index, true);
    return;
  }
  if (!rst) {
    direction_output out(*this, c, dir);
    h.stream(dir).on_segment(tcp.seq, tcp.has(tcp_flag::syn), tcp.has(tcp_flag::fin), tcp.payload, ts, out);
  }
  if (tcp.has(tcp_flag::ack)) h.stream(other).on_peer_ack(tcp.ack);
  h.sync(dir);  // only this direction's stream delivered (the peer's ACK changes no counter)
  if (h.to_server.fin_seen() || h.to_client.fin_seen() || rst) after_fin(index, h, ts, rst);
}

// After a segment of a conversation with a FIN seen (or a RST): streams that reached their FIN
// end; both ends reached, both FINs acknowledged or a RST close the streams; a RST or both FINs
// acknowledged release the conversation.
void tcp_reassembler::after_fin(std::uint32_t index, heavy& h, time_point ts, bool rst) {
  if (h.to_server.fin_seen() || h.to_client.fin_seen()) report_ends(h, ts, false);  // only a FIN ends a stream here
  const bool both_finished = h.to_server.finished() && h.to_client.finished();
  const bool both_acknowledged = h.to_server.fin_acknowledged() && h.to_client.fin_acknowledged();
  if (both_finished || both_acknowledged || rst) close_streams(h, ts);
  if (rst || both_acknowledged) release(index, true);
}

void tcp_reassembler::close_streams(heavy& h, time_point ts) {
  if (h.streams_closed) return;
  direction_output up(*this, h.conv, tcp_direction::client_to_server);
  direction_output down(*this, h.conv, tcp_direction::server_to_client);
  h.to_server.flush(ts, up);
  h.to_client.flush(ts, down);
  h.sync();
  h.streams_closed = true;
  h.closed_at = ts;
  report_ends(h, ts, true);
}

void tcp_reassembler::report_ends(heavy& h, time_point ts, bool all) {
  if (!h.to_server_ended && (all || h.to_server.finished())) {
    h.to_server_ended = true;
    visitor_.on_end_of_stream(h.conv, tcp_direction::client_to_server, ts);
  }
  if (!h.to_client_ended && (all || h.to_client.finished())) {
    h.to_client_ended = true;
    visitor_.on_end_of_stream(h.conv, tcp_direction::server_to_client, ts);
  }
}

// ---------------------------------------------------------------------------- release

void tcp_reassembler::release(std::uint32_t index, bool leave_tombstone) {
  flow& f = at(index);
  if (!f.h) promote(f);  // flushing reports what the peer acknowledged but the capture missed
  heavy& h = *f.h;
  const std::uint64_t full = hash(f.key);
  const auto tag = static_cast<std::uint32_t>(full >> 32);
  table_erase(slot_of(tag, index + 1));
  if (leave_tombstone && limits_.closed_linger > duration::zero()) {
    tombstone t;
    t.hash = full;
    t.id = h.conv.id;
    t.expiry = h.conv.last_ts + limits_.closed_linger;
    if (const auto isn = h.to_server.isn()) {
      t.client_isn = *isn;
      t.has_isn = true;
    }
    const auto seq = static_cast<std::uint32_t>(tombstone_base_ + tombstones_.size());
    tombstones_.push_back(t);
    table_insert(tag, tombstone_ref | (seq & ~tombstone_ref));
  }
  close_streams(h, h.conv.last_ts);
  visitor_.on_close(h.conv);
  free_flow(index);
}

void tcp_reassembler::expire_tombstones(time_point now) {
  next_tombstone_check_ = now + std::chrono::seconds(1);
  while (!tombstones_.empty() && (tombstones_.front().dead || tombstones_.front().expiry <= now)) {
    const tombstone& t = tombstones_.front();
    if (!t.dead)
      table_erase(
          slot_of(static_cast<std::uint32_t>(t.hash >> 32), tombstone_ref | (tombstone_base_ & ~tombstone_ref)));
    tombstones_.pop_front();
    ++tombstone_base_;
  }
}

void tcp_reassembler::sweep(time_point now) {
  next_sweep_ = now + sweep_period_;
  std::vector<std::pair<std::uint64_t, std::uint32_t>> done;
  for (std::uint32_t i = 0; i < pool_size_; ++i) {
    const flow& f = at(i);
    if (!f.live) continue;
    const bool lingered = f.h && f.h->streams_closed && now - f.h->closed_at > limits_.closed_linger;
    const bool idle = now - f.last() > limits_.idle_timeout;
    if (lingered || idle) done.emplace_back(f.id, i);
  }
  std::sort(done.begin(), done.end());
  for (const auto& [id, index] : done) release(index, false);
}

void tcp_reassembler::evict_least_recent() {
  struct entry {
    time_point last;
    std::uint64_t id;
    std::uint32_t index;
  };
  std::vector<entry> all;
  all.reserve(live_);
  for (std::uint32_t i = 0; i < pool_size_; ++i) {
    const flow& f = at(i);
    if (f.live) all.push_back({f.last(), f.id, i});
  }
  const std::size_t n = std::max<std::size_t>(1, all.size() / 16);
  const auto older = [](const entry& x, const entry& y) { return std::pair(x.last, x.id) < std::pair(y.last, y.id); };
  std::nth_element(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(n - 1), all.end(), older);
  all.resize(n);
  std::sort(all.begin(), all.end(), [](const entry& x, const entry& y) { return x.id < y.id; });
  for (const entry& e : all) release(e.index, false);
}

void tcp_reassembler::finish() {
  std::vector<std::pair<std::uint64_t, std::uint32_t>> all;
  for (std::uint32_t i = 0; i < pool_size_; ++i) {
    const flow& f = at(i);
    if (f.live) all.emplace_back(f.id, i);
  }
  std::sort(all.begin(), all.end());
  for (const auto& [id, index] : all) release(index, false);
  tombstones_.clear();
  tombstone_base_ = 0;
  table_.assign(1024, slot{});
  used_slots_ = 0;
}

}  // namespace netlib::packet
