#pragma once
// Network namespaces a lab program builds for an experiment and always removes
// (docs/architecture.md, "Program conventions"): every namespace is named netlab-<pid>-<name>
// after the creating process and marked as its own before it is created (a file
// /run/netlab/netns/NAME naming the process by pid and start time, then the namespace's inode),
// and deleted by the destructor (also when a step throws); namespaces whose process has died are
// found by their markers and removed by remove_stale. A namespace without a marker (one a person
// made, whatever its name) is never deleted. Nothing is created in the caller's own namespace.
// Needs root and ip(8).
//
//   netlib::app::netns_set set(verbose);
//   const auto a = set.add("a"), b = set.add("b");                       // netlab-1234-a, -b
//   set.step({set.ip(), "-n", a, "link", "add", "e0", "type", "veth", "peer", "name", "e0", "netns", b});
//   set.batch(a, "addr add 10.0.0.1/31 dev e0\nlink set e0 up\n");     // ip -n A -batch -
//   { netlib::app::netns_scope in(a); int fd = socket(...); }            // a socket inside A
#include <string>
#include <vector>

namespace netlib::app {

// SIGINT and SIGTERM during an experiment (after netlib::catch_stop_signals(), core/stop_signals.hpp):
// the current step (each is bounded) finishes, then check_interrupted() throws
// failure("interrupted: the namespaces were removed") and the netns_set's destructor removes them.
void check_interrupted();

// A namespace remove_stale deleted: its name, and the process and program that made it.
struct stale_namespace {
  std::string name;
  int owner = 0;
  std::string program;
};

class netns_set {
 public:
  // Throws failure when ip(8) is missing.
  explicit netns_set(bool verbose);
  ~netns_set();
  netns_set(const netns_set&) = delete;
  netns_set& operator=(const netns_set&) = delete;

  // Creates netlab-<pid>-<name> with its loopback up; returns the full name. A namespace of that
  // name that exists already is someone else's: failure, and it is left alone.
  std::string add(const std::string& name);
  // Runs a command (ip, tc, ...), printing it on stderr when verbose; throws failure naming it.
  void step(std::vector<std::string> argv);
  bool try_step(std::vector<std::string> argv);
  // Runs `ip -n NS -batch -` with one ip command per line; throws failure with ip's reason.
  void batch(const std::string& ns, const std::string& commands);
  // argv prefix that runs a program in a namespace: ip netns exec NS.
  [[nodiscard]] std::vector<std::string> exec_in(const std::string& ns) const;
  [[nodiscard]] const std::string& ip() const noexcept { return ip_; }
  [[nodiscard]] const std::vector<std::string>& names() const noexcept { return created_; }
  [[nodiscard]] bool verbose() const noexcept { return verbose_; }
  // Deletes the namespaces now (the destructor does it otherwise).
  void teardown() noexcept;

  // Path of a tool in the sbin and bin folders, or empty.
  static std::string find_tool(const std::string& name);
  // Deletes the namespaces a netns_set marked whose process no longer exists (left by a run that
  // was killed) and says so on stderr, one line per process; never touches a namespace without
  // its marker. Returns what it removed.
  static std::vector<stale_namespace> remove_stale(bool verbose);
  // The prefix of this process's namespaces: "netlab-<pid>-".
  static std::string own_prefix();

 private:
  std::string ip_;
  bool verbose_;
  std::vector<std::string> created_;
};

// Moves the calling thread into a namespace made by ip netns (/run/netns/NAME) until destroyed;
// sockets opened meanwhile stay in that namespace, and /proc/sys/net is that namespace's.
class netns_scope {
 public:
  explicit netns_scope(const std::string& name);
  ~netns_scope();
  netns_scope(const netns_scope&) = delete;
  netns_scope& operator=(const netns_scope&) = delete;

 private:
  int home_ = -1;
};

// Writes a sysctl under /proc/sys (key with dots or slashes) in the current namespace; false when
// the key does not exist, throws failure when it exists but cannot be written.
bool write_sysctl(const std::string& key, const std::string& value);
// Reads one: its first line, or an empty string when it does not exist.
std::string read_sysctl(const std::string& key);

}  // namespace netlib::app
