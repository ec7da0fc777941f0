// Theory of operation: netns_set names every namespace after this process and records it before
// running `ip netns add`, so the destructor (also reached when a later step throws) deletes
// exactly those, newest first; deleting a namespace removes its veth ends, which removes the
// pairs. netns_scope keeps a descriptor of the thread's own namespace and setns(2)es back to it.
#include "netlib/app/netns.hpp"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <regex>
#include <sstream>

#include "netlib/app/process.hpp"
#include "netlib/app/program.hpp"
#include "netlib/core/stop_signals.hpp"

namespace netlib::app {

void check_interrupted() {
  if (netlib::stop_requested()) throw failure("interrupted: the namespaces were removed");
}


std::string netns_set::find_tool(const std::string& name) {
  for (const char* dir : {"/usr/sbin/", "/sbin/", "/usr/bin/", "/bin/"}) {
    const std::string path = std::string(dir) + name;
    if (access(path.c_str(), X_OK) == 0) return path;
  }
  return {};
}

std::string netns_set::own_prefix() { return fmt::format("netlab-{}-", getpid()); }

netns_set::netns_set(bool verbose) : ip_(find_tool("ip")), verbose_(verbose) {
  if (ip_.empty()) throw failure("ip is needed: apt-get install iproute2");
}

netns_set::~netns_set() { teardown(); }

std::string netns_set::add(const std::string& name) {
  const std::string full = own_prefix() + name;
  created_.push_back(full);
  step({ip_, "netns", "add", full});
  step({ip_, "-n", full, "link", "set", "lo", "up"});
  return full;
}

bool netns_set::try_step(std::vector<std::string> argv) {
  if (verbose_) {
    std::string line = "+";
    for (const auto& a : argv) line += " " + a;
    std::cerr << line << '\n';
  }
  const auto r = run(argv, {}, std::chrono::seconds(20));
  if (verbose_ && r.exit_code != 0) std::cerr << "  -> exit " << r.exit_code << ": " << r.err;
  return r.exit_code == 0;
}

void netns_set::step(std::vector<std::string> argv) {
  std::string line;
  for (const auto& a : argv) line += (line.empty() ? "" : " ") + a;
  if (!try_step(std::move(argv))) throw failure("'" + line + "' failed (run with --verbose to see why)");
}

void netns_set::batch(const std::string& ns, const std::string& commands) {
  if (verbose_) {
    std::istringstream in(commands);
    for (std::string line; std::getline(in, line);) std::cerr << "+ ip -n " << ns << " " << line << '\n';
  }
  const auto r = run({ip_, "-n", ns, "-batch", "-"}, commands, std::chrono::seconds(60));
  if (r.exit_code != 0) {
    const auto first = r.err.substr(0, r.err.find('\n'));
    throw failure(fmt::format("ip -n {} -batch failed: {}", ns, first.empty() ? "exit " + std::to_string(r.exit_code) : first));
  }
}

std::vector<std::string> netns_set::exec_in(const std::string& ns) const { return {ip_, "netns", "exec", ns}; }

void netns_set::teardown() noexcept {
  for (auto it = created_.rbegin(); it != created_.rend(); ++it) {
    try {
      try_step({ip_, "netns", "del", *it});
    } catch (...) {  // keep deleting the others
    }
  }
  created_.clear();
}

int netns_set::remove_stale(bool verbose) {
  const std::string ip = find_tool("ip");
  if (ip.empty()) return 0;
  const auto list = run({ip, "netns", "list"}, {}, std::chrono::seconds(10));
  static const std::regex ours(R"(^netlab-([0-9]+)-.+$)");
  std::istringstream lines(list.out);
  int removed = 0;
  for (std::string line; std::getline(lines, line);) {
    const std::string name = line.substr(0, line.find(' '));  // "NAME (id: 3)"
    std::smatch m;
    if (!std::regex_match(name, m, ours)) continue;
    const auto pid = static_cast<pid_t>(std::stol(m[1].str()));
    if (pid == getpid() || kill(pid, 0) == 0 || errno != ESRCH) continue;
    if (verbose) std::cerr << "+ " << ip << " netns del " << name << " (left by process " << pid << ")\n";
    if (run({ip, "netns", "del", name}, {}, std::chrono::seconds(10)).exit_code == 0) ++removed;
  }
  return removed;
}

netns_scope::netns_scope(const std::string& name) {
  home_ = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
  if (home_ < 0) throw failure(std::string("cannot open this thread's network namespace: ") + std::strerror(errno));
  const std::string path = "/run/netns/" + name;
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    const int e = errno;
    close(home_);
    throw failure(fmt::format("cannot open namespace {}: {}", path, std::strerror(e)));
  }
  const int rc = setns(fd, CLONE_NEWNET);
  const int e = errno;
  close(fd);
  if (rc != 0) {
    close(home_);
    throw failure(fmt::format("cannot enter namespace {}: {}", name, std::strerror(e)));
  }
}

netns_scope::~netns_scope() {
  if (home_ >= 0) {
    if (setns(home_, CLONE_NEWNET) != 0) {
      // Staying in a namespace that is about to be deleted would lose the caller's network.
      std::cerr << program_name() << ": error: cannot return to the original network namespace\n";
      std::abort();
    }
    close(home_);
  }
}

namespace {
std::string sysctl_path(std::string key) {
  std::replace(key.begin(), key.end(), '.', '/');
  return "/proc/sys/" + key;
}
}  // namespace

bool write_sysctl(const std::string& key, const std::string& value) {
  const auto path = sysctl_path(key);
  if (access(path.c_str(), F_OK) != 0) return false;
  std::ofstream out(path);
  out << value << '\n';
  out.flush();
  if (!out) throw failure(fmt::format("cannot set {} to {}", key, value));
  return true;
}

std::string read_sysctl(const std::string& key) {
  std::ifstream in(sysctl_path(key));
  std::string v;
  if (in) std::getline(in, v);
  return v;
}

}  // namespace netlib::app
