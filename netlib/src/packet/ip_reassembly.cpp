// IP fragment reassembly (RFC 791 §3.2, RFC 8200 §4.5). Theory of operation: each datagram in
// progress keeps its fragments as captured (offset, bytes); a new fragment is checked against
// every piece held (an exact repeat is a duplicate, any other overlap drops the datagram, see the
// policy in the header) and against the end, then stored. The datagram is complete when the
// last fragment gave the end and the pieces, sorted by offset, cover [0, end) without a hole;
// they are then copied into one buffer. Datagrams in progress are aged in the order they began:
// the oldest is the first to time out and the one evicted when the table or the byte budget is
// full.
#include "netlib/packet/ip_reassembly.hpp"

#include <algorithm>
#include <cstring>

namespace netlib::packet {

std::optional<reassembled_datagram> ip_reassembler::feed(const decoded_packet& p, time_point ts,
                                                         std::uint64_t sequence) {
  if (const auto* h = p.ipv4(); h != nullptr && h->is_fragment()) return feed(*h, ts, sequence);
  if (const auto* h = p.ipv6(); h != nullptr && h->is_fragment) return feed(*h, ts, sequence);
  return std::nullopt;
}

std::optional<reassembled_datagram> ip_reassembler::feed(const ipv4_header& h, time_point ts, std::uint64_t sequence) {
  if (!h.is_fragment()) return std::nullopt;
  return add(key{false, h.src, h.dst, h.identification, h.protocol}, h.protocol, h.fragment_offset, h.more_fragments,
             h.payload, ts, sequence);
}

std::optional<reassembled_datagram> ip_reassembler::feed(const ipv6_header& h, time_point ts, std::uint64_t sequence) {
  if (!h.is_fragment) return std::nullopt;
  // The upper-layer protocol is the first fragment's (the Next Header of its Fragment header,
  // after any extension headers of the fragmentable part, as decode_ipv6 walked them).
  return add(key{true, h.src, h.dst, h.fragment_id, 0}, h.fragment_offset == 0 ? h.protocol : 0, h.fragment_offset,
             h.more_fragments, h.fragment_data, ts, sequence);
}

void ip_reassembler::drop(std::map<key, partial>::iterator it, bool refuse) {
  buffered_ -= it->second.bytes;
  if (refuse && refused_.size() < limits_.max_datagrams) refused_[it->first] = it->second.expiry;
  partial_.erase(it);
}

void ip_reassembler::expire(time_point now) {
  while (!age_.empty()) {
    const auto& [k, order] = age_.front();
    const auto it = partial_.find(k);
    if (it == partial_.end() || it->second.order != order) {
      age_.pop_front();  // completed or dropped earlier
      continue;
    }
    if (it->second.expiry > now) break;
    ++stats_.timed_out;
    drop(it, false);
    age_.pop_front();
  }
  std::erase_if(refused_, [&](const auto& r) { return r.second <= now; });
}

bool ip_reassembler::make_room(std::size_t bytes) {
  while (!partial_.empty() &&
         (partial_.size() >= limits_.max_datagrams || buffered_ + bytes > limits_.max_buffered_bytes)) {
    if (age_.empty()) return false;
    const auto [k, order] = age_.front();
    age_.pop_front();
    const auto it = partial_.find(k);
    if (it == partial_.end() || it->second.order != order) continue;
    ++stats_.evicted;
    drop(it, false);
  }
  return buffered_ + bytes <= limits_.max_buffered_bytes;
}

std::optional<reassembled_datagram> ip_reassembler::add(const key& k, std::uint8_t protocol, std::uint32_t offset,
                                                        bool more, byte_view data, time_point ts,
                                                        std::uint64_t sequence) {
  ++stats_.fragments;
  expire(ts);
  if (refused_.contains(k)) {
    ++stats_.refused;
    return std::nullopt;
  }
  auto it = partial_.find(k);
  const auto reject = [&](std::uint64_t& counter) -> std::optional<reassembled_datagram> {
    ++counter;
    if (it != partial_.end())
      drop(it, true);
    else if (refused_.size() < limits_.max_datagrams)
      refused_[k] = ts + limits_.timeout;
    return std::nullopt;
  };
  const std::uint64_t end = std::uint64_t{offset} + data.size();
  // RFC 8200 §4.5: a fragment that is not the last carries a multiple of 8 bytes; an empty
  // fragment carries nothing to place.
  if ((more && data.size() % 8 != 0) || data.empty()) return reject(stats_.inconsistent);
  if (end > limits_.max_datagram_bytes) return reject(stats_.over_limit);
  if (it == partial_.end()) {
    if (!make_room(data.size())) return reject(stats_.over_limit);
    partial p;
    p.first_ts = ts;
    p.expiry = ts + limits_.timeout;
    p.order = next_order_++;
    it = partial_.emplace(k, std::move(p)).first;
    age_.emplace_back(k, it->second.order);
    if (age_.size() > 4 * limits_.max_datagrams + 16) {  // completed datagrams' entries: compact
      std::erase_if(age_, [&](const auto& a) {
        const auto f = partial_.find(a.first);
        return f == partial_.end() || f->second.order != a.second;
      });
    }
  } else if (buffered_ + data.size() > limits_.max_buffered_bytes && !make_room(data.size())) {
    return reject(stats_.over_limit);
  }
  auto& p = it->second;
  // The end: known from a last fragment, never contradicted.
  if (!more) {
    if (p.end && *p.end != end) return reject(stats_.inconsistent);
    for (const auto& c : p.chunks) {
      if (c.piece.offset + c.piece.length > end) return reject(stats_.inconsistent);
    }
    p.end = static_cast<std::uint32_t>(end);
  } else if (p.end && end > *p.end) {
    return reject(stats_.inconsistent);
  }
  for (const auto& c : p.chunks) {
    const std::uint64_t c_end = std::uint64_t{c.piece.offset} + c.piece.length;
    if (end <= c.piece.offset || offset >= c_end) continue;
    const bool same = c.piece.offset == offset && c.piece.length == data.size() &&
                      std::memcmp(c.bytes.data(), data.data(), data.size()) == 0;
    if (!same) return reject(stats_.overlaps);
    ++stats_.duplicates;
    return std::nullopt;
  }
  if (p.chunks.size() == limits_.max_fragments_per_datagram) return reject(stats_.over_limit);
  if (!k.v6 || offset == 0) p.protocol = protocol;  // IPv4: in every fragment; IPv6: the first's
  chunk c;
  c.piece = {offset, static_cast<std::uint32_t>(data.size()), more, ts, sequence};
  c.bytes.assign(data.begin(), data.end());
  p.bytes += data.size();
  buffered_ += data.size();
  p.chunks.push_back(std::move(c));
  if (!p.end) return std::nullopt;
  // Complete when the pieces, in offset order, leave no hole before the end.
  std::vector<const chunk*> order;
  order.reserve(p.chunks.size());
  for (const auto& x : p.chunks) order.push_back(&x);
  std::sort(order.begin(), order.end(),
            [](const chunk* a, const chunk* b) { return a->piece.offset < b->piece.offset; });
  std::uint64_t covered = 0;
  for (const chunk* x : order) {
    if (x->piece.offset > covered) return std::nullopt;
    covered = std::max<std::uint64_t>(covered, x->piece.offset + x->piece.length);
  }
  if (covered < *p.end) return std::nullopt;
  reassembled_datagram d;
  d.v6 = k.v6;
  d.src = k.src;
  d.dst = k.dst;
  d.identification = k.id;
  d.protocol = p.protocol;
  d.payload.resize(*p.end);
  for (const chunk* x : order) std::memcpy(d.payload.data() + x->piece.offset, x->bytes.data(), x->bytes.size());
  for (const auto& x : p.chunks) d.fragments.push_back(x.piece);
  d.first_ts = p.first_ts;
  d.last_ts = ts;
  ++stats_.completed;
  buffered_ -= p.bytes;
  partial_.erase(it);
  return d;
}

void ip_reassembler::finish() {
  stats_.incomplete_at_end += partial_.size();
  partial_.clear();
  refused_.clear();
  age_.clear();
  buffered_ = 0;
}

}  // namespace netlib::packet
