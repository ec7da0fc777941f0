#pragma once
// A two-namespace path for the throughput experiment, built with ip(8) and tc(8) and always torn
// down (netlib::app::netns_set): namespaces netlab-<pid>-s (server) and netlab-<pid>-c (client),
// joined by one veth pair created inside them (nothing is created in, or moved out of, the
// caller's namespace), with 10.254.0.1/30 and 10.254.0.2/30. Each direction gets netem delay
// (when the kernel has sch_netem) and a tbf rate limiter whose bucket holds one full frame.
#include <string>
#include <vector>

#include "netlib/app/netns.hpp"

namespace netlab::lab_throughput {

// tbf's bucket: one full Ethernet frame (1448 B of TCP payload + 66 B of headers).
inline constexpr int tbf_burst_bytes = 1514;

struct path_settings {
  double one_way_delay_s = 0.01;
  double rate_bps = 10e6;
};

class netns_path {
 public:
  // Throws netlib::app::failure (after tearing down what was built) when a step fails.
  netns_path(const path_settings& settings, bool verbose);

  [[nodiscard]] const std::string& server_ns() const { return server_; }
  [[nodiscard]] const std::string& client_ns() const { return client_; }
  static constexpr const char* server_address = "10.254.0.1";
  static constexpr const char* client_address = "10.254.0.2";
  // Whether netem applied the delay (false: this kernel has no sch_netem).
  [[nodiscard]] bool netem() const { return netem_; }
  // argv prefix that runs a program in a namespace: ip netns exec NS.
  [[nodiscard]] std::vector<std::string> exec_in(const std::string& ns) const { return set_.exec_in(ns); }

  // Deletes namespaces left by runs that were killed (netlib::app::netns_set::remove_stale).
  static std::size_t remove_stale(bool verbose) { return netlib::app::netns_set::remove_stale(verbose).size(); }

 private:
  void shape(const std::string& ns, const std::string& dev, const path_settings& s);
  netlib::app::netns_set set_;
  std::string tc_, server_, client_;
  bool netem_ = true;
};

}  // namespace netlab::lab_throughput
