// Fuzz target for lab-dc's text formats (netlib::dc): the topology format and the traffic-matrix
// format. Arbitrary text either parses, or fails with a topology_error / te_error (a parse error
// names its line, which exists); what parses must read back the same from its own text, and the
// routes, ECMP placement and ECMP loads over it must hold their invariants. --fail's link names
// (parse_link_name) are read from the text too, and a failure of a link between switches moves,
// with resilient groups, exactly the flows that crossed it.
//
// Input: byte 0 selects the format (bit 0: 0 topology, 1 matrices against a 3x2 leaf-spine with
// one host per leaf), the rest is the text.
#include "netlib/dc/ecmp.hpp"
#include "netlib/dc/failure.hpp"
#include "netlib/dc/loads.hpp"
#include "netlib/dc/routes.hpp"
#include "netlib/dc/te.hpp"
#include "netlib/dc/topology.hpp"
#include "netlib/dc/traffic.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace {

void check(bool ok) {
  if (!ok) __builtin_trap();
}

std::size_t lines_in(std::string_view text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) + 1;
}

void topology_case(std::string_view text) {
  netlib::dc::topology_limits limits;
  limits.max_nodes = 64;
  limits.max_links = 256;
  netlib::dc::topology t;
  try {
    t = netlib::dc::parse_topology(text, limits);
  } catch (const netlib::dc::topology_error& e) {
    check(e.line() <= lines_in(text));
    check(std::string_view(e.what()).size() < 400);
    return;
  }
  const auto back = netlib::dc::parse_topology(netlib::dc::to_text(t), limits);
  check(back.nodes().size() == t.nodes().size() && back.links().size() == t.links().size());
  for (std::size_t i = 0; i < t.nodes().size(); ++i) check(back.nodes()[i].tier == t.nodes()[i].tier);
  for (std::size_t i = 0; i < t.links().size(); ++i) check(back.links()[i].capacity_bps == t.links()[i].capacity_bps);
  if (t.hosts().size() < 2) return;
  const netlib::dc::routes r(t);
  netlib::dc::traffic_config c;
  c.flows = 16;
  const auto flows = netlib::dc::generate_flows(t, c);
  for (const char* hash : {"crc16", "linux"}) {
    auto cfg = *netlib::dc::parse_hash(hash);
    cfg.seeds = netlib::dc::seed_mode::per_switch;
    const netlib::dc::ecmp_model m(t, r, cfg);
    const auto p = netlib::dc::place_flows(m, flows, true);
    check(p.placed + p.same_host == flows.size() && p.within_switch + p.crossing == p.placed);
    for (std::size_t i = 0; i + 1 < p.path_begin.size(); ++i) {
      for (auto k = p.path_begin[i] + 1; k < p.path_begin[i + 1]; ++k) {
        check(t.arc_from(p.path_arcs[k]) == t.arc_to(p.path_arcs[k - 1]));
      }
    }
    const auto s = netlib::dc::summarize_loads(t, p.arc_bytes, 1.0);
    check(s.mlu >= 0);
  }
  // Link names: every link by its ends (a name with '-' may make two readings: then none), and
  // the text itself.
  if (const auto l = netlib::dc::parse_link_name(t, text)) check(*l < t.links().size());
  std::optional<netlib::dc::link_id> fabric_link;
  for (netlib::dc::link_id l = 0; l < t.links().size(); ++l) {
    const auto& k = t.links()[l];
    const auto got = netlib::dc::parse_link_name(t, t.nodes()[k.a].name + "-" + t.nodes()[k.b].name);
    check(!got || *got == l);
    if (!fabric_link && !t.is_host(k.a) && !t.is_host(k.b)) fabric_link = l;
  }
  if (!fabric_link) return;
  auto cfg = *netlib::dc::parse_hash("l4");
  cfg.grouping = netlib::dc::group_hashing::resilient;
  cfg.buckets = 16;
  cfg.weighted = true;
  const netlib::dc::link_id down[] = {*fabric_link};
  try {
    const auto e = netlib::dc::failure_moves(t, flows, cfg, down);
    check(e.moved == e.had_to_move && e.moved_needlessly == 0);
  } catch (const netlib::dc::topology_error&) {
    // The failure cut the fabric.
  } catch (const std::invalid_argument&) {
    // A switch with more next hops than buckets.
  }
}

void matrix_case(std::string_view text) {
  static const auto t = netlib::dc::leaf_spine(3, 2, 1, 10e9, 10e9);
  netlib::dc::matrix_limits limits;
  limits.max_matrices = 64;
  limits.max_demands = 512;
  std::vector<netlib::dc::traffic_matrix> ms;
  try {
    ms = netlib::dc::parse_matrices(text, t, limits);
  } catch (const netlib::dc::te_error& e) {
    const std::string_view what = e.what();
    if (what.starts_with("line ")) {
      const auto n = std::stoul(std::string(what.substr(5, what.find(':') - 5)));
      check(n >= 1 && n <= lines_in(text));
    }
    return;
  }
  const auto back = netlib::dc::parse_matrices(netlib::dc::matrices_to_text(t, ms), t, limits);
  check(back.size() == ms.size());
  for (std::size_t i = 0; i < ms.size(); ++i) {
    check(back[i].demands.size() == ms[i].demands.size());
    const auto loads = netlib::dc::ecmp_loads(t, ms[i]);
    double into_hosts = 0, demanded = 0;
    for (auto h : t.hosts()) into_hosts += loads[t.host_uplink(h) ^ 1u];
    for (const auto& d : ms[i].demands) demanded += t.is_host(d.dst) ? d.bps : 0;
    check(std::abs(into_hosts - demanded) <= 1e-6 * std::max(1.0, demanded));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  if ((data[0] & 1U) == 0)
    topology_case(text);
  else
    matrix_case(text);
  return 0;
}
