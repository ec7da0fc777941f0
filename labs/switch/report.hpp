#pragma once
// How lab-switch shows decisions, events, the table and the totals, as text and as JSON.
#include "netlib/l2/learning_switch.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace netlab::lab_switch {

// A frame the switch looked at, as the report shows it.
struct frame_report {
  std::uint64_t number = 0;  // 1-based, input order
  double time_s = 0;         // since the first frame
  netlib::l2::port_id in_port = 0;
  const netlib::l2::forwarding_decision* decision = nullptr;
  std::string skipped;  // non-empty when the frame never reached the switch ("link type raw")
};

std::string format_frame(const frame_report& f);
std::string format_event(double time_s, const netlib::l2::fdb_event& e, bool vlan_aware);
// Like `bridge fdb show`: MAC, port, VLAN, then the age or "static"; one line per entry.
std::string format_table(const netlib::l2::learning_switch& sw);
std::string format_summary(const netlib::l2::learning_switch& sw, std::uint64_t frames, std::uint64_t skipped);
// One line per port: frames and bytes received, dropped, filtered, sent.
std::string format_port_counters(const netlib::l2::learning_switch& sw);

nlohmann::json frame_json(const frame_report& f, bool vlan_aware);
nlohmann::json event_json(const netlib::l2::fdb_event& e, bool vlan_aware);
nlohmann::json table_json(const netlib::l2::learning_switch& sw);
nlohmann::json ports_json(const netlib::l2::learning_switch& sw);
nlohmann::json summary_json(const netlib::l2::learning_switch& sw, std::uint64_t frames, std::uint64_t skipped);

}  // namespace netlab::lab_switch
