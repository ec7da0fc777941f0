#include "session_command.hpp"

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "netlib/app/process.hpp"
#include "netlib/app/program.hpp"

extern char** environ;

namespace netlab::record {
namespace {

int exit_code_of(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

}  // namespace

session_command::session_command(const std::vector<std::string>& argv, bool stdout_to_stderr) {
  if (argv.empty()) throw netlib::app::usage_error("--golden needs a session command after --");
  ::setenv("BIN", netlib::app::own_directory().c_str(), 0);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  if (stdout_to_stderr) posix_spawn_file_actions_adddup2(&fa, 2, 1);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const int rc = posix_spawnp(&pid_, args[0], &fa, &attr, args.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) throw netlib::app::failure("cannot start " + argv[0] + ": " + std::strerror(rc));
}

session_command::~session_command() {
  if (!exit_code_) stop();
}

std::optional<int> session_command::poll() {
  if (exit_code_) return exit_code_;
  int status = 0;
  if (::waitpid(pid_, &status, WNOHANG) == pid_) exit_code_ = exit_code_of(status);
  return exit_code_;
}

int session_command::stop() {
  if (poll()) return *exit_code_;
  ::kill(-pid_, SIGTERM);
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(1);
  while (!poll() && std::chrono::steady_clock::now() < end) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  if (!exit_code_) {
    ::kill(-pid_, SIGKILL);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    exit_code_ = exit_code_of(status);
  }
  return *exit_code_;
}

std::string shell_quote(const std::vector<std::string>& argv) {
  std::string out;
  for (const auto& a : argv) {
    if (!out.empty()) out += ' ';
    const bool plain =
        !a.empty() && a.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:=@,+%") ==
                          std::string::npos;
    if (plain) {
      out += a;
      continue;
    }
    out += '\'';
    for (char c : a) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    out += '\'';
  }
  return out;
}

}  // namespace netlab::record
