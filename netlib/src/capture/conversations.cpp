// Theory of operation: one pass over the records; each TCP or UDP packet is keyed by its
// protocol and its two endpoints in a fixed order, and the key maps to the index of the
// conversation it is counted in. A TCP SYN without ACK on a key whose conversation saw a FIN or a
// RST moves the key to a new conversation.
#include "netlib/capture/conversations.hpp"

#include <fmt/format.h>

#include <unordered_map>

#include "netlib/packet/packet_decoder.hpp"

namespace netlib::capture {
namespace {

struct key {
  std::uint8_t protocol;
  packet::endpoint low, high;
  friend bool operator==(const key&, const key&) = default;
};

struct key_hash {
  std::size_t operator()(const key& k) const noexcept {
    const std::hash<packet::endpoint> h;
    return (h(k.low) * 31 + h(k.high)) * 7 + k.protocol;
  }
};

struct open_state {
  std::size_t index;
  bool ended;  // FIN or RST seen (TCP)
};

}  // namespace

std::vector<conversation_counts> list_conversations(capture_reader& reader, conversation_list_stats* stats,
                                                    const conversation_limits& limits) {
  conversation_list_stats st;
  std::vector<conversation_counts> out;
  std::unordered_map<key, open_state, key_hash> open;
  while (auto rec = reader.next()) {
    if (st.packets++ == 0) st.first_ts = rec->ts;
    const auto p = packet::decode_packet(rec->link, rec->data);
    if (p.error && st.decode_errors++ == 0)
      st.first_decode_error = fmt::format("frame {}: {}", st.packets, p.error->message());
    const auto src_ip = p.src_ip(), dst_ip = p.dst_ip();
    if (!src_ip || !dst_ip) continue;
    std::uint8_t protocol = 0;
    std::uint16_t sport = 0, dport = 0;
    bool syn_only = false, ends = false;
    if (const auto* t = p.tcp()) {
      protocol = 6;
      sport = t->src_port;
      dport = t->dst_port;
      syn_only = t->has(packet::tcp_flag::syn) && !t->has(packet::tcp_flag::ack);
      ends = t->has(packet::tcp_flag::fin) || t->has(packet::tcp_flag::rst);
    } else if (const auto* u = p.udp()) {
      protocol = 17;
      sport = u->src_port;
      dport = u->dst_port;
    } else {
      if (p.is_fragment()) ++st.ip_fragments;
      continue;
    }
    const packet::endpoint src{*src_ip, sport}, dst{*dst_ip, dport};
    const key k{protocol, std::min(src, dst), std::max(src, dst)};
    auto it = open.find(k);
    if (it != open.end() && syn_only && it->second.ended) {
      open.erase(it);
      it = open.end();
    }
    if (it == open.end()) {
      if (out.size() >= limits.max_conversations) {
        throw capture_error(
            fmt::format("{}: more than {} TCP and UDP conversations", reader.name(), limits.max_conversations));
      }
      it = open.emplace(k, open_state{out.size(), false}).first;
      conversation_counts c;
      c.protocol = protocol;
      c.a = src;
      c.b = dst;
      c.first_ts = rec->ts;
      out.push_back(c);
    }
    auto& c = out[it->second.index];
    if (ends) it->second.ended = true;
    c.last_ts = rec->ts;
    if (src == c.a) {
      ++c.frames_ab;
      c.bytes_ab += rec->orig_len;
    } else {
      ++c.frames_ba;
      c.bytes_ba += rec->orig_len;
    }
  }
  st.truncated_records = reader.truncated_records();
  if (stats) *stats = st;
  return out;
}

}  // namespace netlib::capture
