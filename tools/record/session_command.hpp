#pragma once
// The reference session of `netlab-record --golden`: a command started while the recording runs,
// in its own process group (so a timeout or Ctrl-C reaches its servers and clients too), with
// BIN set to the folder of the netlab binaries unless the caller set it.
#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

namespace netlab::record {

class session_command {
 public:
  // Starts argv; with `stdout_to_stderr` the command's stdout goes to our stderr (so --json
  // output stays one document). Throws netlib::app::failure when it cannot start.
  session_command(const std::vector<std::string>& argv, bool stdout_to_stderr);
  ~session_command();
  session_command(const session_command&) = delete;
  session_command& operator=(const session_command&) = delete;

  // The exit code (128 + signal when killed) once the command has exited; nullopt while it runs.
  std::optional<int> poll();
  // SIGTERM to the command's process group, then SIGKILL after one second; returns the exit code.
  int stop();

 private:
  pid_t pid_ = -1;
  std::optional<int> exit_code_;
};

// `argv` as one line a POSIX shell reads back as the same words.
std::string shell_quote(const std::vector<std::string>& argv);

}  // namespace netlab::record
