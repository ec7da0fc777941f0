#include "topology.hpp"

#include "netlib/app/program.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstring>

extern char** environ;

namespace netlab::lab_switch {

namespace {

struct program_result {
  int status = -1;
  std::string err;
};

program_result run_program(const std::vector<std::string>& argv) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  int pipe_fd[2];
  if (pipe(pipe_fd) != 0) throw netlib::app::failure("cannot create a pipe");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fd[1], STDERR_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addclose(&actions, pipe_fd[0]);
  pid_t pid = -1;
  const int rc = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(pipe_fd[1]);
  program_result r;
  if (rc != 0) {
    close(pipe_fd[0]);
    r.err = fmt::format("cannot run {}: {}", argv[0], std::strerror(rc));
    return r;
  }
  std::array<char, 4096> buf{};
  for (ssize_t n; (n = read(pipe_fd[0], buf.data(), buf.size())) > 0;)
    r.err.append(buf.data(), static_cast<std::size_t>(n));
  close(pipe_fd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return r;
}

}  // namespace

void run_checked(const std::vector<std::string>& argv) {
  const auto r = run_program(argv);
  if (r.status == 0) return;
  std::string cmd;
  for (const auto& a : argv) cmd += (cmd.empty() ? "" : " ") + a;
  const auto line = r.err.substr(0, r.err.find('\n'));
  throw netlib::app::failure(fmt::format("'{}' failed: {}", cmd, line.empty() ? "no message" : line));
}

topology::topology(const std::string& prefix, std::size_t hosts) {
  for (std::size_t i = 1; i <= hosts; ++i) {
    hosts_.push_back(topology_host{fmt::format("{}h{}", prefix, i), fmt::format("10.0.0.{}", i),
                                   fmt::format("02:00:00:00:00:{:02x}", i), fmt::format("{}s{}", prefix, i)});
  }
  try {
    for (std::size_t i = 0; i < hosts_.size(); ++i) build_host(i);
  } catch (...) {
    tear_down();
    throw;
  }
}

topology::~topology() {
  tear_down();
}

void topology::build_host(std::size_t i) {
  const auto& h = hosts_[i];
  const std::string peer = h.switch_interface + "p";
  run_checked({"ip", "netns", "add", h.netns});
  run_checked({"ip", "link", "add", h.switch_interface, "type", "veth", "peer", "name", peer, "netns", h.netns});
  // no IPv6 addresses (so no router solicitations or MLD): the lab's traffic is only what the user sends
  run_checked({"ip", "link", "set", h.switch_interface, "addrgenmode", "none"});
  run_checked({"ip", "link", "set", h.switch_interface, "up"});
  run_checked({"ip", "-n", h.netns, "link", "set", peer, "name", "eth0"});
  run_checked({"ip", "-n", h.netns, "link", "set", "eth0", "address", h.mac, "addrgenmode", "none"});
  run_checked({"ip", "-n", h.netns, "addr", "add", h.ip + "/24", "dev", "eth0"});
  run_checked({"ip", "-n", h.netns, "link", "set", "eth0", "up"});
  run_checked({"ip", "-n", h.netns, "link", "set", "lo", "up"});
}

void topology::tear_down() noexcept {
  for (const auto& h : hosts_) {
    run_program({"ip", "netns", "del", h.netns});  // deletes the veth pair with it
    run_program({"ip", "link", "del", h.switch_interface});
  }
}

std::vector<std::string> topology::switch_interfaces() const {
  std::vector<std::string> out;
  for (const auto& h : hosts_) out.push_back(h.switch_interface);
  return out;
}

}  // namespace netlab::lab_switch
