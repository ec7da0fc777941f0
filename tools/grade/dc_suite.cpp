// Grading ECMP placements. The reference is `lab-dc ecmp ARGS --json --paths` (the netlib::dc
// model the lab uses); the student's file is JSON:
//   {"flows": [{"flow": 0, "hash": 41867, "path": ["h1", "leaf1", "spine2", "leaf3", "h5"]}, ...],
//    "links": [{"a": "leaf1", "b": "spine1", "a_to_b": 20000000, "b_to_a": 0}, ...]}
// where `flow` numbers the flows as `lab-dc ecmp ARGS --list-flows` lists them, `hash` is the
// value the first switch with a choice computes, and `links` gives bytes per link direction.
// Checks: the file covers every flow (one stray or missing flow costs its share, not the check),
// then per graded kind one check scored by the fraction right, over what ECMP decides only: the
// hashes and paths of flows for which some switch chose, the bytes of links between switches (a
// flow within one switch, and a host's own link, are right without any hashing). A failed hash
// check shows the key bytes and says when every wrong hash is off by one XOR constant (a CRC with
// the wrong initial value).
#include "dc_suite.hpp"

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

namespace dc_suite_local {

struct flow_answer {
  std::optional<std::uint64_t> hash;
  std::vector<std::string> path;
  std::string first_switch;  // reference: the first switch with a choice
  std::string key;           // reference: the bytes that switch hashed, in hex
  std::size_t choices = 0;   // reference: switches on the path that chose among next hops
};

struct answers {
  std::map<long, flow_answer> flows;
  std::map<std::string, double> links;  // "a>b" -> bytes
};

std::string route(const std::vector<std::string>& path) {
  return fmt::format("{}", fmt::join(path, " > "));
}

// Bytes per link direction: [{"a": A, "b": B, "a_to_b": N or {"bytes": N}, "b_to_a": ...}].
std::map<std::string, double> read_links(const nlohmann::json& links) {
  std::map<std::string, double> out;
  if (!links.is_array()) return out;
  for (const auto& l : links) {
    if (!l.is_object() || !l.contains("a") || !l.contains("b") || !l["a"].is_string() || !l["b"].is_string()) continue;
    const auto a_name = l["a"].get<std::string>(), b_name = l["b"].get<std::string>();
    const auto bytes = [&](const char* dir) -> std::optional<double> {
      if (!l.contains(dir)) return std::nullopt;
      const auto& v = l[dir];
      if (v.is_number()) return v.get<double>();
      if (v.is_object() && v.contains("bytes") && v["bytes"].is_number()) return v["bytes"].get<double>();
      return std::nullopt;
    };
    if (const auto v = bytes("a_to_b")) out[a_name + ">" + b_name] = *v;
    if (const auto v = bytes("b_to_a")) out[b_name + ">" + a_name] = *v;
  }
  return out;
}

answers read_answers(const nlohmann::json& doc, bool reference) {
  if (!doc.is_object()) throw std::runtime_error("expected a JSON object with \"flows\" (and \"links\")");
  answers a;
  const auto& flows =
      doc.contains(reference ? "paths" : "flows") ? doc[reference ? "paths" : "flows"] : nlohmann::json();
  if (!flows.is_array()) throw std::runtime_error("expected \"flows\": [{\"flow\": 0, \"path\": [...]}, ...]");
  for (const auto& f : flows) {
    if (!f.is_object() || !f.contains("flow") || !f["flow"].is_number_integer()) {
      throw std::runtime_error("a flow has no integer \"flow\": " + f.dump().substr(0, 80));
    }
    flow_answer x;
    if (reference) {
      x.choices = f["hops"].size();
      if (!f["hops"].empty()) {
        const auto& hop = f["hops"][0];
        x.hash = hop["hash"].get<std::uint64_t>();
        x.first_switch = hop["switch"].get<std::string>();
        if (hop.contains("key")) x.key = hop["key"].get<std::string>();
      }
    } else if (f.contains("hash") && f["hash"].is_number_unsigned()) {
      x.hash = f["hash"].get<std::uint64_t>();
    }
    if (f.contains("path") && f["path"].is_array()) {
      for (const auto& n : f["path"]) {
        if (n.is_string()) x.path.push_back(n.get<std::string>());
      }
    }
    a.flows[f["flow"].get<long>()] = std::move(x);
  }
  if (doc.contains("links")) a.links = read_links(doc["links"]);
  return a;
}

check_result scored(check_result c, std::size_t right, std::size_t total, const std::string& what,
                    const std::vector<std::string>& sent, const std::vector<std::string>& got,
                    const std::vector<std::string>& want, const std::string& file) {
  c.passed = total > 0 && right == total;
  if (c.passed) return c;
  c.partial = total ? c.weight * static_cast<double>(right) / static_cast<double>(total) : 0.0;
  c.reason = total ? fmt::format("{} of {} {} right", right, total, what) : fmt::format("no {} to grade", what);
  c.sent = fmt::format("{}: {}{}", file, fmt::join(sent, "; "), total - right > sent.size() ? "; ..." : "");
  c.received = fmt::format("{}", fmt::join(got, "; "));
  c.expected = fmt::format("{}", fmt::join(want, "; "));
  return c;
}

}  // namespace dc_suite_local

suite_result run_dc_suite(const dc_options& o) {
  using namespace dc_suite_local;
  std::vector<std::string> argv{o.lab_dc, "ecmp"};
  argv.insert(argv.end(), o.ecmp_args.begin(), o.ecmp_args.end());
  argv.insert(argv.end(), {"--json", "--paths"});
  const auto ref = netlib::app::run(argv);
  if (ref.exit_code != 0) {
    throw netlib::app::failure(
        fmt::format("the reference model failed: {}",
                    ref.err.empty() ? "exit " + std::to_string(ref.exit_code) : ref.err.substr(0, ref.err.find('\n'))));
  }
  const auto ref_doc = nlohmann::json::parse(ref.out);
  const auto reference = read_answers(ref_doc, true);
  answers student;
  std::string error;
  try {
    std::ifstream in(o.answers);
    if (!in) throw std::runtime_error("cannot open the file");
    std::stringstream s;
    s << in.rdbuf();
    student = read_answers(nlohmann::json::parse(s.str()), false);
  } catch (const std::exception& e) {
    error = e.what();
    student = {};
  }
  suite_result result{"dc", o.answers, {}};
  {
    auto c =
        make_check("answers_complete", "lab requirement: one answer per flow, numbered as lab-dc ecmp --list-flows",
                   "the answers file is JSON and answers exactly the reference's flows", 1);
    std::vector<long> missing, extra;
    for (const auto& [f, x] : reference.flows) {
      if (!student.flows.contains(f)) missing.push_back(f);
    }
    for (const auto& [f, x] : student.flows) {
      if (!reference.flows.contains(f)) extra.push_back(f);
    }
    c.passed = error.empty() && missing.empty() && extra.empty();
    if (!c.passed) {
      // Credit for the flows answered, less one flow's worth for each flow not in the set: one
      // stray flow costs 1/N, not everything.
      const auto total = static_cast<double>(reference.flows.size());
      const double answered = total - static_cast<double>(missing.size()) - static_cast<double>(extra.size());
      c.partial = error.empty() && total > 0 ? c.weight * std::max(0.0, answered) / total : 0.0;
      c.reason = !error.empty()
                     ? o.answers + ": " + error
                     : fmt::format("{} flows missing, {} flows not in the set", missing.size(), extra.size());
      c.sent = o.answers;
      missing.resize(std::min<std::size_t>(missing.size(), 10));
      extra.resize(std::min<std::size_t>(extra.size(), 10));
      c.received = fmt::format("{} answers; missing flows {}; unknown flows {}", student.flows.size(), missing, extra);
      c.expected = fmt::format("answers for flows 0..{}", reference.flows.size() - 1);
    }
    result.checks.push_back(std::move(c));
  }
  const auto wants = [&](const char* kind) { return std::find(o.grade.begin(), o.grade.end(), kind) != o.grade.end(); };
  if (wants("hash")) {
    std::size_t right = 0, total = 0;
    std::vector<std::string> sent, got, want;
    std::map<std::string, std::set<std::uint64_t>> differences;  // first switch -> student XOR reference
    std::size_t wrong_values = 0;
    for (const auto& [f, x] : reference.flows) {
      if (!x.hash) continue;  // both ends on one switch: no choice
      ++total;
      const auto it = student.flows.find(f);
      const bool given = it != student.flows.end() && it->second.hash;
      if (given && it->second.hash == x.hash) {
        ++right;
        continue;
      }
      if (given) {
        differences[x.first_switch].insert(*it->second.hash ^ *x.hash);
        ++wrong_values;
      }
      if (sent.size() < 5) {
        sent.push_back(fmt::format("flow {}{}", f, x.key.empty() ? "" : " key " + x.key));
        got.push_back(fmt::format(
            "flow {}: {}", f,
            given ? fmt::format("{} (0x{:x})", *it->second.hash, *it->second.hash) : std::string("no hash")));
        want.push_back(fmt::format("flow {}: {} (0x{:x}) at {}", f, *x.hash, *x.hash, x.first_switch));
      }
    }
    auto c = scored(make_check("first_hop_hash", "lab requirement: the hash as docs/labs/datacenter.md defines it",
                               "each flow's hash at the first switch that has a choice", 2),
                    right, total, "hashes", sent, got, want, o.answers);
    // The clue a CRC or XOR hash leaves: a wrong initial value (or seed) changes every result of
    // one key length by the same XOR constant.
    if (!c.passed && wrong_values >= 2) {
      bool constant = true;
      std::set<std::uint64_t> all;
      std::vector<std::string> per_switch;
      for (const auto& [sw, d] : differences) {
        constant = constant && d.size() == 1;
        all.insert(d.begin(), d.end());
        if (d.size() == 1) per_switch.push_back(fmt::format("{} 0x{:x}", sw, *d.begin()));
      }
      if (constant && all.size() == 1) {
        c.reason += fmt::format(
            "; every wrong hash differs from the right one by the same XOR, 0x{:x}: for a CRC or "
            "XOR hash that is the mark of a wrong initial value or seed (CRC-16 starts at 0xFFFF "
            "XOR the seed, CRC-32 at 0xFFFFFFFF XOR the seed)",
            *all.begin());
      } else if (constant) {
        c.reason += fmt::format(
            "; the wrong hashes differ from the right ones by one XOR constant per switch ({}): "
            "the mark of a wrong initial value or a wrong seed per switch",
            fmt::join(per_switch, ", "));
      }
    }
    result.checks.push_back(std::move(c));
  }
  if (wants("path")) {
    // Only flows for which some switch chose: a flow within one switch has one path, right without
    // any hashing.
    std::size_t right = 0, total = 0;
    std::vector<std::string> sent, got, want;
    for (const auto& [f, x] : reference.flows) {
      if (x.choices == 0) continue;
      ++total;
      const auto it = student.flows.find(f);
      if (it != student.flows.end() && it->second.path == x.path) {
        ++right;
      } else if (sent.size() < 5) {
        sent.push_back(fmt::format("flow {}", f));
        got.push_back(fmt::format(
            "flow {}: {}", f,
            it == student.flows.end() || it->second.path.empty() ? std::string("no path") : route(it->second.path)));
        want.push_back(fmt::format("flow {}: {}", f, route(x.path)));
      }
    }
    result.checks.push_back(
        scored(make_check("ecmp_paths", "lab requirement: next hop = hash mod n (hash-threshold for linux)",
                          "each flow's path, host to host, through the switches' choices", 3),
               right, total, "paths of flows with a choice", sent, got, want, o.answers));
  }
  if (wants("loads")) {
    // Only links between switches: a host's link carries its flows whatever the hash.
    nlohmann::json fabric_links = nlohmann::json::array();
    for (const auto& l : ref_doc["links"]) {
      if (l.value("tier", 0) >= 1) fabric_links.push_back(l);
    }
    const auto ref_links = read_links(fabric_links);
    std::size_t right = 0;
    std::vector<std::string> sent, got, want;
    for (const auto& [k, bytes] : ref_links) {
      const auto it = student.links.find(k);
      if (it != student.links.end() && std::abs(it->second - bytes) <= 0.5) {
        ++right;
      } else if (sent.size() < 5) {
        const auto name = k.substr(0, k.find('>')) + "->" + k.substr(k.find('>') + 1);
        sent.push_back(name);
        got.push_back(fmt::format(
            "{}: {}", name, it == student.links.end() ? std::string("missing") : fmt::format("{:.0f}", it->second)));
        want.push_back(fmt::format("{}: {:.0f}", name, bytes));
      }
    }
    result.checks.push_back(scored(make_check("link_bytes", "lab requirement: bytes per link direction from the paths",
                                              "every link direction between switches carries the bytes of the flows "
                                              "routed over it",
                                              2),
                                   right, ref_links.size(), "link directions between switches", sent, got, want,
                                   o.answers));
  }
  return result;
}

}  // namespace netlab::grade
