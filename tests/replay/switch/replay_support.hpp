#pragma once
// Helpers for the lab-switch replay tests: run the binary, parse its JSON, temporary directories.
#include "support/process.hpp"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace netlab::test {

inline std::string captures_dir() {
  return source_path("captures/switch");
}

inline run_result lab_switch(std::vector<std::string> args) {
  args.insert(args.begin(), bin_path("lab-switch"));
  return run(args);
}

inline nlohmann::json replay_json(std::vector<std::string> args) {
  args.insert(args.begin(), "replay");
  args.push_back("--json");
  const auto r = lab_switch(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return nlohmann::json::parse(r.out);
}

inline std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A directory under /tmp removed when the test ends.
class temp_dir {
 public:
  temp_dir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "lab-switch-test-XXXXXX").string();
    path_ = ::mkdtemp(tmpl.data());
  }
  ~temp_dir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace netlab::test
