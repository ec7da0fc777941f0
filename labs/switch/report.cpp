#include "report.hpp"

#include <fmt/format.h>

#include <variant>

namespace netlab::lab_switch {

namespace l2 = netlib::l2;
using nlohmann::json;

namespace {

std::string ports_text(const l2::forwarding_decision& d) {
  if (d.out.empty()) return "-";
  std::string s;
  for (const auto& e : d.out) {
    if (!s.empty()) s += ',';
    s += std::to_string(e.port);
    if (e.tagging == l2::egress_tagging::tagged) s += fmt::format("(tag {})", e.vid);
  }
  return s;
}

std::string vlan_text(std::optional<l2::vlan_id> v) {
  return v ? std::to_string(*v) : "-";
}

// mac, vlan and port(s) of any event.
struct event_fields {
  l2::mac_address mac;
  l2::vlan_id vlan = 0;
  l2::port_id port = 0;
  std::optional<l2::port_id> from;
};

event_fields fields(const l2::fdb_event& e) {
  return std::visit(
      [](const auto& ev) -> event_fields {
        if constexpr (std::is_same_v<std::decay_t<decltype(ev)>, l2::moved>) {
          return {ev.mac, ev.vlan, ev.to, ev.from};
        } else {
          return {ev.mac, ev.vlan, ev.port, std::nullopt};
        }
      },
      e);
}

std::string decision_text(const l2::forwarding_decision& d) {
  if (d.kind != l2::decision::drop) return std::string(l2::to_string(d.kind));
  if (d.malformed) return fmt::format("drop ({})", d.malformed->message());
  return fmt::format("drop ({})", l2::to_string(d.reason));
}

}  // namespace

std::string format_frame(const frame_report& f) {
  if (!f.skipped.empty())
    return fmt::format("#{} {:.6f} port {} skipped ({})", f.number, f.time_s, f.in_port, f.skipped);
  const auto& d = *f.decision;
  if (!d.header) return fmt::format("#{} {:.6f} port {} {}", f.number, f.time_s, f.in_port, decision_text(d));
  return fmt::format("#{} {:.6f} port {} {} > {} vlan {} {} -> {}", f.number, f.time_s, f.in_port, d.header->src,
                     d.header->dst, vlan_text(d.vlan), decision_text(d), ports_text(d));
}

std::string format_event(double time_s, const l2::fdb_event& e, bool vlan_aware) {
  const auto ef = fields(e);
  const std::string vlan = vlan_aware ? std::to_string(ef.vlan) : "-";
  if (ef.from) return fmt::format("   {:.6f} move {} vlan {} port {} -> {}", time_s, ef.mac, vlan, *ef.from, ef.port);
  return fmt::format("   {:.6f} {} {} vlan {} port {}", time_s, l2::event_name(e), ef.mac, vlan, ef.port);
}

std::string format_table(const l2::learning_switch& sw) {
  std::string out;
  for (const auto& e : sw.table().entries(sw.now())) {
    out += fmt::format("{} dev port{}", e.mac, e.port);
    if (sw.config().vlan_aware) out += fmt::format(" vlan {}", e.vlan);
    out += e.is_static ? " static\n" : fmt::format(" age {:.3f}s\n", netlib::to_seconds(e.age));
  }
  return out;
}

std::string format_summary(const l2::learning_switch& sw, std::uint64_t frames, std::uint64_t skipped) {
  const auto& c = sw.counters();
  const auto& d = c.decisions;
  const auto& ev = c.events;
  return fmt::format(
      "frames {} (skipped {})\n"
      "decisions forward {} flood {} filter {} drop {} (malformed {}, link-local {}, port-down {}, vlan {}, "
      "invalid-source {})\n"
      "events learn {} move {} age {} evict {} flush {} refuse {}\n"
      "table {} entries ({} dynamic)\n",
      frames, skipped, d.forward, d.flood, d.filter, d.drop, d.drop_malformed, d.drop_link_local, d.drop_port_down,
      d.drop_vlan, d.drop_invalid_source, ev.learned, ev.moved, ev.aged, ev.evicted, ev.flushed, ev.learn_refused,
      sw.table().size(), sw.table().dynamic_size());
}

std::string format_port_counters(const l2::learning_switch& sw) {
  std::string out;
  for (std::size_t p = 0; p < sw.counters().ports.size(); ++p) {
    const auto& c = sw.counters().ports[p];
    out += fmt::format("port {} rx {} frames {} bytes (dropped {}, filtered {}) tx {} frames {} bytes\n", p,
                       c.rx_frames, c.rx_bytes, c.rx_dropped, c.rx_filtered, c.tx_frames, c.tx_bytes);
  }
  return out;
}

json event_json(const l2::fdb_event& e, bool vlan_aware) {
  const auto ef = fields(e);
  json j{{"event", l2::event_name(e)}, {"mac", ef.mac.to_string()}, {"port", ef.port}};
  j["vlan"] = vlan_aware ? json(ef.vlan) : json(nullptr);
  if (ef.from) j["from_port"] = *ef.from;
  return j;
}

json frame_json(const frame_report& f, bool vlan_aware) {
  json j{{"frame", f.number}, {"time_s", f.time_s}, {"in_port", f.in_port}};
  if (!f.skipped.empty()) {
    j.update({{"src", nullptr},
              {"dst", nullptr},
              {"vlan", nullptr},
              {"decision", "drop"},
              {"reason", f.skipped},
              {"out_ports", json::array()},
              {"events", json::array()}});
    return j;
  }
  const auto& d = *f.decision;
  j["src"] = d.header ? json(d.header->src.to_string()) : json(nullptr);
  j["dst"] = d.header ? json(d.header->dst.to_string()) : json(nullptr);
  j["vlan"] = d.vlan ? json(*d.vlan) : json(nullptr);
  j["decision"] = l2::to_string(d.kind);
  if (d.kind == l2::decision::drop)
    j["reason"] = d.malformed ? d.malformed->message() : std::string(l2::to_string(d.reason));
  json ports = json::array();
  for (const auto& e : d.out) ports.push_back(e.port);
  j["out_ports"] = ports;
  json events = json::array();
  for (const auto& e : d.events) events.push_back(event_json(e, vlan_aware));
  j["events"] = events;
  return j;
}

json table_json(const l2::learning_switch& sw) {
  json t = json::array();
  for (const auto& e : sw.table().entries(sw.now())) {
    t.push_back({{"mac", e.mac.to_string()},
                 {"vlan", sw.config().vlan_aware ? json(e.vlan) : json(nullptr)},
                 {"port", e.port},
                 {"age_s", netlib::to_seconds(e.age)},
                 {"static", e.is_static}});
  }
  return t;
}

json ports_json(const l2::learning_switch& sw) {
  json ports = json::array();
  for (std::size_t p = 0; p < sw.counters().ports.size(); ++p) {
    const auto& c = sw.counters().ports[p];
    ports.push_back({{"port", p},
                     {"rx_frames", c.rx_frames},
                     {"rx_bytes", c.rx_bytes},
                     {"rx_dropped", c.rx_dropped},
                     {"rx_filtered", c.rx_filtered},
                     {"tx_frames", c.tx_frames},
                     {"tx_bytes", c.tx_bytes}});
  }
  return ports;
}

json summary_json(const l2::learning_switch& sw, std::uint64_t frames, std::uint64_t skipped) {
  const auto& c = sw.counters();
  const auto& d = c.decisions;
  const auto& ev = c.events;
  return {{"frames", frames},
          {"skipped", skipped},
          {"decisions", {{"forward", d.forward}, {"flood", d.flood}, {"filter", d.filter}, {"drop", d.drop}}},
          {"drops",
           {{"malformed", d.drop_malformed},
            {"link_local", d.drop_link_local},
            {"port_down", d.drop_port_down},
            {"vlan", d.drop_vlan},
            {"invalid_source", d.drop_invalid_source}}},
          {"events",
           {{"learn", ev.learned},
            {"move", ev.moved},
            {"age", ev.aged},
            {"evict", ev.evicted},
            {"flush", ev.flushed},
            {"refuse", ev.learn_refused}}},
          {"table_size", sw.table().size()},
          {"ports", ports_json(sw)}};
}

}  // namespace netlab::lab_switch
