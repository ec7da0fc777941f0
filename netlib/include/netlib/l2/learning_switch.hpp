#pragma once
// A sans-I/O IEEE 802.1D learning bridge: frames and time in, forwarding decisions out.
//
// For each frame received on port `in` at time `now` (after aging entries whose time is up):
//   (0) drop a frame whose source is not an individual address (a group address, or all zeros):
//       no station sends from one, and the Linux bridge drops these too (is_valid_ether_addr);
//   (1) learn the source MAC on the ingress port (unicast sources only; a station that moves is
//       relearned on its new port);
//   (2) drop frames to IEEE link-local destinations 01:80:C2:00:00:00..0F;
//   (3) flood broadcast, multicast and unknown unicast to every port but the ingress;
//   (4) filter a frame whose destination is on the ingress port;
//   (5) forward to the learned port.
// Ports that are down neither receive nor send. A hairpin port may send a frame back out of the
// port it came in on (steps 3 and 4). When VLAN-aware, every frame is first classified into a VLAN
// by its ingress port (802.1Q access/trunk); steps 1..5 then use that VLAN's table and its member
// ports only, and each output says how the frame is tagged on that port.
#include "netlib/core/bytes.hpp"
#include "netlib/core/clock.hpp"
#include "netlib/l2/fdb_event.hpp"
#include "netlib/l2/forwarding_table.hpp"
#include "netlib/l2/frame_header.hpp"
#include "netlib/l2/switch_config.hpp"
#include "netlib/l2/switch_counters.hpp"

#include <optional>
#include <string_view>
#include <vector>

namespace netlib::l2 {

enum class decision { forward, flood, filter, drop };
enum class drop_reason { none, malformed, link_local, port_down, vlan, invalid_source };
std::string_view to_string(decision d) noexcept;
std::string_view to_string(drop_reason r) noexcept;

// How a frame leaves one port.
enum class egress_tagging {
  as_received,  // not VLAN-aware: the bytes as they came in
  untagged,     // without an 802.1Q tag
  tagged,       // with an 802.1Q tag carrying `vid`
};
struct egress {
  port_id port = 0;
  egress_tagging tagging = egress_tagging::as_received;
  vlan_id vid = 0;
};

struct forwarding_decision {
  decision kind = decision::drop;
  drop_reason reason = drop_reason::none;
  std::optional<frame_header> header;                     // absent for a malformed frame
  std::optional<netlib::packet::decode_error> malformed;  // why, for a malformed frame
  std::optional<vlan_id> vlan;                            // the frame's VLAN (classified, or its tag when not aware)
  std::vector<egress> out;                                // ascending port numbers
  std::vector<fdb_event> events;                          // aging before this frame, then what it caused

  // Back to a default decision, keeping the vectors' capacity (for reuse across frames).
  void clear() noexcept {
    kind = decision::drop;
    reason = drop_reason::none;
    header.reset();
    malformed.reset();
    vlan.reset();
    out.clear();
    events.clear();
  }
};

class learning_switch {
 public:
  // `ports` may be shorter than config.port_count: missing ports get the defaults.
  explicit learning_switch(const switch_config& config, std::vector<port_config> ports = {});

  forwarding_decision receive(port_id in, byte_view frame, time_point now);
  // The same into `d`, which is reset first; reusing one decision across frames keeps the
  // capacity of its vectors, so a replay of many frames does not allocate per frame.
  void receive(port_id in, byte_view frame, time_point now, forwarding_decision& d);
  // Ages entries without a frame (a timer tick).
  std::vector<fdb_event> tick(time_point now);
  // A port going down flushes its dynamic entries; up again it takes part as before.
  std::vector<fdb_event> set_port_up(port_id port, bool up);
  void set_hairpin(port_id port, bool hairpin);
  // A static entry (never aged, never overwritten). VLAN 0 when not VLAN-aware.
  void add_static(mac_address mac, vlan_id vlan, port_id port);

  [[nodiscard]] const forwarding_table& table() const noexcept { return table_; }
  [[nodiscard]] const switch_counters& counters() const noexcept { return counters_; }
  [[nodiscard]] const switch_config& config() const noexcept { return config_; }
  [[nodiscard]] const port_config& port(port_id p) const { return ports_.at(p); }
  [[nodiscard]] bool port_up(port_id p) const { return up_.at(p); }
  [[nodiscard]] time_point now() const noexcept { return now_; }

 private:
  std::optional<vlan_id> classify(port_id in, const frame_header& h) const;
  std::optional<egress> egress_for(port_id p, vlan_id vlan) const;
  void flood(port_id in, vlan_id vlan, forwarding_decision& d) const;
  void decide(port_id in, const frame_header& h, vlan_id vlan, forwarding_decision& d);
  void finish(port_id in, std::size_t size, forwarding_decision& d);
  void count_events(const std::vector<fdb_event>& events);
  void check_port(port_id p) const;

  switch_config config_;
  std::vector<port_config> ports_;
  std::vector<std::uint8_t> up_;  // 1: up (bytes, not vector<bool>'s bits: read for every frame and output)
  forwarding_table table_;
  switch_counters counters_;
  time_point now_{};
};

// The bytes of `frame` as they leave by `out` (a pure serializer): the tag is kept, added (PCP 0),
// rewritten (PCP kept) or removed as `out.tagging` says.
// True for the IEEE 802.1D reserved group addresses 01:80:C2:00:00:00..0F (step 2).
bool is_link_local(const mac_address& mac) noexcept;

std::vector<std::byte> egress_frame(byte_view frame, const frame_header& header, const egress& out);

}  // namespace netlib::l2
