// Theory of operation: the IEEE 802.1D-2004 learning bridge (§7.7 forwarding process, §7.8
// learning process, §7.9 filtering database), optionally VLAN-aware (IEEE 802.1Q-2018 §8.6).
//
// receive() is one pass (into a caller's decision, reset first, so replays reuse its buffers):
// clamp time (it never goes backwards, so aging is monotonic), age the table, decode the header,
// classify the frame into a VLAN, then steps 1..5 of the header comment, each marked below. The decision lists the
// output ports in ascending order with their tagging; the driver transmits egress_frame() on each. Invariants:
//   - a down port is in no decision's output and owns no dynamic entry (flushed when it went down);
//   - an output port is a member of the frame's VLAN (always true when not VLAN-aware, VLAN 0);
//   - the ingress port is an output only when it is a hairpin port.
#include "netlib/l2/learning_switch.hpp"

#include <stdexcept>

namespace netlib::l2 {

std::string_view to_string(decision d) noexcept {
  static constexpr std::string_view names[] = {"forward", "flood", "filter", "drop"};
  return names[static_cast<int>(d)];
}

std::string_view to_string(drop_reason r) noexcept {
  static constexpr std::string_view names[] = {"", "malformed", "link-local", "port-down", "vlan", "invalid-source"};
  return names[static_cast<int>(r)];
}

learning_switch::learning_switch(const switch_config& config, std::vector<port_config> ports)
    : config_(config), ports_(std::move(ports)), table_(config.aging, config.capacity, config.policy) {
  if (ports_.size() > config_.port_count) throw std::logic_error("more port configs than ports");
  ports_.resize(config_.port_count);
  up_.assign(config_.port_count, true);
  counters_.ports.resize(config_.port_count);
}

void learning_switch::check_port(port_id p) const {
  if (p >= config_.port_count) throw std::logic_error("learning_switch: no such port");
}

std::vector<fdb_event> learning_switch::tick(time_point now) {
  now_ = std::max(now_, now);
  std::vector<fdb_event> events;
  table_.expire(now_, events);
  count_events(events);
  return events;
}

std::vector<fdb_event> learning_switch::set_port_up(port_id port, bool up) {
  check_port(port);
  std::vector<fdb_event> events;
  if (!up) table_.flush_port(port, events);
  up_[port] = up;
  count_events(events);
  return events;
}

void learning_switch::set_hairpin(port_id port, bool hairpin) {
  check_port(port);
  ports_[port].hairpin = hairpin;
}

void learning_switch::add_static(mac_address mac, vlan_id vlan, port_id port) {
  check_port(port);
  table_.add_static(mac, config_.vlan_aware ? vlan : 0, port);
}

// IEEE 802.1Q-2018 §6.9 / §8.6.1 ingress: the VLAN a frame belongs to, or nullopt (filtered).
std::optional<vlan_id> learning_switch::classify(port_id in, const frame_header& h) const {
  const port_config& pc = ports_[in];
  const bool untagged = !h.tag || h.tag->vid == 0;  // VID 0: priority-tagged, counts as untagged
  if (pc.mode == port_mode::access) {
    if (untagged || h.tag->vid == pc.pvid) return pc.pvid;
    return std::nullopt;
  }
  if (untagged) return pc.native;
  if (pc.allowed.contains(h.tag->vid) || pc.native == h.tag->vid) return h.tag->vid;
  return std::nullopt;
}

// §8.8.2 member set and untagged set: how (and whether) a frame of `vlan` leaves by port `p`.
std::optional<egress> learning_switch::egress_for(port_id p, vlan_id vlan) const {
  if (!up_[p]) return std::nullopt;
  if (!config_.vlan_aware) return egress{p, egress_tagging::as_received, 0};
  const port_config& pc = ports_[p];
  if (pc.mode == port_mode::access) {
    if (pc.pvid != vlan) return std::nullopt;
    return egress{p, egress_tagging::untagged, vlan};
  }
  if (pc.native == vlan) return egress{p, egress_tagging::untagged, vlan};
  if (!pc.allowed.contains(vlan)) return std::nullopt;
  return egress{p, egress_tagging::tagged, vlan};
}

void learning_switch::flood(port_id in, vlan_id vlan, forwarding_decision& d) const {
  d.kind = decision::flood;
  for (std::size_t p = 0; p < config_.port_count; ++p) {
    const auto port = static_cast<port_id>(p);
    if (port == in && !ports_[in].hairpin) continue;
    if (auto e = egress_for(port, vlan)) d.out.push_back(*e);
  }
}

forwarding_decision learning_switch::receive(port_id in, byte_view frame, time_point now) {
  forwarding_decision d;
  receive(in, frame, now, d);
  return d;
}

void learning_switch::receive(port_id in, byte_view frame, time_point now, forwarding_decision& d) {
  check_port(in);
  d.clear();
  now_ = std::max(now_, now);
  if (table_.may_expire_by(now_)) table_.expire(now_, d.events);  // §7.9.2 aging, before this frame is looked at
  auto malformed = decode_frame_header_into(frame, d.header.emplace());  // decoded in place
  if (malformed) {
    d.header.reset();
    d.reason = drop_reason::malformed;
    d.malformed = malformed;
  } else if (!up_[in]) {
    d.reason = drop_reason::port_down;
  } else {
    const frame_header& h = *d.header;
    if (!is_learnable_source(h.src)) {
      // (0) a group (or all-zero) source is no station: dropped, like the Linux bridge does
      d.reason = drop_reason::invalid_source;
      finish(in, frame.size(), d);
      return;
    }
    const std::optional<vlan_id> vlan = config_.vlan_aware ? classify(in, h) : std::optional<vlan_id>(0);
    d.vlan = config_.vlan_aware ? vlan : (h.tag ? std::optional<vlan_id>(h.tag->vid) : std::nullopt);
    if (vlan) {
      decide(in, h, *vlan, d);
    } else {
      d.reason = drop_reason::vlan;  // §8.6.2 ingress filtering
    }
  }
  finish(in, frame.size(), d);
}

bool is_link_local(const mac_address& mac) noexcept {
  const auto& o = mac.octets;
  return o[0] == 0x01 && o[1] == 0x80 && o[2] == 0xc2 && o[3] == 0x00 && o[4] == 0x00 && (o[5] & 0xf0U) == 0x00;
}

// Steps 1..5 for a frame classified into `vlan`.
void learning_switch::decide(port_id in, const frame_header& h, vlan_id vlan, forwarding_decision& d) {
  // (1) learn the source on the ingress port (an individual address: step 0 dropped the others; §7.8)
  table_.learn(h.src, vlan, in, now_, d.events);
  if (is_link_local(h.dst)) {
    d.reason = drop_reason::link_local;  // (2) reserved addresses are never relayed (§7.12.6)
    return;
  }
  const std::optional<port_id> known = !h.dst.is_multicast() ? table_.lookup(h.dst, vlan) : std::nullopt;
  if (!known) {
    flood(in, vlan, d);  // (3) broadcast, multicast and unknown unicast
  } else if (*known == in && !ports_[in].hairpin) {
    d.kind = decision::filter;  // (4) the destination is on the ingress segment
  } else if (auto e = egress_for(*known, vlan)) {
    d.kind = decision::forward;  // (5) to the learned port
    d.out.push_back(*e);
  } else {
    d.reason = up_[*known] ? drop_reason::vlan : drop_reason::port_down;  // a static entry's port is unusable
  }
}

void learning_switch::finish(port_id in, std::size_t size, forwarding_decision& d) {
  port_counters& rx = counters_.ports[in];
  ++rx.rx_frames;
  rx.rx_bytes += size;
  decision_counters& dc = counters_.decisions;
  switch (d.kind) {
    case decision::forward:
      ++dc.forward;
      break;
    case decision::flood:
      ++dc.flood;
      break;
    case decision::filter:
      ++dc.filter;
      ++rx.rx_filtered;
      break;
    case decision::drop:
      ++dc.drop;
      ++rx.rx_dropped;
      if (d.reason == drop_reason::malformed) ++dc.drop_malformed;
      if (d.reason == drop_reason::link_local) ++dc.drop_link_local;
      if (d.reason == drop_reason::port_down) ++dc.drop_port_down;
      if (d.reason == drop_reason::vlan) ++dc.drop_vlan;
      if (d.reason == drop_reason::invalid_source) ++dc.drop_invalid_source;
      break;
  }
  const bool had_tag = d.header && d.header->tag;
  for (const egress& e : d.out) {
    port_counters& tx = counters_.ports[e.port];
    ++tx.tx_frames;
    std::size_t out_size = size;
    if (e.tagging == egress_tagging::tagged && !had_tag) out_size += vlan_tag_size;
    if (e.tagging == egress_tagging::untagged && had_tag) out_size -= vlan_tag_size;
    tx.tx_bytes += out_size;
  }
  if (!d.events.empty()) count_events(d.events);
}

void learning_switch::count_events(const std::vector<fdb_event>& events) {
  event_counters& ec = counters_.events;
  for (const fdb_event& e : events) {
    switch (e.index()) {
      case 0:
        ++ec.learned;
        break;
      case 1:
        ++ec.moved;
        break;
      case 2:
        ++ec.aged;
        break;
      case 3:
        ++ec.evicted;
        break;
      case 4:
        ++ec.flushed;
        break;
      default:
        ++ec.learn_refused;
        break;
    }
  }
}

}  // namespace netlib::l2
