#pragma once
// A two-namespace path for the throughput experiment, built with ip(8) and tc(8) and always torn
// down: namespaces netlab-<pid>-s (server) and netlab-<pid>-c (client), joined by one veth pair
// created inside them (nothing is created in, or moved out of, the caller's namespace), with
// 10.254.0.1/30 and 10.254.0.2/30. Each direction gets netem delay (when the kernel has sch_netem)
// and a tbf rate limiter whose bucket holds one full frame.
#include <string>
#include <vector>

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
  ~netns_path();
  netns_path(const netns_path&) = delete;
  netns_path& operator=(const netns_path&) = delete;

  [[nodiscard]] const std::string& server_ns() const { return server_; }
  [[nodiscard]] const std::string& client_ns() const { return client_; }
  static constexpr const char* server_address = "10.254.0.1";
  static constexpr const char* client_address = "10.254.0.2";
  // Whether netem applied the delay (false: this kernel has no sch_netem).
  [[nodiscard]] bool netem() const { return netem_; }
  // argv prefix that runs a program in a namespace: ip netns exec NS.
  [[nodiscard]] std::vector<std::string> exec_in(const std::string& ns) const;

  // Paths of ip and tc, or empty when missing.
  static std::string find_tool(const std::string& name);
  // Deletes namespaces named netlab-<pid>-s/-c whose process no longer exists (left by a run that
  // was killed); never touches any other namespace. Returns how many were removed.
  static int remove_stale(bool verbose);

 private:
  void step(std::vector<std::string> argv);
  bool try_step(std::vector<std::string> argv);
  void shape(const std::string& ns, const std::string& dev, const path_settings& s);
  void teardown() noexcept;
  std::string ip_, tc_, server_, client_;
  bool verbose_ = false;
  bool netem_ = true;
  std::vector<std::string> created_;
};

}  // namespace netlab::lab_throughput
