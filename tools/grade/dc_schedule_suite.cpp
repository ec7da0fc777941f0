// Grading a ring all-reduce schedule. The reference is `lab-dc collective ARGS --schedulers S
// --json --paths` (the netlib::dc model the lab uses); the student's file is JSON:
//   {"jobs": [{"name": "A", "allreduce_s": 0.358, "algbw_Bps": 7.1e8, "busbw_Bps": 1.25e9,
//              "step_end_s": [0.0256, 0.0512, ...]}, ...],
//    "flows": [{"flow": 0, "path": ["h1", "leaf1", "spine2", "leaf2", "h3"]}, ...],
//    "collisions": [{"from": "leaf1", "to": "spine1"}, ...]}
// flows numbered as `lab-dc collective ARGS --list-flows` lists them; allreduce_s is the mean over
// iterations, step_end_s every step of every iteration. Checks: the file answers every job and
// flow, then per graded kind one check scored by the fraction right; a time or bandwidth is right
// within the tolerance (1% unless given), relative to the reference.
#include "dc_schedule_suite.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "netlib/app/process.hpp"
#include "netlib/app/program.hpp"

namespace netlab::grade {
namespace {

using json = nlohmann::json;

struct job_answer {
  std::optional<double> allreduce_s, algbw, busbw;
  std::vector<double> steps;
  bool steps_given = false;
};

struct schedule {
  std::map<std::string, job_answer> jobs;
  std::map<long, std::vector<std::string>> paths;
  std::set<std::pair<std::string, std::string>> collisions;
  bool collisions_given = false;
};

std::optional<double> number(const json& o, const char* key) {
  if (o.is_object() && o.contains(key) && o[key].is_number()) return o[key].get<double>();
  return std::nullopt;
}

schedule read_student(const json& doc) {
  if (!doc.is_object()) throw std::runtime_error("expected a JSON object with \"jobs\", \"flows\" and \"collisions\"");
  schedule s;
  if (doc.contains("jobs")) {
    if (!doc["jobs"].is_array()) throw std::runtime_error("\"jobs\" must be a list");
    for (const auto& j : doc["jobs"]) {
      if (!j.is_object() || !j.contains("name") || !j["name"].is_string()) {
        throw std::runtime_error("a job has no \"name\": " + j.dump().substr(0, 80));
      }
      job_answer a;
      a.allreduce_s = number(j, "allreduce_s");
      a.algbw = number(j, "algbw_Bps");
      a.busbw = number(j, "busbw_Bps");
      if (j.contains("step_end_s") && j["step_end_s"].is_array()) {
        a.steps_given = true;
        for (const auto& v : j["step_end_s"]) a.steps.push_back(v.is_number() ? v.get<double>() : NAN);
      }
      s.jobs[j["name"].get<std::string>()] = std::move(a);
    }
  }
  if (doc.contains("flows") && doc["flows"].is_array()) {
    for (const auto& f : doc["flows"]) {
      if (!f.is_object() || !f.contains("flow") || !f["flow"].is_number_integer()) {
        throw std::runtime_error("a flow has no integer \"flow\": " + f.dump().substr(0, 80));
      }
      std::vector<std::string> path;
      if (f.contains("path") && f["path"].is_array()) {
        for (const auto& n : f["path"]) {
          if (n.is_string()) path.push_back(n.get<std::string>());
        }
      }
      s.paths[f["flow"].get<long>()] = std::move(path);
    }
  }
  if (doc.contains("collisions") && doc["collisions"].is_array()) {
    s.collisions_given = true;
    for (const auto& c : doc["collisions"]) {
      if (c.is_object() && c.contains("from") && c.contains("to") && c["from"].is_string() && c["to"].is_string()) {
        s.collisions.emplace(c["from"].get<std::string>(), c["to"].get<std::string>());
      }
    }
  }
  return s;
}

bool close_to(std::optional<double> got, double want, double tolerance) {
  return got && std::isfinite(*got) && std::abs(*got - want) <= tolerance * std::max(std::abs(want), 1e-9);
}

// Passed when everything is right, else partial credit in proportion, with up to five examples.
void score(check_result& c, std::size_t right, std::size_t total, const std::string& what,
           const std::vector<std::string>& got, const std::vector<std::string>& want, const std::string& file) {
  c.passed = total > 0 && right == total;
  if (c.passed) return;
  c.partial = total ? c.weight * static_cast<double>(right) / static_cast<double>(total) : 0.0;
  c.reason = total ? fmt::format("{} of {} {} right", right, total, what) : fmt::format("no {} to grade", what);
  c.sent = file;
  c.received = fmt::format("{}", fmt::join(got, "; "));
  c.expected = fmt::format("{}", fmt::join(want, "; "));
}

std::string route(const std::vector<std::string>& p) {
  return p.empty() ? "no path" : fmt::format("{}", fmt::join(p, " > "));
}
std::string seconds(double s) {
  return fmt::format("{:.6g} s", s);
}

}  // namespace

suite_result run_dc_schedule_suite(const dc_schedule_options& o) {
  std::vector<std::string> argv{o.lab_dc, "collective"};
  argv.insert(argv.end(), o.collective_args.begin(), o.collective_args.end());
  argv.insert(argv.end(), {"--schedulers", o.scheduler, "--json", "--paths"});
  const auto ref = netlib::app::run(argv);
  if (ref.exit_code != 0) {
    throw netlib::app::failure(
        fmt::format("the reference model failed: {}",
                    ref.err.empty() ? "exit " + std::to_string(ref.exit_code) : ref.err.substr(0, ref.err.find('\n'))));
  }
  const auto doc = json::parse(ref.out);
  const auto& sched = doc["schedulers"][0];
  schedule student;
  std::string error;
  try {
    std::ifstream in(o.answers);
    if (!in) throw std::runtime_error("cannot open the file");
    std::stringstream text;
    text << in.rdbuf();
    student = read_student(json::parse(text.str()));
  } catch (const std::exception& e) {
    error = e.what();
    student = {};
  }
  const auto wants = [&](const char* kind) {
    return o.grade.empty() || std::find(o.grade.begin(), o.grade.end(), kind) != o.grade.end();
  };
  suite_result result{"dc", o.answers, {}};
  {
    auto c = make_check("schedule_complete",
                        "lab requirement: one answer per job and per flow, numbered as lab-dc collective --list-flows",
                        "the answers file is JSON and answers every job and every flow, and nothing else", 1);
    std::vector<std::string> missing, extra;
    std::set<std::string> names;
    for (const auto& j : sched["jobs"]) {
      names.insert(j["name"].get<std::string>());
      if (!student.jobs.contains(j["name"].get<std::string>()))
        missing.push_back("job " + j["name"].get<std::string>());
    }
    for (const auto& [name, a] : student.jobs) {
      if (!names.contains(name)) extra.push_back("job " + name);
    }
    if (wants("path")) {
      for (const auto& f : doc["flows"]) {
        if (!student.paths.contains(f["flow"].get<long>()))
          missing.push_back(fmt::format("flow {}", f["flow"].get<long>()));
      }
      for (const auto& [f, p] : student.paths) {
        if (f < 0 || static_cast<std::size_t>(f) >= doc["flows"].size()) extra.push_back(fmt::format("flow {}", f));
      }
    }
    if (wants("collisions") && error.empty() && !student.collisions_given) missing.push_back("\"collisions\"");
    c.passed = error.empty() && missing.empty() && extra.empty();
    if (!c.passed) {
      c.reason = !error.empty() ? o.answers + ": " + error
                                : fmt::format("{} missing, {} not in the schedule", missing.size(), extra.size());
      c.sent = o.answers;
      missing.resize(std::min<std::size_t>(missing.size(), 10));
      extra.resize(std::min<std::size_t>(extra.size(), 10));
      c.received = fmt::format("missing: {}; unknown: {}", fmt::join(missing, ", "), fmt::join(extra, ", "));
      c.expected = fmt::format("{} jobs and {} flows", sched["jobs"].size(), doc["flows"].size());
    }
    result.checks.push_back(std::move(c));
  }
  if (wants("path")) {
    auto c = make_check("ring_paths",
                        "lab requirement: each channel's path by the fabric's ECMP hash (docs/labs/datacenter.md)",
                        "every flow of every ring edge, host to host, through the switches' choices", 2);
    std::size_t right = 0;
    std::vector<std::string> got, want;
    for (const auto& f : doc["flows"]) {
      const long id = f["flow"].get<long>();
      const auto ref_path = f["path"].get<std::vector<std::string>>();
      const auto it = student.paths.find(id);
      if (it != student.paths.end() && it->second == ref_path) {
        ++right;
      } else if (got.size() < 5) {
        got.push_back(fmt::format("flow {}: {}", id, it == student.paths.end() ? "no path" : route(it->second)));
        want.push_back(fmt::format("flow {}: {}", id, route(ref_path)));
      }
    }
    score(c, right, doc["flows"].size(), "paths", got, want, o.answers);
    result.checks.push_back(std::move(c));
  }
  if (wants("collisions")) {
    auto c = make_check("colliding_links", "lab requirement: a fabric link where ring edges want more than it has",
                        "the set of colliding link directions (from, to)", 2);
    std::set<std::pair<std::string, std::string>> ref_set;
    for (const auto& x : sched["collisions"]) ref_set.emplace(x["from"].get<std::string>(), x["to"].get<std::string>());
    std::set<std::pair<std::string, std::string>> all = ref_set;
    all.insert(student.collisions.begin(), student.collisions.end());
    std::size_t right = 0;
    std::vector<std::string> got, want;
    for (const auto& l : all) {
      const bool in_ref = ref_set.contains(l), in_student = student.collisions.contains(l);
      if (in_ref && in_student) {
        ++right;
      } else if (got.size() < 5) {
        got.push_back(fmt::format("{}->{}: {}", l.first, l.second, in_student ? "colliding" : "not listed"));
        want.push_back(fmt::format("{}->{}: {}", l.first, l.second, in_ref ? "colliding" : "no collision"));
      }
    }
    if (all.empty()) {
      c.passed = student.collisions_given;
      if (!c.passed) {
        c.partial = 0.0;
        c.reason = "no \"collisions\" list (an empty list when no link collides)";
      }
    } else {
      score(c, right, all.size(), "link directions (of those listed by either)", got, want, o.answers);
    }
    result.checks.push_back(std::move(c));
  }
  if (wants("steps")) {
    auto c =
        make_check("step_times", "lab requirement: a step ends when its slowest flow ends; links shared max-min fair",
                   fmt::format("every step's end time, per job, within {:g}%", 100 * o.tolerance), 2);
    std::size_t right = 0, total = 0;
    std::vector<std::string> got, want;
    for (const auto& j : sched["jobs"]) {
      const auto name = j["name"].get<std::string>();
      const auto it = student.jobs.find(name);
      const auto& steps = j["step_end_s"];
      for (std::size_t i = 0; i < steps.size(); ++i) {
        ++total;
        const double w = steps[i].get<double>();
        const std::optional<double> g = it != student.jobs.end() && i < it->second.steps.size()
                                            ? std::optional<double>(it->second.steps[i])
                                            : std::nullopt;
        if (close_to(g, w, o.tolerance)) {
          ++right;
        } else if (got.size() < 5) {
          got.push_back(fmt::format("{} step {}: {}", name, i + 1, g ? seconds(*g) : "none"));
          want.push_back(fmt::format("{} step {}: {}", name, i + 1, seconds(w)));
        }
      }
    }
    score(c, right, total, "step times", got, want, o.answers);
    result.checks.push_back(std::move(c));
  }
  if (wants("bandwidth")) {
    auto c = make_check("bus_bandwidth", "nccl-tests: algbw = B/t, busbw = algbw·2(N-1)/N",
                        fmt::format("each job's all-reduce time, algbw and busbw within {:g}%", 100 * o.tolerance), 3);
    std::size_t right = 0, total = 0;
    std::vector<std::string> got, want;
    for (const auto& j : sched["jobs"]) {
      const auto name = j["name"].get<std::string>();
      const auto it = student.jobs.find(name);
      const job_answer none;
      const auto& a = it != student.jobs.end() ? it->second : none;
      const std::tuple<const char*, std::optional<double>, double> values[] = {
          {"allreduce_s", a.allreduce_s, j["mean_allreduce_s"].get<double>()},
          {"algbw_Bps", a.algbw, j["algbw_Bps"].get<double>()},
          {"busbw_Bps", a.busbw, j["busbw_Bps"].get<double>()}};
      for (const auto& [key, g, w] : values) {
        ++total;
        if (close_to(g, w, o.tolerance)) {
          ++right;
        } else if (got.size() < 5) {
          got.push_back(fmt::format("{} {}: {}", name, key, g ? fmt::format("{:.6g}", *g) : "none"));
          want.push_back(fmt::format("{} {}: {:.6g}", name, key, w));
        }
      }
    }
    score(c, right, total, "values", got, want, o.answers);
    result.checks.push_back(std::move(c));
  }
  return result;
}

}  // namespace netlab::grade
