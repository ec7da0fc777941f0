#pragma once
// netlab-tour: every lab end to end on embedded defaults. Each step runs the lab binaries that sit
// beside netlab-tour (and real clients such as curl), shows every command it runs so a student can
// copy it, checks what came back, and says what it proved.
#include <functional>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "netlib/app/process.hpp"

namespace netlab::tour {

// A check that did not hold: the step fails with this message.
class step_failed : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class context {
 public:
  context(std::string bin_dir, std::string work_dir, bool verbose);
  // Path of a netlab program beside the tour.
  [[nodiscard]] std::string bin(const std::string& program) const;
  // Path of a bundled capture (captures/RELATIVE) in the layout the tour runs from: the release
  // bundle, the Debian package or the source tree (netlib/app/data_path.hpp).
  [[nodiscard]] static std::string capture(const std::string& relative);
  // A real client (curl) when it is on PATH (its name), or nullopt when it is not installed (a
  // bare system: the release bundle in a minimal root). A step then says so and checks the same
  // server behaviour with netlab's own client; the tour's summary names every peer it could not
  // use.
  [[nodiscard]] std::optional<std::string> peer(const std::string& program) const;
  [[nodiscard]] const std::set<std::string>& missing_peers() const { return missing_peers_; }
  // A scratch folder for this step (created fresh under the tour's temporary folder).
  [[nodiscard]] std::string scratch(const std::string& name) const;
  // Runs a command to completion, showing it; fails the step unless it exits with `expected_exit`.
  netlib::app::run_result run(const std::vector<std::string>& argv, const std::string& input = {},
                              int expected_exit = 0) const;
  // Runs a command that prints JSON (e.g. with --json) and parses it.
  nlohmann::json run_json(const std::vector<std::string>& argv, const std::string& input = {},
                          int expected_exit = 0) const;
  // Starts a server, waits for its "listening on HOST:PORT" line, and returns HOST:PORT.
  std::string start(netlib::app::process& server, const std::vector<std::string>& argv) const;
  // Prints one line of what the step found.
  void say(const std::string& line) const;
  // Fails the step unless condition holds.
  static void check(bool condition, const std::string& what);

 private:
  std::string bin_dir_;
  std::string work_dir_;
  bool verbose_;
  mutable std::set<std::string> missing_peers_;
};

struct step {
  std::string program;  // the lab or tool the step shows
  std::string title;
  std::function<void(const context&)> run;
};

// Each lab adds its steps in its own file (steps_<lab>.cpp).
std::vector<step> delay_steps();
std::vector<step> switch_steps();
std::vector<step> capture_steps();
std::vector<step> server_steps();
std::vector<step> instructor_steps();
std::vector<step> dc_steps();

// Quotes a command line for display.
std::string shell_line(const std::vector<std::string>& argv);

}  // namespace netlab::tour
