// Theory of operation: netns_set names every namespace after this process and, before running
// `ip netns add`, writes a marker /run/netlab/netns/NAME (in a folder only root can write) naming
// this process by pid and start time, then the namespace's inode; the destructor (also reached
// when a later step throws) deletes exactly the namespaces this object made, newest first, and
// their markers; deleting a namespace removes its veth ends, which removes the pairs.
// remove_stale deletes only namespaces with a marker whose process is gone (its pid free, or used
// again by a process that started at another time) and whose inode is the one recorded: a
// namespace someone named netlab-2024-mylab by hand has no marker and is never touched.
// netns_scope keeps a descriptor of the thread's own namespace and setns(2)es back to it.
#include "netlib/app/netns.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
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

std::string netns_set::own_prefix() {
  return fmt::format("netlab-{}-", getpid());
}

namespace {

constexpr const char* marker_root = "/run/netlab";
constexpr const char* marker_dir = "/run/netlab/netns";

// The start time of a running process (field 22 of /proc/PID/stat, clock ticks since boot), or
// empty when it does not exist or has ended (a zombie: state Z or X). With the pid it names one
// process: a pid used again has another start time.
std::string start_time_of(pid_t pid) {
  std::ifstream in(fmt::format("/proc/{}/stat", pid));
  std::string stat;
  if (!in || !std::getline(in, stat)) return {};
  const auto paren = stat.rfind(')');  // the command name may hold spaces and parentheses
  if (paren == std::string::npos || paren + 2 > stat.size()) return {};
  std::istringstream fields(stat.substr(paren + 2));
  std::string field;
  for (int i = 3; i <= 22 && (fields >> field); ++i) {
    if (i == 3 && (field == "Z" || field == "X")) return {};
    if (i == 22) return field;
  }
  return {};
}

// A marker folder, made when needed: root's, and writable by nobody else (markers decide what a
// later run deletes, so nobody but root may write one).
bool safe_folder(const char* path, mode_t mode) {
  if (::mkdir(path, mode) != 0 && errno != EEXIST) return false;
  struct stat st {};
  if (::lstat(path, &st) != 0 || !S_ISDIR(st.st_mode)) return false;
  return st.st_uid == 0 && (st.st_mode & (S_IWGRP | S_IWOTH)) == 0;
}

bool marker_folder() {
  return safe_folder(marker_root, 0755) && safe_folder(marker_dir, 0700);
}

std::string marker_path(const std::string& ns) {
  return std::string(marker_dir) + "/" + ns;
}

// The namespace file's identity (the namespace's inode in nsfs), or {0, 0} when there is none.
std::pair<dev_t, ino_t> namespace_identity(const std::string& ns) {
  struct stat st {};
  if (::stat(("/run/netns/" + ns).c_str(), &st) != 0) return {0, 0};
  return {st.st_dev, st.st_ino};
}

struct marker {
  pid_t pid = 0;
  std::string start, program;
  bool has_identity = false;
  dev_t dev = 0;
  ino_t ino = 0;
};

// A marker this code wrote (a regular file of root's, not a link), or nullopt.
std::optional<marker> read_marker(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return std::nullopt;
  struct stat st {};
  char buf[512];
  const auto got = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == 0 ? ::read(fd, buf, sizeof buf) : -1;
  ::close(fd);
  if (got <= 0) return std::nullopt;
  marker m;
  std::istringstream in(std::string(buf, static_cast<std::size_t>(got)));
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    std::string key;
    words >> key;
    if (key == "owner") {
      long long pid = 0;
      words >> pid >> m.start;
      m.pid = static_cast<pid_t>(pid);
    } else if (key == "program") {
      words >> m.program;
    } else if (key == "netns") {
      unsigned long long dev = 0, ino = 0;
      if (words >> dev >> ino) {
        m.dev = static_cast<dev_t>(dev);
        m.ino = static_cast<ino_t>(ino);
        m.has_identity = true;
      }
    }
  }
  if (m.pid <= 0 || m.start.empty()) return std::nullopt;
  return m;
}

bool write_all(int fd, const std::string& text) {
  return ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
}

}  // namespace

netns_set::netns_set(bool verbose) : ip_(find_tool("ip")), verbose_(verbose) {
  if (ip_.empty()) throw failure("ip is needed: apt-get install iproute2");
}

netns_set::~netns_set() {
  teardown();
}

std::string netns_set::add(const std::string& name) {
  const std::string full = own_prefix() + name;
  // A namespace of that name that exists already is someone else's: never taken over, never deleted.
  if (::access(("/run/netns/" + full).c_str(), F_OK) == 0) {
    throw failure(
        fmt::format("a network namespace named {} exists already (not made by this run); it is left alone", full));
  }
  // The marker first, so that a run killed right after `ip netns add` is found by it: it names this
  // process by pid and start time, then the namespace by its inode.
  if (!marker_folder()) throw failure(fmt::format("cannot make {} (root's, writable only by root)", marker_dir));
  const auto path = marker_path(full);
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) throw failure(fmt::format("cannot write {}: {}", path, std::strerror(errno)));
  const bool written = write_all(fd, fmt::format("owner {} {}\nprogram {}\n", getpid(), start_time_of(getpid()),
                                                 program_name().empty() ? "netlab" : program_name()));
  if (!written || !try_step({ip_, "netns", "add", full})) {
    ::close(fd);
    ::unlink(path.c_str());
    throw failure(written ? fmt::format("'{} netns add {}' failed (run with --verbose to see why)", ip_, full)
                          : "cannot write " + path);
  }
  created_.push_back(full);
  const auto [dev, ino] = namespace_identity(full);
  const bool identified = write_all(
      fd, fmt::format("netns {} {}\n", static_cast<unsigned long long>(dev), static_cast<unsigned long long>(ino)));
  ::close(fd);
  if (!identified) throw failure("cannot write " + path);
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
    throw failure(
        fmt::format("ip -n {} -batch failed: {}", ns, first.empty() ? "exit " + std::to_string(r.exit_code) : first));
  }
}

std::vector<std::string> netns_set::exec_in(const std::string& ns) const {
  return {ip_, "netns", "exec", ns};
}

void netns_set::teardown() noexcept {
  for (auto it = created_.rbegin(); it != created_.rend(); ++it) {
    try {
      if (try_step({ip_, "netns", "del", *it})) ::unlink(marker_path(*it).c_str());
    } catch (...) {  // keep deleting the others
    }
  }
  created_.clear();
}

std::vector<stale_namespace> netns_set::remove_stale(bool verbose) {
  std::vector<stale_namespace> removed;
  const std::string ip = find_tool("ip");
  struct stat st {};
  // Only a folder of root's that nobody else can write is believed.
  if (ip.empty() || ::lstat(marker_dir, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != 0 ||
      (st.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
    return removed;
  }
  DIR* dir = ::opendir(marker_dir);
  if (dir == nullptr) return removed;
  std::vector<std::string> names;
  for (const dirent* e = ::readdir(dir); e != nullptr; e = ::readdir(dir)) {
    const std::string name = e->d_name;
    if (name.rfind("netlab-", 0) == 0) names.push_back(name);
  }
  ::closedir(dir);
  std::sort(names.begin(), names.end());
  for (const auto& name : names) {
    const auto path = marker_path(name);
    const auto m = read_marker(path);
    if (!m) continue;                                                       // not a marker this code wrote: left alone
    if (m->pid == getpid() || start_time_of(m->pid) == m->start) continue;  // its process still runs
    const auto [dev, ino] = namespace_identity(name);
    const bool exists = dev != 0 || ino != 0;
    // The namespace of that name is the one the marker recorded (or, when the run died between
    // `ip netns add` and recording its inode, the one made under this marker's name).
    if (exists && (!m->has_identity || (m->dev == dev && m->ino == ino))) {
      if (verbose) std::cerr << "+ " << ip << " netns del " << name << " (left by process " << m->pid << ")\n";
      if (run({ip, "netns", "del", name}, {}, std::chrono::seconds(10)).exit_code != 0) continue;
      removed.push_back({name, static_cast<int>(m->pid), m->program});
    }
    ::unlink(path.c_str());  // the marker of a namespace that is gone now (or that is not the one it recorded)
  }
  std::map<int, std::pair<std::size_t, std::string>> by_owner;
  for (const auto& r : removed) {
    auto& v = by_owner[r.owner];
    ++v.first;
    v.second = r.program;
  }
  for (const auto& [pid, v] : by_owner) {
    std::cerr << fmt::format(
        "{}: removed {} network namespace{} (netlab-{}-*) left by {}, process {}, which ended "
        "without removing them (killed?)\n",
        program_name(), v.first, v.first == 1 ? "" : "s", pid, v.second, pid);
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
