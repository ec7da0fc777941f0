// Fuzz target for the switch's frame decoder path: arbitrary bytes become a sequence of frames on
// arbitrary ports of a learning switch (VLAN-aware or not, tiny table, short aging), through
// decode_frame_header, steps 1..5 and egress_frame. Checks the core's invariants on every decision.
//
// Input: byte 0 = flags (bit 0 VLAN-aware, bit 1 stop-learning, bit 2 hairpin on port 1), then
// records of [port (1 byte)] [time step ms (1 byte)] [length (1 byte)] [frame bytes].
#include "netlib/l2/learning_switch.hpp"
#include "netlib/l2/vlan_config.hpp"

#include <cstddef>
#include <cstdint>
#include <span>

namespace {

void check(bool ok) {
  if (!ok) __builtin_trap();
}

netlib::l2::learning_switch make_switch(std::uint8_t flags) {
  netlib::l2::switch_config config;
  config.port_count = 4;
  config.capacity = 8;
  config.aging = std::chrono::seconds(1);
  config.vlan_aware = (flags & 1U) != 0;
  config.policy =
      (flags & 2U) != 0 ? netlib::l2::full_table_policy::stop_learning : netlib::l2::full_table_policy::evict_fair;
  auto parsed = netlib::l2::parse_vlan_config(
      "port 0 access 10\nport 1 access 20\nport 2 trunk 10,20 native 30\nport 3 trunk 10\n");
  std::vector<netlib::l2::port_config> ports(4);
  for (const auto& [p, pc] : std::get<0>(parsed)) ports[p] = pc;
  ports[1].hairpin = (flags & 4U) != 0;
  return netlib::l2::learning_switch(config, ports);
}

void check_decision(const netlib::l2::learning_switch& sw, netlib::l2::port_id in, std::span<const std::byte> frame,
                    const netlib::l2::forwarding_decision& d) {
  using netlib::l2::decision;
  check(d.header.has_value() != d.malformed.has_value());
  check(d.kind == decision::forward || d.kind == decision::flood || d.out.empty());
  check(d.kind != decision::forward || d.out.size() == 1);
  check(sw.table().dynamic_size() <= sw.table().capacity());
  for (std::size_t i = 0; i < d.out.size(); ++i) {
    check(i == 0 || d.out[i - 1].port < d.out[i].port);
    check(d.out[i].port != in || sw.port(in).hairpin);
    const auto bytes = netlib::l2::egress_frame(frame, *d.header, d.out[i]);
    const auto again = netlib::l2::decode_frame_header(bytes);
    check(again.ok());
    check(again->src == d.header->src && again->dst == d.header->dst);
    if (d.out[i].tagging == netlib::l2::egress_tagging::tagged) check(again->tag && again->tag->vid == d.out[i].vid);
    if (d.out[i].tagging == netlib::l2::egress_tagging::untagged) {  // exactly the outer C-tag removed
      check(bytes.size() == frame.size() - (d.header->tag ? netlib::l2::vlan_tag_size : 0));
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  auto sw = make_switch(data[0]);
  netlib::time_point now{};
  std::size_t pos = 1;
  while (pos + 3 <= size) {
    const auto in = static_cast<netlib::l2::port_id>(data[pos] % 4);
    now += std::chrono::milliseconds(data[pos + 1] * 8);
    const std::size_t len = std::min<std::size_t>(data[pos + 2], size - pos - 3);
    const std::span frame(reinterpret_cast<const std::byte*>(data + pos + 3), len);
    pos += 3 + len;
    const auto d = sw.receive(in, frame, now);
    check_decision(sw, in, frame, d);
  }
  return 0;
}
