#pragma once
// Shared pieces of the netlab-grade tests: a temporary site, running netlab-grade, and reading the
// failed check names out of its --json document.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "support/peers.hpp"
#include "support/process.hpp"

namespace netlab::test {

// A document root with index.html (39 bytes), removed at the end.
struct grade_site {
  std::string dir;
  grade_site() {
    std::string pattern = (std::filesystem::temp_directory_path() / "netlab-grade-XXXXXX").string();
    dir = ::mkdtemp(pattern.data());
    std::ofstream(dir + "/index.html") << "<html><body>hello netlab</body></html>\n";
  }
  ~grade_site() { std::filesystem::remove_all(dir); }
  grade_site(const grade_site&) = delete;
  grade_site& operator=(const grade_site&) = delete;
};

struct grade_run {
  int exit_code = -1;
  nlohmann::json doc;
  std::string err;
  // failed check name -> reason
  [[nodiscard]] std::map<std::string, std::string> failed() const {
    std::map<std::string, std::string> out;
    for (const auto& c : doc["checks"]) {
      if (!c["passed"].get<bool>()) out[c["name"].get<std::string>()] = c["reason"].get<std::string>();
    }
    return out;
  }
  [[nodiscard]] std::set<std::string> failed_names() const {
    std::set<std::string> out;
    for (const auto& [name, reason] : failed()) out.insert(name);
    return out;
  }
};

inline grade_run grade(std::vector<std::string> args) {
  std::vector<std::string> argv{bin_path("netlab-grade")};
  argv.insert(argv.end(), args.begin(), args.end());
  argv.push_back("--json");
  auto r = run(argv);
  grade_run g{r.exit_code, {}, r.err};
  try {
    g.doc = nlohmann::json::parse(r.out);
  } catch (const nlohmann::json::exception& e) {
    ADD_FAILURE() << "netlab-grade printed no JSON: " << e.what() << "\nstdout: " << r.out << "\nstderr: " << r.err;
  }
  return g;
}

// The points a Gradescope results.json can give: the sum of its tests' max_score (Gradescope
// documents max_score per test only).
inline double gradescope_max_score(const nlohmann::json& results) {
  double total = 0;
  for (const auto& t : results["tests"]) total += t["max_score"].get<double>();
  return total;
}

// The port in Python http.server's "Serving HTTP on 127.0.0.1 port 43211 (...)" line.
inline std::string python_port(const std::string& line) {
  const auto at = line.find(" port ") + 6;
  return line.substr(at, line.find(' ', at) - at);
}

}  // namespace netlab::test
