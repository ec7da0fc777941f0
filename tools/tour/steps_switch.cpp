// Tour steps for lab-switch: recorded multi-port traffic through the learning switch.
#include <fmt/format.h>

#include <map>

#include "tour.hpp"

namespace netlab::tour {
namespace {

void four_hosts(const context& ctx) {
  const std::string dir = ctx.scratch("switch");
  ctx.run({ctx.bin("lab-switch"), "make-captures", dir});
  auto j = ctx.run_json({ctx.bin("lab-switch"), "replay", dir + "/four_hosts.pcapng", "--json"});
  std::map<std::string, int> decisions;
  for (const auto& f : j.at("frames")) ++decisions[f.at("decision").get<std::string>()];
  ctx.say(fmt::format("{} frames: {} flooded (broadcast ARP and first sightings), {} forwarded to one port",
                      j.at("frames").size(), decisions["flood"], decisions["forward"]));
  ctx.say(fmt::format("final table: {} stations learned", j.at("table").size()));
  context::check(j.at("table").size() == 4, "expected the four hosts in the table");
  context::check(decisions["forward"] > decisions["flood"], "after learning, most frames must be forwarded");
}

void mac_flood(const context& ctx) {
  const std::string dir = ctx.scratch("switch-flood");
  ctx.run({ctx.bin("lab-switch"), "make-captures", dir});
  for (const std::string policy : {"evict-fair", "stop-learning"}) {
    auto j = ctx.run_json({ctx.bin("lab-switch"), "replay", dir + "/mac_flood.pcapng", "--policy", policy, "--json"});
    // The legitimate hosts' unicast frames: flooded ones were not known to the switch.
    int legit_flooded = 0, legit = 0;
    for (const auto& f : j.at("frames")) {
      const std::string dst = f.at("dst");
      if (dst.rfind("02:00:00:00:00:0", 0) != 0) continue;  // the recipe's hosts
      ++legit;
      if (f.at("decision") == "flood") ++legit_flooded;
    }
    ctx.say(fmt::format("{:>13}: table {} entries; {} of {} frames to real hosts flooded", policy, j.at("table").size(),
                        legit_flooded, legit));
    if (policy == "evict-fair")
      context::check(legit_flooded == 0, "the fair policy must keep real hosts unicast");
    else
      context::check(legit_flooded > 0, "stop-learning floods a host that arrives after the table is full");
  }
}

}  // namespace

std::vector<step> switch_steps() {
  return {
      {"lab-switch", "four hosts ping each other through the learning switch", four_hosts},
      {"lab-switch", "a MAC-flooding attack under the two full-table policies", mac_flood},
  };
}

}  // namespace netlab::tour
