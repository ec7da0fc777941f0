// Grading switch decisions. The reference is `lab-switch replay CAPTURE --json` (the same
// netlib::l2 learning switch the lab uses); the student's file is either that document's shape
// ({"frames": [...]}) or just the array, each entry {"frame": N, "decision": "forward" | "flood" |
// "filter" | "drop", "out_ports": [..]}. A frame is right when its decision and its set of output
// ports both match. Checks: every frame decided, then one check per decision kind present in the
// capture, scored by the fraction of its frames decided right. A switch that implements one of the
// documented policies (stop-learning on a full table, static entries, hairpin ports) is graded
// against the reference run with that policy: the instructor's flags, or, when the instructor
// fixed none, what the student's file declares in "switch" (the report's target names it).
#include "switch_suite.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "netlib/app/process.hpp"
#include "netlib/app/program.hpp"

namespace netlab::grade {

namespace switch_suite_local {

struct frame_decision {
  std::string decision;
  std::vector<int> out_ports;  // sorted
  std::string summary;         // "in port 1, 02:..:02 -> 02:..:01"
};

using decisions_map = std::map<long, frame_decision>;

frame_decision read_entry(const nlohmann::json& f) {
  frame_decision d;
  d.decision = f.value("decision", std::string("(none)"));
  if (f.contains("out_ports") && f["out_ports"].is_array()) {
    for (const auto& p : f["out_ports"]) {
      if (p.is_number_integer()) d.out_ports.push_back(p.get<int>());
    }
  }
  std::sort(d.out_ports.begin(), d.out_ports.end());
  if (f.contains("in_port") && f["in_port"].is_number() && f["src"].is_string() && f["dst"].is_string()) {
    d.summary = fmt::format("in port {}, {} -> {}", f["in_port"].get<int>(), f["src"].get<std::string>(),
                            f["dst"].get<std::string>());
  }
  return d;
}

// Throws std::runtime_error with a one-line reason.
decisions_map read_decisions(const nlohmann::json& doc) {
  const auto& frames = doc.is_object() && doc.contains("frames") ? doc["frames"] : doc;
  if (!frames.is_array()) throw std::runtime_error("expected a JSON array of frames or {\"frames\": [...]}");
  decisions_map out;
  for (const auto& f : frames) {
    if (!f.is_object() || !f.contains("frame") || !f["frame"].is_number_integer()) {
      throw std::runtime_error("an entry has no integer \"frame\": " + f.dump().substr(0, 80));
    }
    out[f["frame"].get<long>()] = read_entry(f);
  }
  return out;
}

std::string text(const frame_decision& d) {
  return fmt::format("{} {}", d.decision, d.out_ports);
}

// The student's declared policy ({"switch": {...}} in the decisions document) as lab-switch
// flags; throws std::runtime_error naming what is wrong.
std::vector<std::string> declared_args(const nlohmann::json& doc) {
  std::vector<std::string> args;
  if (!doc.is_object() || !doc.contains("switch")) return args;
  const auto& s = doc["switch"];
  if (!s.is_object()) throw std::runtime_error("\"switch\" must be an object: {\"policy\": \"stop-learning\", ...}");
  for (const auto& [key, value] : s.items()) {
    if (key == "policy") {
      if (!value.is_string() || (value != "evict-fair" && value != "stop-learning"))
        throw std::runtime_error("\"switch\".\"policy\" must be \"evict-fair\" or \"stop-learning\"");
      args.insert(args.end(), {"--policy", value.get<std::string>()});
    } else if (key == "static") {
      if (!value.is_array()) throw std::runtime_error("\"switch\".\"static\" must be an array of \"MAC=PORT\"");
      for (const auto& e : value) {
        if (!e.is_string()) throw std::runtime_error("\"switch\".\"static\" entries are strings \"MAC=PORT[@VLAN]\"");
        args.insert(args.end(), {"--static", e.get<std::string>()});
      }
    } else if (key == "hairpin") {
      if (!value.is_array()) throw std::runtime_error("\"switch\".\"hairpin\" must be an array of port numbers");
      for (const auto& p : value) {
        if (!p.is_number_unsigned()) throw std::runtime_error("\"switch\".\"hairpin\" entries are port numbers");
        args.insert(args.end(), {"--hairpin", std::to_string(p.get<unsigned>())});
      }
    } else {
      throw std::runtime_error("\"switch\" declares \"" + key + "\"; only policy, static and hairpin can be declared");
    }
  }
  return args;
}

struct kind_rule {
  const char* kind;
  const char* name;
  const char* rule;
  const char* description;
  double weight;
};

// Each rule names the clause of the standard that makes the decision right: IEEE 802.1D-2004 for
// the bridge (§7.7 forwarding process, §7.8 learning process, §7.9 filtering database, §7.12.6
// reserved addresses) and IEEE 802.1Q-2018 for what VLANs add (§8.6.2 ingress filtering).
constexpr kind_rule kind_rules[] = {
    {"drop", "drop_step2",
     "IEEE 802.1D-2004 §7.12.6 (reserved addresses are not relayed), IEEE 802.1Q-2018 §8.6.2 (ingress filtering); "
     "learning switch step 2 (link-local, VLAN, malformed)",
     "frames the switch must drop are dropped", 1},
    {"flood", "flood_step3",
     "IEEE 802.1D-2004 §7.7.2, §7.9 (no filtering entry for the destination: every other port); learning switch step 3",
     "broadcast, multicast and unknown unicast go out of every other port", 3},
    {"filter", "filter_step4",
     "IEEE 802.1D-2004 §7.7.1 (never sent back out of the port it came in on); learning switch step 4",
     "a frame whose destination is on its ingress port is filtered", 2},
    {"forward", "forward_step5",
     "IEEE 802.1D-2004 §7.8 (learning process), §7.9 (filtering database); learning switch steps 1 and 5",
     "a frame to a learned destination goes out of that port only", 3},
};

check_result kind_check(const kind_rule& k, const decisions_map& reference, const decisions_map& student,
                        const std::string& capture) {
  auto c = make_check(k.name, k.rule, k.description, k.weight);
  std::size_t total = 0;
  std::size_t right = 0;
  std::vector<std::string> sent;
  std::vector<std::string> got;
  std::vector<std::string> want;
  for (const auto& [frame, ref] : reference) {
    if (ref.decision != k.kind) continue;
    ++total;
    const auto it = student.find(frame);
    if (it != student.end() && it->second.decision == ref.decision && it->second.out_ports == ref.out_ports) {
      ++right;
    } else if (sent.size() < 5) {
      sent.push_back(fmt::format("frame {} ({})", frame, ref.summary));
      got.push_back(fmt::format("frame {}: {}", frame, it == student.end() ? "no decision" : text(it->second)));
      want.push_back(fmt::format("frame {}: {}", frame, text(ref)));
    }
  }
  c.passed = right == total;
  if (!c.passed) {
    c.partial = k.weight * static_cast<double>(right) / static_cast<double>(total);
    c.reason = fmt::format("{} of {} {} frames decided right", right, total, k.kind);
    c.sent = fmt::format("{}: {}{}", capture, fmt::join(sent, "; "), total - right > sent.size() ? "; ..." : "");
    c.received = fmt::format("{}", fmt::join(got, "; "));
    c.expected = fmt::format("{}", fmt::join(want, "; "));
  }
  return c;
}

check_result complete_check(const decisions_map& reference, const decisions_map& student, const std::string& error,
                            const std::string& file) {
  auto c = make_check("decisions_complete", "lab requirement: one decision per captured frame, numbered from 1",
                      "the decisions file is JSON and decides exactly the capture's frames", 1);
  std::vector<long> missing;
  std::vector<long> extra;
  for (const auto& [f, d] : reference) {
    if (!student.contains(f)) missing.push_back(f);
  }
  for (const auto& [f, d] : student) {
    if (!reference.contains(f)) extra.push_back(f);
  }
  c.passed = error.empty() && missing.empty() && extra.empty();
  if (c.passed) return c;
  c.reason = !error.empty()
                 ? file + ": " + error
                 : fmt::format("{} frames missing, {} frames not in the capture", missing.size(), extra.size());
  c.sent = file;
  c.received =
      fmt::format("{} decisions; missing frames {}; unknown frames {}", student.size(),
                  std::vector<long>(missing.begin(), missing.begin() + std::min<std::size_t>(missing.size(), 10)),
                  std::vector<long>(extra.begin(), extra.begin() + std::min<std::size_t>(extra.size(), 10)));
  c.expected = fmt::format("decisions for frames 1..{}", reference.size());
  return c;
}

}  // namespace switch_suite_local

suite_result run_switch_suite(const switch_options& o) {
  using namespace switch_suite_local;
  decisions_map student;
  std::vector<std::string> declared;
  std::string error;
  try {
    std::ifstream in(o.decisions);
    if (!in) throw std::runtime_error("cannot open the file");
    std::stringstream s;
    s << in.rdbuf();
    const auto doc = nlohmann::json::parse(s.str());
    student = read_decisions(doc);
    if (!o.policy_fixed) declared = declared_args(doc);
  } catch (const std::exception& e) {
    error = e.what();
    student.clear();
    declared.clear();
  }
  const auto replay = [&](const std::vector<std::string>& extra) {
    std::vector<std::string> argv{o.lab_switch, "replay", o.capture, "--json"};
    argv.insert(argv.end(), o.switch_args.begin(), o.switch_args.end());
    argv.insert(argv.end(), extra.begin(), extra.end());
    return netlib::app::run(argv);
  };
  auto ref = replay(declared);
  if (ref.exit_code == 2 && !declared.empty()) {  // the reference switch refused the student's declaration
    error = "the declared \"switch\" is not valid: " + ref.err.substr(0, ref.err.find('\n'));
    student.clear();
    declared.clear();
    ref = replay({});
  }
  if (ref.exit_code != 0) {
    throw netlib::app::failure(
        fmt::format("the reference switch failed on {}: {}", o.capture,
                    ref.err.empty() ? "exit " + std::to_string(ref.exit_code) : ref.err.substr(0, ref.err.find('\n'))));
  }
  const auto reference = read_decisions(nlohmann::json::parse(ref.out));
  std::string target = o.capture;
  if (!declared.empty()) {
    std::string text;
    for (std::size_t i = 0; i + 1 < declared.size(); i += 2)
      text += (text.empty() ? "" : " ") + declared[i] + " " + declared[i + 1];
    target += " (graded for the student's declared " + text + ")";
  }
  suite_result result{"switch", target, {complete_check(reference, student, error, o.decisions)}};
  for (const auto& k : kind_rules) {
    const bool present =
        std::any_of(reference.begin(), reference.end(), [&](const auto& f) { return f.second.decision == k.kind; });
    if (present) result.checks.push_back(kind_check(k, reference, student, o.capture));
  }
  return result;
}

}  // namespace netlab::grade
