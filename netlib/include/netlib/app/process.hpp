#pragma once
// Child processes for tests, the tour and the grader: start a program, wait for a line on its stdout with a
// deadline (never a sleep), talk to it, and always kill it when the harness goes out of scope.
#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace netlib::app {

struct run_result {
  int exit_code = -1;  // exit status, or 128 + signal
  std::string out;
  std::string err;
};

// The folder this program's executable is in (programs find their sibling lab binaries there).
std::string own_directory();

// Run a program to completion with optional stdin, capturing both streams; kills it at the deadline.
run_result run(const std::vector<std::string>& argv, const std::string& input = {},
               std::chrono::milliseconds deadline = std::chrono::seconds(60));

class process {
 public:
  explicit process(const std::vector<std::string>& argv);
  ~process();
  process(const process&) = delete;
  process& operator=(const process&) = delete;

  // Waits until a stdout line starts with `prefix`; returns the whole line, or nullopt at the
  // deadline or when the program exits first.
  std::optional<std::string> wait_for_line(const std::string& prefix,
                                           std::chrono::milliseconds deadline = std::chrono::seconds(20));
  // The same for a line on its stderr (a server given --json announces itself there, keeping
  // stdout for the one JSON document).
  std::optional<std::string> wait_for_err_line(const std::string& prefix,
                                               std::chrono::milliseconds deadline = std::chrono::seconds(20));
  // Waits for `listening on HOST:PORT` and returns "HOST:PORT".
  std::string wait_listening(std::chrono::milliseconds deadline = std::chrono::seconds(20));
  // The port of a "HOST:PORT" string.
  static int port_of(const std::string& host_port);

  void signal(int sig);
  // Waits for exit (killing with SIGKILL at the deadline); returns the exit code or 128 + signal.
  int wait(std::chrono::milliseconds deadline = std::chrono::seconds(20));
  [[nodiscard]] pid_t pid() const { return pid_; }
  // Everything read from stdout/stderr so far (wait() drains the rest).
  [[nodiscard]] const std::string& out() const { return out_; }
  [[nodiscard]] const std::string& err() const { return err_; }

 private:
  bool pump(std::chrono::milliseconds timeout);
  pid_t pid_ = -1;
  int out_fd_ = -1;
  int err_fd_ = -1;
  std::string out_;
  std::string err_;
  std::size_t scanned_ = 0;
  std::size_t err_scanned_ = 0;
  std::optional<int> status_;
};

}  // namespace netlib::app
