#pragma once
// The filtering database of a learning bridge (IEEE 802.1D-2004 §7.9): (VLAN, MAC) -> port, with
// aging, a capacity and a full-table policy, and static entries. One logical table per VLAN
// (independent VLAN learning, IEEE 802.1Q-2018 §8.8.8); VLAN 0 when the switch is not VLAN-aware.
#include "netlib/core/clock.hpp"
#include "netlib/l2/fdb_event.hpp"
#include "netlib/l2/frame_header.hpp"
#include "netlib/l2/switch_config.hpp"

#include "netlib/packet/open_hash_map.hpp"

#include <cstdint>
#include <optional>
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
  [[nodiscard]] std::size_t size() const noexcept { return index_.size(); }
  [[nodiscard]] std::size_t dynamic_size() const noexcept { return dynamic_count_; }
  [[nodiscard]] std::size_t dynamic_size(port_id port) const noexcept;
  [[nodiscard]] duration aging() const noexcept { return aging_; }
  [[nodiscard]] std::size_t capacity() const noexcept { return capacity_; }

 private:
  using key = std::uint64_t;  // VLAN in bits 48..59, MAC in bits 0..47
  using node_index = std::uint32_t;
  static constexpr node_index none = 0xffffffffU;
  struct node {  // an entry; dynamic ones are also linked on their port's list
    key k = 0;
    port_id port = 0;
    bool is_static = false;
    time_point last_seen{};
    node_index prev = none;  // toward the least recently seen (the front)
    node_index next = none;
  };
  struct port_list {  // a port's dynamic entries, least recently seen first
    node_index front = none;
    node_index back = none;
    std::size_t size = 0;
  };
  struct key_hash {
    std::uint64_t operator()(key k) const noexcept {
      const std::uint64_t h = (k ^ (k >> 29U)) * 0x9e3779b97f4a7c15ULL;
      return h ^ (h >> 32U);
    }
  };
  static key make_key(mac_address mac, vlan_id vlan) noexcept;
  port_list& list_of(port_id port);
  void link_back(node_index n, port_id port);
  void unlink(node_index n);
  node_index new_node(key k, port_id port, bool is_static, time_point now);
  void insert_dynamic(key k, port_id port, time_point now);
  void erase_dynamic(node_index n);
  bool make_room(std::vector<fdb_event>& events);
  void learn_slow(const node_index* found, key k, mac_address mac, vlan_id vlan, port_id port, time_point now,
                  std::vector<fdb_event>& events);

  duration aging_;
  std::size_t capacity_;
  full_table_policy policy_;
  packet::open_hash_map<key, node_index, key_hash> index_;  // every entry, by (VLAN, MAC)
  std::vector<node> nodes_;  // the entries; freed ones are chained through `next` from free_
  node_index free_ = none;
  std::vector<port_list> lists_;  // per port
  std::size_t dynamic_count_ = 0;
  // A lower bound of every dynamic entry's last sighting: the oldest list front, or the time of
  // the last expire() when there was none. It stays a bound until the next expire(), since fronts
  // only get younger and new entries are seen at or after that time (time never goes backwards).
  time_point oldest_bound_ = time_point::min();
};

}  // namespace netlib::l2
