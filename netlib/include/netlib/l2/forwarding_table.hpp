#pragma once
// The filtering database of a learning bridge (IEEE 802.1D-2004 §7.9): (VLAN, MAC) -> port, with
// aging, a capacity and a full-table policy, and static entries. One logical table per VLAN
// (independent VLAN learning, IEEE 802.1Q-2018 §8.8.8); VLAN 0 when the switch is not VLAN-aware.
#include "netlib/core/clock.hpp"
#include "netlib/l2/fdb_event.hpp"
#include "netlib/l2/frame_header.hpp"
#include "netlib/l2/switch_config.hpp"

#include <cstdint>
#include <list>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

namespace netlib::l2 {

struct fdb_entry {
  mac_address mac;
  vlan_id vlan = 0;
  port_id port = 0;
  duration age{};  // time since last seen (0 for static entries)
  bool is_static = false;
};

class forwarding_table {
 public:
  forwarding_table(duration aging, std::size_t capacity, full_table_policy policy);

  // Learns or refreshes `mac` in `vlan` on `port` at `now`; appends learned/moved/evicted/
  // learn_refused events. A static entry is never overwritten.
  void learn(mac_address mac, vlan_id vlan, port_id port, time_point now, std::vector<fdb_event>& events);
  // Removes every dynamic entry not seen for the aging time (none when aging is 0).
  void expire(time_point now, std::vector<fdb_event>& events);
  // Removes the dynamic entries of a port (port down).
  void flush_port(port_id port, std::vector<fdb_event>& events);
  // Adds (or replaces any entry with) a static entry: never aged, never overwritten, not counted
  // against the capacity.
  void add_static(mac_address mac, vlan_id vlan, port_id port);

  // When the next dynamic entry will age (nullopt: none will). A driver that wants age events at
  // their exact time calls tick() then, before feeding a later frame.
  [[nodiscard]] std::optional<time_point> next_expiry() const noexcept;
  // False when no dynamic entry can have aged by `now` (a cheap test before next_expiry()).
  [[nodiscard]] bool may_expire_by(time_point now) const noexcept {
    return aging_ != duration::zero() && oldest_bound_ <= now - aging_;
  }
  [[nodiscard]] std::optional<port_id> lookup(mac_address mac, vlan_id vlan) const;
  // Every entry, sorted by VLAN then MAC; ages measured at `now`.
  [[nodiscard]] std::vector<fdb_entry> entries(time_point now) const;
  [[nodiscard]] std::size_t size() const noexcept { return map_.size(); }
  [[nodiscard]] std::size_t dynamic_size() const noexcept { return dynamic_count_; }
  [[nodiscard]] std::size_t dynamic_size(port_id port) const noexcept;
  [[nodiscard]] duration aging() const noexcept { return aging_; }
  [[nodiscard]] std::size_t capacity() const noexcept { return capacity_; }

 private:
  using key = std::uint64_t;  // VLAN in bits 48..59, MAC in bits 0..47
  struct lru_node {            // a dynamic entry's place in its port's list
    key k = 0;
    time_point last_seen{};    // here rather than in the entry: aging reads only the lists' fronts
  };
  struct entry {
    port_id port = 0;
    bool is_static = false;
    std::list<lru_node>::iterator lru;  // position in lru_[port] (dynamic entries only)
  };
  static key make_key(mac_address mac, vlan_id vlan) noexcept;
  std::list<lru_node>& lru_of(port_id port);
  void insert_dynamic(key k, port_id port, time_point now);
  void erase_dynamic(std::unordered_map<key, entry>::iterator it);
  bool make_room(std::vector<fdb_event>& events);

  duration aging_;
  std::size_t capacity_;
  full_table_policy policy_;
  std::unordered_map<key, entry> map_;
  // Per port, dynamic entries, least recently seen first. Each list on the heap: growing lru_
  // never moves a list, so entry iterators stay valid; indexing is one load (a deque of lists
  // cost a division by 21 per access, several per frame).
  std::vector<std::unique_ptr<std::list<lru_node>>> lru_;
  std::size_t dynamic_count_ = 0;
  // A lower bound of every dynamic entry's last sighting: the oldest list front, or the time of
  // the last expire() when there was none. It stays a bound until the next expire(), since fronts
  // only get younger and new entries are seen at or after that time (time never goes backwards).
  time_point oldest_bound_ = time_point::min();
};

}  // namespace netlib::l2
