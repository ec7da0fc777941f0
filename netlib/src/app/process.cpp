#include "netlib/app/process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

extern char** environ;

namespace netlib::app {
namespace {

using clock = std::chrono::steady_clock;

int exit_code_of(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

struct spawned {
  pid_t pid;
  int in_fd;
  int out_fd;
  int err_fd;
};

spawned spawn(const std::vector<std::string>& argv, bool with_stdin) {
  if (argv.empty()) throw std::logic_error("process: empty argv");
  int in[2] = {-1, -1}, out[2], err[2];
  if ((with_stdin && pipe2(in, O_CLOEXEC) != 0) || pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0)
    throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  if (with_stdin) {
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
  } else {
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  }
  posix_spawn_file_actions_adddup2(&fa, out[1], 1);
  posix_spawn_file_actions_adddup2(&fa, err[1], 2);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);  // own group: kill reaches children
  posix_spawnattr_setpgroup(&attr, 0);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  const int rc = posix_spawnp(&pid, args[0], &fa, &attr, args.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  if (with_stdin) close(in[0]);
  close(out[1]);
  close(err[1]);
  if (rc != 0) {
    if (with_stdin) close(in[1]);
    close(out[0]);
    close(err[0]);
    throw std::runtime_error("cannot start " + argv[0] + ": " + std::strerror(rc));
  }
  return {pid, with_stdin ? in[1] : -1, out[0], err[0]};
}

// Reads what is available from the fds into the strings; returns false when both are at EOF.
bool drain(int& out_fd, int& err_fd, std::string& out, std::string& err, int timeout_ms) {
  pollfd fds[2] = {{out_fd, POLLIN, 0}, {err_fd, POLLIN, 0}};
  if (out_fd < 0 && err_fd < 0) return false;
  const int n = poll(fds, 2, timeout_ms);
  if (n <= 0) return true;
  char buf[65536];
  int* fd_of[2] = {&out_fd, &err_fd};
  std::string* dst[2] = {&out, &err};
  for (int i = 0; i < 2; ++i) {
    if (*fd_of[i] < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
    const ssize_t r = read(*fd_of[i], buf, sizeof buf);
    if (r > 0) {
      dst[i]->append(buf, static_cast<std::size_t>(r));
    } else if (r == 0 || errno != EINTR) {
      close(*fd_of[i]);
      *fd_of[i] = -1;
    }
  }
  return out_fd >= 0 || err_fd >= 0;
}

}  // namespace

std::string own_directory() {
  char buf[4096];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return ".";
  std::string path(buf, static_cast<std::size_t>(n));
  return path.substr(0, path.rfind('/'));
}

run_result run(const std::vector<std::string>& argv, const std::string& input, std::chrono::milliseconds deadline) {
  ::signal(SIGPIPE, SIG_IGN);
  spawned p = spawn(argv, true);
  // Write stdin fully (tests pass small inputs), then close it.
  std::size_t off = 0;
  while (off < input.size()) {
    const ssize_t w = write(p.in_fd, input.data() + off, input.size() - off);
    if (w <= 0) break;
    off += static_cast<std::size_t>(w);
  }
  close(p.in_fd);
  run_result r;
  const auto end = clock::now() + deadline;
  while (drain(p.out_fd, p.err_fd, r.out, r.err, 100)) {
    if (clock::now() > end) {
      kill(-p.pid, SIGKILL);
      r.err += "\n[test harness: killed at the deadline]";
      break;
    }
  }
  if (p.out_fd >= 0) close(p.out_fd);
  if (p.err_fd >= 0) close(p.err_fd);
  int status = 0;
  waitpid(p.pid, &status, 0);
  r.exit_code = exit_code_of(status);
  return r;
}

process::process(const std::vector<std::string>& argv) {
  ::signal(SIGPIPE, SIG_IGN);
  spawned p = spawn(argv, false);
  pid_ = p.pid;
  out_fd_ = p.out_fd;
  err_fd_ = p.err_fd;
}

process::~process() {
  if (!status_) {
    kill(-pid_, SIGKILL);
    kill(pid_, SIGKILL);
    int status = 0;
    waitpid(pid_, &status, 0);
  }
  if (out_fd_ >= 0) close(out_fd_);
  if (err_fd_ >= 0) close(err_fd_);
}

bool process::pump(std::chrono::milliseconds timeout) {
  return drain(out_fd_, err_fd_, out_, err_, static_cast<int>(timeout.count()));
}

std::optional<std::string> process::wait_for_line(const std::string& prefix, std::chrono::milliseconds deadline) {
  const auto end = clock::now() + deadline;
  for (;;) {
    std::size_t nl;
    while ((nl = out_.find('\n', scanned_)) != std::string::npos) {
      std::string line = out_.substr(scanned_, nl - scanned_);
      scanned_ = nl + 1;
      if (line.rfind(prefix, 0) == 0) return line;
    }
    if (clock::now() > end) return std::nullopt;
    if (!pump(std::chrono::milliseconds(50)) && out_.find('\n', scanned_) == std::string::npos) return std::nullopt;
  }
}

std::optional<std::string> process::wait_for_err_line(const std::string& prefix, std::chrono::milliseconds deadline) {
  const auto end = clock::now() + deadline;
  for (;;) {
    std::size_t nl;
    while ((nl = err_.find('\n', err_scanned_)) != std::string::npos) {
      std::string line = err_.substr(err_scanned_, nl - err_scanned_);
      err_scanned_ = nl + 1;
      if (line.rfind(prefix, 0) == 0) return line;
    }
    if (clock::now() > end) return std::nullopt;
    if (!pump(std::chrono::milliseconds(50)) && err_.find('\n', err_scanned_) == std::string::npos) return std::nullopt;
  }
}

std::string process::wait_listening(std::chrono::milliseconds deadline) {
  auto line = wait_for_line("listening on ", deadline);
  if (!line) {
    pump(std::chrono::milliseconds(100));
    throw std::runtime_error("no 'listening on' line; stderr: " + err_);
  }
  return line->substr(std::string("listening on ").size());
}

int process::port_of(const std::string& host_port) {
  return std::stoi(host_port.substr(host_port.rfind(':') + 1));
}

void process::signal(int sig) {
  if (!status_) ::kill(pid_, sig);
}

int process::wait(std::chrono::milliseconds deadline) {
  if (status_) return *status_;
  const auto end = clock::now() + deadline;
  int status = 0;
  for (;;) {
    pump(std::chrono::milliseconds(20));
    const pid_t r = waitpid(pid_, &status, WNOHANG);
    if (r == pid_) break;
    if (clock::now() > end) {
      ::kill(-pid_, SIGKILL);
      ::kill(pid_, SIGKILL);
      waitpid(pid_, &status, 0);
      break;
    }
  }
  while (pump(std::chrono::milliseconds(20))) {
  }
  status_ = exit_code_of(status);
  return *status_;
}

}  // namespace netlib::app
