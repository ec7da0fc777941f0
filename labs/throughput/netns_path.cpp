// Theory of operation: every change is made inside the two namespaces this object names after its
// process id, and every namespace it adds is recorded before anything else happens, so the
// destructor (also reached when a step throws) deletes exactly those and nothing else. Deleting a
// namespace removes its veth end, which removes the pair.
#include "netns_path.hpp"

#include <signal.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <cmath>
#include <iostream>
#include <regex>
#include <sstream>

#include "netlib/app/process.hpp"
#include "netlib/app/program.hpp"

namespace netlab::lab_throughput {

std::string netns_path::find_tool(const std::string& name) {
  for (const char* dir : {"/usr/sbin/", "/sbin/", "/usr/bin/", "/bin/"}) {
    const std::string path = std::string(dir) + name;
    if (access(path.c_str(), X_OK) == 0) return path;
  }
  return {};
}

netns_path::netns_path(const path_settings& s, bool verbose)
    : ip_(find_tool("ip")), tc_(find_tool("tc")), verbose_(verbose) {
  if (ip_.empty() || tc_.empty()) throw netlib::app::failure("ip and tc are needed: apt-get install iproute2");
  server_ = fmt::format("netlab-{}-s", getpid());
  client_ = fmt::format("netlab-{}-c", getpid());
  try {
    for (const auto& ns : {server_, client_}) {
      created_.push_back(ns);
      step({ip_, "netns", "add", ns});
      step({ip_, "-n", ns, "link", "set", "lo", "up"});
    }
    step({ip_, "-n", server_, "link", "add", "veth-s", "type", "veth", "peer", "name", "veth-c", "netns", client_});
    step({ip_, "-n", server_, "addr", "add", std::string(server_address) + "/30", "dev", "veth-s"});
    step({ip_, "-n", client_, "addr", "add", std::string(client_address) + "/30", "dev", "veth-c"});
    step({ip_, "-n", server_, "link", "set", "veth-s", "up"});
    step({ip_, "-n", client_, "link", "set", "veth-c", "up"});
    shape(server_, "veth-s", s);
    shape(client_, "veth-c", s);
  } catch (...) {
    teardown();
    throw;
  }
}

netns_path::~netns_path() { teardown(); }

int netns_path::remove_stale(bool verbose) {
  const std::string ip = find_tool("ip");
  if (ip.empty()) return 0;
  const auto list = netlib::app::run({ip, "netns", "list"}, {}, std::chrono::seconds(10));
  static const std::regex ours(R"(^netlab-([0-9]+)-[sc]$)");
  std::istringstream lines(list.out);
  int removed = 0;
  for (std::string line; std::getline(lines, line);) {
    const std::string name = line.substr(0, line.find(' '));  // "NAME (id: 3)"
    std::smatch m;
    if (!std::regex_match(name, m, ours)) continue;
    const auto pid = static_cast<pid_t>(std::stol(m[1].str()));
    if (pid == getpid() || kill(pid, 0) == 0 || errno != ESRCH) continue;
    if (verbose) std::cerr << "+ " << ip << " netns del " << name << " (left by process " << pid << ")\n";
    if (netlib::app::run({ip, "netns", "del", name}, {}, std::chrono::seconds(10)).exit_code == 0) ++removed;
  }
  return removed;
}

std::vector<std::string> netns_path::exec_in(const std::string& ns) const { return {ip_, "netns", "exec", ns}; }

bool netns_path::try_step(std::vector<std::string> argv) {
  if (verbose_) {
    std::string line = "+";
    for (const auto& a : argv) line += " " + a;
    std::cerr << line << '\n';
  }
  const auto r = netlib::app::run(argv, {}, std::chrono::seconds(10));
  if (verbose_ && r.exit_code != 0) std::cerr << "  -> exit " << r.exit_code << ": " << r.err;
  return r.exit_code == 0;
}

void netns_path::step(std::vector<std::string> argv) {
  std::string line;
  for (const auto& a : argv) line += (line.empty() ? "" : " ") + a;
  if (!try_step(std::move(argv))) throw netlib::app::failure("'" + line + "' failed (run with --verbose to see why)");
}

// netem (delay) at the root when the kernel has it, with tbf (rate) under it; else tbf alone.
void netns_path::shape(const std::string& ns, const std::string& dev, const path_settings& s) {
  const auto kbit = fmt::format("{}kbit", std::llround(s.rate_bps / 1e3));
  // Bucket: one full frame (the model's link sends one frame at a time at R; a bigger bucket lets
  // a burst leave faster than R, and a short transfer then measures more than R·MSS/frame);
  // queue: 50 ms at the rate. tbf splits GSO super-packets into frames that fit the bucket.
  const auto burst = fmt::format("{}", tbf_burst_bytes);
  std::vector<std::string> tbf{"tbf", "rate", kbit, "burst", burst, "latency", "50ms"};
  if (s.one_way_delay_s > 0) {
    netem_ = netem_ && try_step({tc_, "-n", ns, "qdisc", "add", "dev", dev, "root", "handle", "1:", "netem", "delay",
                                 fmt::format("{}us", std::llround(s.one_way_delay_s * 1e6)), "limit", "100000"});
    if (netem_) {
      std::vector<std::string> argv{tc_, "-n", ns, "qdisc", "add", "dev", dev, "parent", "1:1", "handle", "10:"};
      argv.insert(argv.end(), tbf.begin(), tbf.end());
      step(argv);
      return;
    }
  }
  std::vector<std::string> argv{tc_, "-n", ns, "qdisc", "add", "dev", dev, "root", "handle", "10:"};
  argv.insert(argv.end(), tbf.begin(), tbf.end());
  step(argv);
}

void netns_path::teardown() noexcept {
  for (auto it = created_.rbegin(); it != created_.rend(); ++it) {
    try {
      try_step({ip_, "netns", "del", *it});
    } catch (...) {  // keep deleting the others
    }
  }
  created_.clear();
}

}  // namespace netlab::lab_throughput
