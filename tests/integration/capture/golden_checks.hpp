#pragma once
// Golden tests made by `netlab-record --golden NAME`: NAME.facts.json holds "checks", each
// {"argv": [binary, args...], "expect": {...}}; "{capture}" stands for the capture's path in argv
// and in the expected output. Running a check runs the binary from the build and compares its
// JSON output with "expect", giving one readable line per difference (empty: all agree).
#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "support/process.hpp"

namespace netlab::test {

inline void replace_strings(nlohmann::json& doc, const std::string& from, const std::string& to) {
  if (doc.is_string() && doc.get<std::string>() == from) doc = to;
  if (doc.is_structured()) {
    for (auto& item : doc) replace_strings(item, from, to);
  }
}

// Differences between `expected` and `actual` as "path: expected X, got Y" lines. Numbers agree
// when equal to 1e-9 relative (the timing keys are computed from the capture's timestamps).
inline void json_diff(const nlohmann::json& expected, const nlohmann::json& actual, const std::string& path,
                      std::vector<std::string>& out) {
  if (expected.is_number() && actual.is_number()) {
    const double e = expected.get<double>(), a = actual.get<double>();
    if (std::fabs(e - a) > 1e-9 * std::max(1.0, std::fabs(e)))
      out.push_back(path + ": expected " + expected.dump() + ", got " + actual.dump());
    return;
  }
  if (expected.type() != actual.type() || (!expected.is_structured() && expected != actual)) {
    out.push_back(path + ": expected " + expected.dump().substr(0, 200) + ", got " + actual.dump().substr(0, 200));
    return;
  }
  if (expected.is_object()) {
    for (const auto& [key, value] : expected.items()) {
      if (!actual.contains(key))
        out.push_back(path + "." + key + ": missing");
      else
        json_diff(value, actual.at(key), path + "." + key, out);
    }
    for (const auto& [key, value] : actual.items()) {
      if (!expected.contains(key))
        out.push_back(path + "." + key + ": not expected (" + value.dump().substr(0, 80) + ")");
    }
  } else if (expected.is_array()) {
    if (expected.size() != actual.size())
      out.push_back(path + ": " + std::to_string(expected.size()) + " items expected, got " +
                    std::to_string(actual.size()));
    for (std::size_t i = 0; i < std::min(expected.size(), actual.size()); ++i)
      json_diff(expected[i], actual[i], path + "[" + std::to_string(i) + "]", out);
  }
}

// Runs one check of a facts file (the capture given by its path); returns the differences, or
// one line saying why the analyzer could not run.
inline std::vector<std::string> run_golden_check(const nlohmann::json& check, const std::filesystem::path& capture) {
  std::vector<std::string> argv;
  for (const auto& a : check.at("argv")) argv.push_back(a == "{capture}" ? capture.string() : a.get<std::string>());
  const std::string name = argv.front();
  argv.front() = bin_path(name);
  const auto r = run(argv);
  auto doc = nlohmann::json::parse(r.out, nullptr, false);
  if (r.exit_code != 0 || doc.is_discarded())
    return {name + " exited with " + std::to_string(r.exit_code) + ": " + r.err};
  replace_strings(doc, capture.string(), "{capture}");
  std::vector<std::string> diffs;
  json_diff(check.at("expect"), doc, name, diffs);
  return diffs;
}

inline nlohmann::json load_json(const std::filesystem::path& p) {
  std::ifstream in(p);
  return nlohmann::json::parse(in);
}

}  // namespace netlab::test
