// Theory of operation: links are listed as the topology numbers them, each with its two arcs
// (2l and 2l + 1); the JSON carries raw numbers (bytes, utilisation as a fraction), the text
// the same rounded for reading.
#include "report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>

#include "netlib/core/units.hpp"
#include "options.hpp"

namespace netlab::lab_dc {
namespace dc = netlib::dc;

std::string role_name(const dc::topology& t, int tier) {
  if (tier == 0) return "host";
  for (const auto& n : t.nodes()) {
    if (n.tier != tier || n.kind == dc::node_kind::host) continue;
    std::string role;
    for (char c : n.name) {
      if (!std::isalpha(static_cast<unsigned char>(c))) break;
      role += c;
    }
    if (!role.empty()) return role;
    break;
  }
  return fmt::format("tier-{}", tier);
}

std::string loads_table(const dc::topology& t, std::span<const double> bytes, std::span<const std::uint32_t> flows,
                        const dc::load_summary& s) {
  std::string out = fmt::format("{:<24} {:>9}  {:>6} {:>10} {:>7}   {:>6} {:>10} {:>7}\n", "link (a -- b)", "rate",
                                "flows", "a->b", "util", "flows", "b->a", "util");
  for (int tier = 0; tier <= t.max_tier(); ++tier) {
    for (dc::link_id l = 0; l < t.links().size(); ++l) {
      const auto& k = t.links()[l];
      const int lower = std::min(t.nodes()[k.a].tier, t.nodes()[k.b].tier);
      if (lower != tier) continue;
      const dc::arc_id ab = 2 * l, ba = 2 * l + 1;
      const auto f = [&](dc::arc_id a) { return flows.empty() ? std::string("-") : std::to_string(flows[a]); };
      out += fmt::format("{:<24} {:>9}  {:>6} {:>10} {:>6.1f}%   {:>6} {:>10} {:>6.1f}%{}\n",
                         t.nodes()[k.a].name + " -- " + t.nodes()[k.b].name, netlib::units::format_bps(k.capacity_bps),
                         f(ab), netlib::units::format_bytes(bytes[ab]), 100 * s.utilisation[ab], f(ba),
                         netlib::units::format_bytes(bytes[ba]), 100 * s.utilisation[ba],
                         (s.busiest == ab || s.busiest == ba) && s.mlu > 0 ? "  <- MLU" : "");
    }
  }
  return out;
}

std::string tiers_text(const dc::topology& t, const dc::load_summary& s) {
  std::string out;
  for (const auto& f : s.tiers) {
    if (f.uplinks == 0) continue;
    if (f.unused_uplinks == f.uplinks && f.unused_downlinks == f.downlinks) {
      out += fmt::format("{} -> {} links: none of the {} carries traffic\n", role_name(t, f.tier),
                         role_name(t, f.tier + 1), f.uplinks + f.downlinks);
      continue;
    }
    out += fmt::format(
        "{} -> {} uplinks: {} of {} unused ({:.0f}%), Jain's index {:.3f}; downlinks: {} of {} unused, "
        "Jain {:.3f}; busiest {:.1f}%\n",
        role_name(t, f.tier), role_name(t, f.tier + 1), f.unused_uplinks, f.uplinks, 100 * f.unused_uplink_share(),
        f.uplink_jain, f.unused_downlinks, f.downlinks, f.downlink_jain, 100 * f.max_utilisation);
  }
  out += fmt::format("MLU {:.1f}% on {} (over {})\n", 100 * s.mlu, t.arc_name(s.busiest),
                     netlib::units::format_seconds(s.window_s));
  return out;
}

nlohmann::json links_json(const dc::topology& t, std::span<const double> bytes, std::span<const std::uint32_t> flows,
                          const dc::load_summary& s) {
  auto out = nlohmann::json::array();
  for (dc::link_id l = 0; l < t.links().size(); ++l) {
    const auto& k = t.links()[l];
    const auto dir = [&](dc::arc_id a) {
      nlohmann::json d{{"bytes", bytes[a]}, {"utilisation", s.utilisation[a]}};
      if (!flows.empty()) d["flows"] = flows[a];
      return d;
    };
    out.push_back({{"a", t.nodes()[k.a].name},
                   {"b", t.nodes()[k.b].name},
                   {"capacity_bps", k.capacity_bps},
                   {"tier", std::min(t.nodes()[k.a].tier, t.nodes()[k.b].tier)},
                   {"a_to_b", dir(2 * l)},
                   {"b_to_a", dir(2 * l + 1)}});
  }
  return out;
}

nlohmann::json tiers_json(const dc::topology& t, const dc::load_summary& s) {
  auto out = nlohmann::json::array();
  for (const auto& f : s.tiers) {
    out.push_back({{"tier", f.tier},
                   {"from", role_name(t, f.tier)},
                   {"to", role_name(t, f.tier + 1)},
                   {"uplinks", f.uplinks},
                   {"unused_uplinks", f.unused_uplinks},
                   {"unused_uplink_share", f.unused_uplink_share()},
                   {"uplink_jain", f.uplink_jain},
                   {"downlinks", f.downlinks},
                   {"unused_downlinks", f.unused_downlinks},
                   {"downlink_jain", f.downlink_jain},
                   {"max_utilisation", f.max_utilisation}});
  }
  return out;
}

fabric_verdict judge_fabric(const dc::topology& t, std::span<const double> predicted, std::span<const double> measured,
                            const dc::load_summary& model, const dc::load_summary& real, bool exact_required,
                            double tolerance) {
  fabric_verdict v;
  v.exact_required = exact_required;
  v.tolerance = tolerance;
  v.within = true;
  for (std::size_t i = 1; i < real.tiers.size() && i < model.tiers.size(); ++i) {
    tier_verdict tv;
    tv.tier = real.tiers[i].tier;
    for (dc::arc_id a = 0; a < t.arc_count(); ++a) {
      const int from = t.nodes()[t.arc_from(a)].tier, to = t.nodes()[t.arc_to(a)].tier;
      if (std::min(from, to) != tv.tier || from == to) continue;
      ++tv.directions;
      tv.exact += predicted[a] == measured[a];
    }
    if (tv.directions == 0) continue;
    tv.model_mlu = model.tiers[i].max_utilisation;
    tv.measured_mlu = real.tiers[i].max_utilisation;
    tv.error =
        tv.measured_mlu > 0 ? (tv.model_mlu - tv.measured_mlu) / tv.measured_mlu : (tv.model_mlu > 0 ? 1.0 : 0.0);
    tv.within = exact_required ? tv.exact == tv.directions : std::abs(tv.error) <= tolerance;
    v.directions += tv.directions;
    v.exact += tv.exact;
    v.within = v.within && tv.within;
    v.tiers.push_back(tv);
  }
  return v;
}

std::string verdict_text(const dc::topology& t, const fabric_verdict& v) {
  std::string out;
  for (const auto& tv : v.tiers) {
    out += fmt::format(
        "  {} <-> {} links: {} of {} directions exact; busiest: model {:.2f}%, measured {:.2f}% (error "
        "{:+.2f}%)\n",
        role_name(t, tv.tier), role_name(t, tv.tier + 1), tv.exact, tv.directions, 100 * tv.model_mlu,
        100 * tv.measured_mlu, 100 * tv.error);
  }
  if (v.tiers.empty()) return out + "  verdict: no links between switches, nothing routing decides\n";
  if (v.exact_required) {
    out += fmt::format(
        "  verdict, on the {} link directions between switches (where routing decides), byte for byte: {}\n",
        v.directions, v.within ? "the model agrees" : "the model DISAGREES");
  } else {
    out += fmt::format(
        "  verdict, on each tier's busiest link between switches (where routing decides), within ±{:g}%: "
        "{}\n",
        100 * v.tolerance, v.within ? "the model agrees" : "the model DISAGREES");
  }
  return out;
}

nlohmann::json verdict_json(const dc::topology& t, const fabric_verdict& v) {
  auto tiers = nlohmann::json::array();
  for (const auto& tv : v.tiers) {
    tiers.push_back({{"tier", tv.tier},
                     {"from", role_name(t, tv.tier)},
                     {"to", role_name(t, tv.tier + 1)},
                     {"link_directions", tv.directions},
                     {"exact_link_directions", tv.exact},
                     {"model_mlu", tv.model_mlu},
                     {"measured_mlu", tv.measured_mlu},
                     {"mlu_error", tv.error},
                     {"within", tv.within}});
  }
  return {{"judged_on", v.exact_required ? "exact bytes on every link direction between switches"
                                         : "each tier's busiest link direction between switches, within the tolerance"},
          {"tolerance", v.tolerance},
          {"link_directions", v.directions},
          {"exact_link_directions", v.exact},
          {"tiers", tiers},
          {"agrees", v.within}};
}

nlohmann::json topology_json(const dc::topology& t) {
  std::size_t switches = 0;
  for (const auto& n : t.nodes()) switches += n.kind == dc::node_kind::switch_node;
  return {{"description", t.description()},
          {"hosts", t.hosts().size()},
          {"switches", switches},
          {"links", t.links().size()},
          {"tiers", t.max_tier()}};
}

nlohmann::json hash_json(const dc::hash_config& c) {
  return {{"hash", dc::hash_name(c.algorithm)},
          {"fields", static_cast<int>(c.fields)},
          {"seed", c.seeds == dc::seed_mode::same ? "same" : "per-switch"},
          {"hash_seed", c.seed},
          {"next_hop", dc::grouping_of(c) == dc::group_hashing::threshold ? "hash-threshold"
                       : dc::grouping_of(c) == dc::group_hashing::modulo  ? "modulo"
                                                                          : "resilient"},
          {"weighted", c.weighted}};
}

std::string flows_count_text(const dc::topology& t, const dc::placement& p) {
  const std::string edge = role_name(t, 1);
  std::string out = fmt::format("{} cross the fabric (ECMP routes them), {} stay under their {} (host links only)",
                                p.crossing, p.within_switch, edge);
  if (p.same_host) out += fmt::format(", {} have both ends on one host (no link)", p.same_host);
  return out;
}

nlohmann::json flows_count_json(const flow_set& flows, const dc::placement& p) {
  return {{"source", flows.source},   {"count", flows.flows.size()},      {"placed", p.placed},
          {"same_host", p.same_host}, {"within_switch", p.within_switch}, {"crossing_fabric", p.crossing}};
}

namespace {
// Flow `i` as the JSON of `lab-dc flows` and `--paths` shows it.
nlohmann::json flow_json(const dc::topology& t, const dc::flow& f, std::size_t i) {
  return {{"flow", i},
          {"src", t.nodes()[f.src].name},
          {"dst", t.nodes()[f.dst].name},
          {"protocol", f.key.protocol == 17  ? "udp"
                       : f.key.protocol == 6 ? "tcp"
                                             : std::to_string(f.key.protocol)},
          {"src_ip", f.key.src.to_string()},
          {"dst_ip", f.key.dst.to_string()},
          {"src_port", f.key.src_port},
          {"dst_port", f.key.dst_port},
          {"bytes", f.bytes},
          {"start_s", f.start_s}};
}
}  // namespace

nlohmann::json flows_json(const dc::topology& t, std::span<const dc::flow> flows) {
  auto out = nlohmann::json::array();
  for (std::size_t i = 0; i < flows.size(); ++i) out.push_back(flow_json(t, flows[i], i));
  return out;
}

nlohmann::json paths_json(const dc::ecmp_model& m, std::span<const dc::flow> flows, const dc::placement& p,
                          const dc::routes& r) {
  const auto& t = m.fabric();
  auto out = nlohmann::json::array();
  for (std::size_t i = 0; i < flows.size(); ++i) {
    const auto& f = flows[i];
    nlohmann::json path = nlohmann::json::array(), hops = nlohmann::json::array();
    const std::uint32_t b = p.path_begin[i], e = p.path_begin[i + 1];
    if (b < e) path.push_back(t.nodes()[t.arc_from(p.path_arcs[b])].name);
    for (std::uint32_t k = b; k < e; ++k) {
      const dc::arc_id a = p.path_arcs[k];
      path.push_back(t.nodes()[t.arc_to(a)].name);
      const dc::node_id v = t.arc_from(a);
      if (t.is_host(v)) continue;
      const auto next = r.next_hops(v, t.attachment(f.dst));
      if (next.size() < 2) continue;
      const auto h = m.hash(f.key, v);
      nlohmann::json hop{{"switch", t.nodes()[v].name},
                         {"seed", m.seed_of(v)},
                         {"fields", static_cast<int>(m.fields_of(v))},
                         {"hash", h},
                         {"choices", next.size()},
                         {"pick", m.pick(v, t.attachment(f.dst), next, h)},
                         {"next", t.nodes()[t.arc_to(a)].name}};
      // A resilient group's bucket (hash mod buckets) and the member it holds.
      if (const auto* group = m.resilient_group(v, t.attachment(f.dst))) {
        hop["bucket"] = group->bucket_of(h);
        hop["buckets"] = group->buckets().size();
      }
      // The bytes this switch hashed (the CRC, XOR and Toeplitz hashes; Linux hashes its own
      // struct flow_keys instead).
      if (m.config().algorithm != dc::hash_algorithm::linux_hash) {
        std::array<std::byte, 40> key{};
        const auto len = dc::serialize_key(f.key, m.fields_of(v), key);
        std::string hex;
        for (std::size_t j = 0; j < len; ++j)
          hex += fmt::format("{}{:02x}", j ? " " : "", static_cast<unsigned>(key[j]));
        hop["key"] = hex;
      }
      hops.push_back(std::move(hop));
    }
    auto entry = flow_json(t, f, i);
    entry["path"] = std::move(path);
    entry["hops"] = std::move(hops);
    out.push_back(std::move(entry));
  }
  return out;
}

}  // namespace netlab::lab_dc
