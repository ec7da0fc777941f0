// Theory of operation: the filtering database (IEEE 802.1D-2004 §7.9).
//
// A flat open-addressing index maps (VLAN, MAC), packed into one integer, to a node in nodes_,
// so each VLAN has its own logical table (independent VLAN learning, IEEE 802.1Q-2018 §8.8.8) and
// a lookup is one hash and a slot or two (no node allocation per entry, no bucket list). Dynamic
// entries are also threaded, by node index, on a per-port doubly linked list in order of last
// sighting (least recent first); a refresh relinks the node at the back. Freed nodes are reused
// through a free list, so a table at its capacity allocates nothing. Aging and next_expiry() read
// only the fronts, and aging is skipped outright while oldest_bound_ (a lower bound of all
// sightings) is recent. Invariants, given that time never goes backwards (the switch clamps it):
//   - each list is sorted by last_seen, so aging pops from the fronts only (§7.9.2);
//   - dynamic_count_ == sum of list sizes <= capacity_; static entries are in no list;
//   - the evict-fair policy removes the front of the longest list: under a MAC-flooding attack the
//     attacker's port holds the most entries, so it pays for its own addresses and the entries of
//     legitimate stations on other ports survive.
#include "netlib/l2/forwarding_table.hpp"

#include <algorithm>

namespace netlib::l2 {

std::string_view event_name(const fdb_event& e) noexcept {
  static constexpr std::string_view names[] = {"learn", "move", "age", "evict", "flush", "refuse"};
  return names[e.index()];
}

forwarding_table::forwarding_table(duration aging, std::size_t capacity, full_table_policy policy)
    : aging_(aging), capacity_(capacity), policy_(policy) {}

forwarding_table::key forwarding_table::make_key(mac_address mac, vlan_id vlan) noexcept {
  return (static_cast<key>(vlan & 0xfffU) << 48U) | to_u64(mac);
}

forwarding_table::port_list& forwarding_table::list_of(port_id port) {
  if (port >= lists_.size()) [[unlikely]]
    lists_.resize(std::size_t{port} + 1);
  return lists_[port];
}

std::size_t forwarding_table::dynamic_size(port_id port) const noexcept {
  return port < lists_.size() ? lists_[port].size : 0;
}

inline void forwarding_table::link_back(node_index n, port_id port) {
  port_list& list = port < lists_.size() ? lists_[port] : list_of(port);
  node& x = nodes_[n];
  x.port = port;
  x.prev = list.back;
  x.next = none;
  (list.back == none ? list.front : nodes_[list.back].next) = n;
  list.back = n;
  ++list.size;
}

inline void forwarding_table::unlink(node_index n) {
  node& x = nodes_[n];
  port_list& list = lists_[x.port];
  (x.prev == none ? list.front : nodes_[x.prev].next) = x.next;
  (x.next == none ? list.back : nodes_[x.next].prev) = x.prev;
  --list.size;
}

forwarding_table::node_index forwarding_table::new_node(key k, port_id port, bool is_static, time_point now) {
  node_index n = free_;
  if (n == none) {
    n = static_cast<node_index>(nodes_.size());
    nodes_.emplace_back();
  } else {
    free_ = nodes_[n].next;
  }
  nodes_[n] = node{k, port, is_static, now, none, none};
  index_.insert(k, n);
  return n;
}

void forwarding_table::insert_dynamic(key k, port_id port, time_point now) {
  link_back(new_node(k, port, false, now), port);
  ++dynamic_count_;
}

void forwarding_table::erase_dynamic(node_index n) {
  unlink(n);
  index_.erase(nodes_[n].k);
  nodes_[n].next = free_;
  free_ = n;
  --dynamic_count_;
}

// Full-table policy: true when there is room for one more dynamic entry.
bool forwarding_table::make_room(std::vector<fdb_event>& events) {
  if (dynamic_count_ < capacity_) return true;
  if (policy_ == full_table_policy::stop_learning || dynamic_count_ == 0) return false;
  std::size_t victim_port = 0;  // the port holding the most entries; ties go to the lowest port
  for (std::size_t p = 1; p < lists_.size(); ++p) {
    if (lists_[p].size > lists_[victim_port].size) victim_port = p;
  }
  const node_index victim = lists_[victim_port].front;
  const key k = nodes_[victim].k;
  events.push_back(
      evicted{mac_from_u64(k & 0xffffffffffffULL), static_cast<vlan_id>(k >> 48U), static_cast<port_id>(victim_port)});
  erase_dynamic(victim);
  return true;
}

void forwarding_table::learn(mac_address mac, vlan_id vlan, port_id port, time_point now,
                             std::vector<fdb_event>& events) {
  const key k = make_key(mac, vlan);
  const node_index* found = index_.find(k);
  if (found != nullptr) {  // the usual case: a known station on its port, refreshed and relinked
    node& e = nodes_[*found];
    if (e.port == port && !e.is_static) {
      e.last_seen = now;
      if (e.next == none) return;  // already the most recent of its port
      const node_index n = *found;
      unlink(n);
      link_back(n, port);
      return;
    }
  }
  learn_slow(found, k, mac, vlan, port, now, events);
}

// learn() when the station is new, static, or seen on another port: the cases with events.
void forwarding_table::learn_slow(const node_index* found, key k, mac_address mac, vlan_id vlan, port_id port,
                                  time_point now, std::vector<fdb_event>& events) {
  if (found == nullptr) {
    if (capacity_ == 0 || !make_room(events)) {
      events.push_back(learn_refused{mac, vlan, port});
      return;
    }
    insert_dynamic(k, port, now);
    events.push_back(learned{mac, vlan, port});
    return;
  }
  const node_index n = *found;
  node& e = nodes_[n];
  if (e.is_static) return;  // never overwritten (IEEE 802.1D-2004 §7.9.1)
  if (e.port != port) {     // the station moved: relearn it on its new port
    events.push_back(moved{mac, vlan, e.port, port});
  }
  e.last_seen = now;
  if (e.port == port && e.next == none) return;  // already the most recent of its port
  unlink(n);
  link_back(n, port);
}

void forwarding_table::expire(time_point now, std::vector<fdb_event>& events) {
  if (!may_expire_by(now)) return;  // the usual case, checked per frame: nothing old enough
  time_point oldest = now;
  for (std::size_t p = 0; p < lists_.size(); ++p) {
    const port_list& list = lists_[p];
    while (list.front != none) {
      const node& front = nodes_[list.front];
      if (now - front.last_seen < aging_) break;  // §7.9.2: removed once aging time elapsed
      events.push_back(aged{mac_from_u64(front.k & 0xffffffffffffULL), static_cast<vlan_id>(front.k >> 48U),
                            static_cast<port_id>(p)});
      erase_dynamic(list.front);
    }
    if (list.front != none) oldest = std::min(oldest, nodes_[list.front].last_seen);
  }
  oldest_bound_ = oldest;
}

void forwarding_table::flush_port(port_id port, std::vector<fdb_event>& events) {
  if (port >= lists_.size()) return;
  while (lists_[port].front != none) {
    const node_index n = lists_[port].front;
    const key k = nodes_[n].k;
    events.push_back(flushed{mac_from_u64(k & 0xffffffffffffULL), static_cast<vlan_id>(k >> 48U), port});
    erase_dynamic(n);
  }
}

void forwarding_table::add_static(mac_address mac, vlan_id vlan, port_id port) {
  const key k = make_key(mac, vlan);
  if (const node_index* found = index_.find(k)) {
    const node_index n = *found;
    if (!nodes_[n].is_static) {
      erase_dynamic(n);
    } else {
      nodes_[n].port = port;  // a static entry replaced by another
      return;
    }
  }
  new_node(k, port, true, time_point{});
}

std::optional<time_point> forwarding_table::next_expiry() const noexcept {
  if (aging_ == duration::zero()) return std::nullopt;
  std::optional<time_point> first;
  for (const port_list& list : lists_) {
    if (list.front == none) continue;
    const time_point t = nodes_[list.front].last_seen + aging_;
    if (!first || t < *first) first = t;
  }
  return first;
}

std::optional<port_id> forwarding_table::lookup(mac_address mac, vlan_id vlan) const {
  const node_index* found = index_.find(make_key(mac, vlan));
  if (found == nullptr) return std::nullopt;
  return nodes_[*found].port;
}

std::vector<fdb_entry> forwarding_table::entries(time_point now) const {
  std::vector<std::pair<key, const node*>> sorted;
  sorted.reserve(index_.size());
  index_.for_each([&](key k, node_index n) { sorted.emplace_back(k, &nodes_[n]); });
  std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<fdb_entry> out;
  out.reserve(sorted.size());
  for (const auto& [k, e] : sorted) {
    const duration age = e->is_static ? duration::zero() : std::max(duration::zero(), now - e->last_seen);
    out.push_back(
        fdb_entry{mac_from_u64(k & 0xffffffffffffULL), static_cast<vlan_id>(k >> 48U), e->port, age, e->is_static});
  }
  return out;
}

}  // namespace netlib::l2
