// Tour steps for lab-dc: ECMP loads on a leaf-spine, hash polarization on a fat-tree, and the
// routing schemes' MLU on a leaf-spine with one weak uplink (all models; lab-dc run, which needs
// root and namespaces, is in the handout).
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tour.hpp"

namespace netlab::tour {
namespace {

void ecmp_loads(const context& ctx) {
  const auto dir = ctx.scratch("dc-ecmp");
  const std::vector<std::string> base{ctx.bin("lab-dc"), "ecmp",  "--topology", "leaf-spine:4x2", "--flows", "200",
                                      "--hash",          "crc16", "--json"};
  auto args = base;
  args.insert(args.end(), {"--svg", dir + "/loads.svg"});
  const auto j = ctx.run_json(args);
  const auto& up = j.at("tiers").at(1);
  ctx.say(fmt::format("200 flows on a 4x2 leaf-spine: leaf->spine uplinks Jain's index {:.3f}, MLU {:.1f}% on {}",
                      up.at("uplink_jain").get<double>(), 100 * j.at("mlu").get<double>(),
                      j.at("busiest").get<std::string>()));
  context::check(up.at("unused_uplinks") == 0, "with 200 flows every leaf uplink should carry some");
  double host_bytes = 0;
  for (const auto& l : j.at("links")) {
    if (l.at("tier") == 0) host_bytes += l.at("a_to_b").at("bytes").get<double>();
  }
  context::check(host_bytes == 200 * 10e6, "every flow's bytes must leave its host once");
  context::check(std::filesystem::file_size(dir + "/loads.svg") > 2000, "--svg should write the fabric's picture");
  ctx.say(
      "--svg drew the fabric, each link by its load (the tour deletes its copy at the end: the handout's step 1 "
      "writes a loads.svg to keep and open in a browser)");
  // A CRC seed only XORs one constant into a leaf's hashes: with two spines each leaf's uplinks
  // keep their loads or swap them. The seeds drawn from 1 flip three leaves of four.
  args = base;
  args.insert(args.end(), {"--seed", "per-switch", "--hash-seed", "1"});
  const auto other = ctx.run_json(args);
  std::size_t swapped = 0, leaves = 0;
  const auto& links = j.at("links");
  const auto& links2 = other.at("links");
  for (std::size_t i = 0; i + 1 < links.size(); ++i) {
    if (links[i].at("tier") != 1 || links[i].at("a") != links[i + 1].at("a")) continue;  // a leaf's two uplinks
    ++leaves;
    const auto bytes = [](const nlohmann::json& l) { return l.at("a_to_b").at("bytes").get<double>(); };
    swapped += bytes(links2[i]) == bytes(links[i + 1]) && bytes(links2[i + 1]) == bytes(links[i]);
    ++i;
  }
  ctx.say(
      fmt::format("--seed per-switch --hash-seed 1: {} of {} leaves' two uplinks swapped their loads, Jain's index "
                  "{:.3f} as before (a CRC seed XORs one constant into every hash)",
                  swapped, leaves, other.at("tiers").at(1).at("uplink_jain").get<double>()));
  context::check(leaves == 4 && swapped == 3, "the seeds drawn from 1 flip the low bit at three leaves of four");
}

void polarization(const context& ctx) {
  const auto j = ctx.run_json(
      {ctx.bin("lab-dc"), "polarize", "--topology", "fat-tree:4", "--flows", "2000", "--hash", "linux", "--json"});
  const auto share = [&](int c) {
    return j.at("configurations").at(c).at("tiers").at(2).at("unused_uplink_share").get<double>();
  };
  ctx.say(
      fmt::format("agg->core uplinks idle: {:.0f}% with one seed everywhere, {:.0f}% with a seed per switch, "
                  "{:.0f}% hashing other fields above the edge",
                  100 * share(0), 100 * share(1), 100 * share(2)));
  context::check(share(0) == 0.5, "one hash and one seed at both tiers must leave half the core uplinks idle");
  context::check(share(1) == 0.0, "per-switch SipHash seeds must use every core uplink");
}

void traffic_engineering(const context& ctx) {
  const auto dir = ctx.scratch("dc-te");
  auto topo = ctx.run({ctx.bin("lab-dc"), "topology", "--topology", "leaf-spine:4x2"}).out;
  const std::string weak = "link leaf1 spine1 10Gbps";
  const auto at = topo.find(weak);
  context::check(at != std::string::npos, "the printed topology should list leaf1's link to spine1");
  topo.replace(at, weak.size(), "link leaf1 spine1 2.5Gbps");
  std::ofstream(dir + "/weak.txt") << topo;
  ctx.say("leaf1's link to spine1 cut to 2.5 Gbps in " + dir + "/weak.txt");
  const auto j = ctx.run_json(
      {ctx.bin("lab-dc"), "te", "--topology", dir + "/weak.txt", "--generate", "--matrices", "16", "--json"});
  const auto& s = j.at("summary");
  std::string line;
  for (const char* name : {"shortest-path", "ecmp", "optimal", "predicted", "robust"}) {
    line += fmt::format("{}{} {:.0f}%", line.empty() ? "mean MLU: " : ", ", name,
                        100 * s.at(name).at("mean").get<double>());
  }
  ctx.say(line);
  context::check(s.at("optimal").at("mean").get<double>() < s.at("ecmp").at("mean").get<double>(),
                 "with a weak uplink the LP must beat ECMP's even split");
  context::check(s.at("ecmp").at("mean").get<double>() < s.at("shortest-path").at("mean").get<double>(),
                 "ECMP must beat a single shortest path");
}

}  // namespace

std::vector<step> dc_steps() {
  return {
      {"lab-dc", "ECMP: 200 flows hashed over a leaf-spine, per-link loads and an SVG", ecmp_loads},
      {"lab-dc", "hash polarization: one seed at two tiers of a fat-tree, then a seed per switch", polarization},
      {"lab-dc", "traffic engineering: MLU of shortest path, ECMP, the LP and tuned splits with a weak uplink",
       traffic_engineering},
  };
}

}  // namespace netlab::tour
