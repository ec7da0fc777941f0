#include <fmt/format.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "netlib/app/data_path.hpp"
#include "tour.hpp"

namespace netlab::tour {

context::context(std::string bin_dir, std::string work_dir, bool verbose)
    : bin_dir_(std::move(bin_dir)), work_dir_(std::move(work_dir)), verbose_(verbose) {}

std::string context::bin(const std::string& program) const {
  return bin_dir_ + "/" + program;
}

std::string context::capture(const std::string& relative) {
  return netlib::app::data_path("captures/" + relative);
}

std::optional<std::string> context::peer(const std::string& program) const {
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path != nullptr ? path : "/usr/bin:/bin");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    const std::string candidate = (dir.empty() ? std::string(".") : dir) + "/" + program;
    if (::access(candidate.c_str(), X_OK) == 0) return program;  // run by name, as a student types it
  }
  missing_peers_.insert(program);
  return std::nullopt;
}

std::string context::scratch(const std::string& name) const {
  const auto dir = std::filesystem::path(work_dir_) / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

std::string shell_line(const std::vector<std::string>& argv) {
  std::string line;
  for (std::string a : argv) {
    if (auto slash = a.rfind('/'); slash != std::string::npos && (a.rfind("lab-", slash + 1) == slash + 1 ||
                                                                  a.rfind("netlab-", slash + 1) == slash + 1))
      a = a.substr(slash + 1);  // show lab binaries by name, as a student types them
    const bool plain = !a.empty() && a.find_first_of(" \t\"'$&|;<>()*?!\\") == std::string::npos;
    line += (line.empty() ? "" : " ") + (plain ? a : "'" + a + "'");
  }
  return line;
}

netlib::app::run_result context::run(const std::vector<std::string>& argv, const std::string& input,
                                     int expected_exit) const {
  std::cout << "  $ " << shell_line(argv) << '\n';
  auto r = netlib::app::run(argv, input, std::chrono::seconds(30));
  if (verbose_) std::cout << r.out;
  if (r.exit_code != expected_exit)
    throw step_failed(fmt::format("'{}' exited with {} (expected {}): {}", shell_line(argv), r.exit_code, expected_exit,
                                  r.err.empty() ? r.out : r.err));
  return r;
}

nlohmann::json context::run_json(const std::vector<std::string>& argv, const std::string& input,
                                 int expected_exit) const {
  auto r = run(argv, input, expected_exit);
  try {
    return nlohmann::json::parse(r.out);
  } catch (const nlohmann::json::exception& e) {
    throw step_failed(fmt::format("'{}' did not print JSON: {}", shell_line(argv), e.what()));
  }
}

std::string context::start(netlib::app::process& server, const std::vector<std::string>& argv) const {
  std::cout << "  $ " << shell_line(argv) << " &\n";
  try {
    const std::string where = server.wait_listening(std::chrono::seconds(10));
    std::cout << "    listening on " << where << '\n';
    return where;
  } catch (const std::exception& e) {
    throw step_failed(fmt::format("'{}' did not start: {}", shell_line(argv), e.what()));
  }
}

void context::say(const std::string& line) const {
  std::cout << "    " << line << '\n';
}

void context::check(bool condition, const std::string& what) {
  if (!condition) throw step_failed(what);
}

}  // namespace netlab::tour
