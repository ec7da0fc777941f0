// Theory of operation: the filtering database (IEEE 802.1D-2004 §7.9).
//
// One hash map holds every entry, keyed by (VLAN, MAC), so each VLAN has its own logical table
// (independent VLAN learning, IEEE 802.1Q-2018 §8.8.8). Dynamic entries are also threaded on a
// per-port list in order of last sighting (least recent first), whose nodes hold the last sighting
// time; a refresh splices the entry to the back. Aging and next_expiry() read only the fronts,
// and aging is skipped outright while oldest_bound_ (a lower bound of all sightings) is recent.
// Invariants, given that time never goes backwards (the switch clamps it):
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

std::list<forwarding_table::lru_node>& forwarding_table::lru_of(port_id port) {
  while (port >= lru_.size()) lru_.push_back(std::make_unique<std::list<lru_node>>());
  return *lru_[port];
}

std::size_t forwarding_table::dynamic_size(port_id port) const noexcept {
  return port < lru_.size() ? lru_[port]->size() : 0;
}

void forwarding_table::insert_dynamic(key k, port_id port, time_point now) {
  auto& list = lru_of(port);
  list.push_back(lru_node{k, now});
  map_[k] = entry{port, false, std::prev(list.end())};
  ++dynamic_count_;
}

void forwarding_table::erase_dynamic(std::unordered_map<key, entry>::iterator it) {
  lru_[it->second.port]->erase(it->second.lru);
  map_.erase(it);
  --dynamic_count_;
}

// Full-table policy: true when there is room for one more dynamic entry.
bool forwarding_table::make_room(std::vector<fdb_event>& events) {
  if (dynamic_count_ < capacity_) return true;
  if (policy_ == full_table_policy::stop_learning || dynamic_count_ == 0) return false;
  std::size_t victim_port = 0;  // the port holding the most entries; ties go to the lowest port
  for (std::size_t p = 1; p < lru_.size(); ++p) {
    if (lru_[p]->size() > lru_[victim_port]->size()) victim_port = p;
  }
  const key victim = lru_[victim_port]->front().k;
  events.push_back(evicted{mac_from_u64(victim & 0xffffffffffffULL),
                           static_cast<vlan_id>(victim >> 48U), static_cast<port_id>(victim_port)});
  erase_dynamic(map_.find(victim));
  return true;
}

void forwarding_table::learn(mac_address mac, vlan_id vlan, port_id port, time_point now,
                             std::vector<fdb_event>& events) {
  const key k = make_key(mac, vlan);
  auto it = map_.find(k);
  if (it == map_.end()) {
    if (capacity_ == 0 || !make_room(events)) {
      events.push_back(learn_refused{mac, vlan, port});
      return;
    }
    insert_dynamic(k, port, now);
    events.push_back(learned{mac, vlan, port});
    return;
  }
  entry& e = it->second;
  if (e.is_static) return;  // never overwritten (IEEE 802.1D-2004 §7.9.1)
  auto& target = lru_of(port);
  if (e.port != port) {  // the station moved: relearn it on its new port
    events.push_back(moved{mac, vlan, e.port, port});
  }
  target.splice(target.end(), *lru_[e.port], e.lru);
  e.port = port;
  e.lru->last_seen = now;
}

void forwarding_table::expire(time_point now, std::vector<fdb_event>& events) {
  if (!may_expire_by(now)) return;  // the usual case, checked per frame: nothing old enough
  time_point oldest = now;
  for (std::size_t p = 0; p < lru_.size(); ++p) {
    auto& list = *lru_[p];
    while (!list.empty()) {
      if (now - list.front().last_seen < aging_) break;  // §7.9.2: removed once aging time elapsed
      const key k = list.front().k;
      auto it = map_.find(k);
      events.push_back(aged{mac_from_u64(k & 0xffffffffffffULL), static_cast<vlan_id>(k >> 48U),
                            static_cast<port_id>(p)});
      erase_dynamic(it);
    }
    if (!list.empty()) oldest = std::min(oldest, list.front().last_seen);
  }
  oldest_bound_ = oldest;
}

void forwarding_table::flush_port(port_id port, std::vector<fdb_event>& events) {
  if (port >= lru_.size()) return;
  while (!lru_[port]->empty()) {
    const key k = lru_[port]->front().k;
    events.push_back(flushed{mac_from_u64(k & 0xffffffffffffULL), static_cast<vlan_id>(k >> 48U), port});
    erase_dynamic(map_.find(k));
  }
}

void forwarding_table::add_static(mac_address mac, vlan_id vlan, port_id port) {
  const key k = make_key(mac, vlan);
  if (auto it = map_.find(k); it != map_.end() && !it->second.is_static) erase_dynamic(it);
  map_[k] = entry{port, true, {}};
}

std::optional<time_point> forwarding_table::next_expiry() const noexcept {
  if (aging_ == duration::zero()) return std::nullopt;
  std::optional<time_point> first;
  for (const auto& list : lru_) {
    if (list->empty()) continue;
    const time_point t = list->front().last_seen + aging_;
    if (!first || t < *first) first = t;
  }
  return first;
}

std::optional<port_id> forwarding_table::lookup(mac_address mac, vlan_id vlan) const {
  auto it = map_.find(make_key(mac, vlan));
  if (it == map_.end()) return std::nullopt;
  return it->second.port;
}

std::vector<fdb_entry> forwarding_table::entries(time_point now) const {
  std::vector<std::pair<key, const entry*>> sorted;
  sorted.reserve(map_.size());
  for (const auto& [k, e] : map_) sorted.emplace_back(k, &e);
  std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<fdb_entry> out;
  out.reserve(sorted.size());
  for (const auto& [k, e] : sorted) {
    const duration age = e->is_static ? duration::zero() : std::max(duration::zero(), now - e->lru->last_seen);
    out.push_back(fdb_entry{mac_from_u64(k & 0xffffffffffffULL), static_cast<vlan_id>(k >> 48U), e->port,
                            age, e->is_static});
  }
  return out;
}

}  // namespace netlib::l2
