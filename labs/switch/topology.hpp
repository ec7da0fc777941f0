#pragma once
// `lab-switch topology`: N hosts, each a network namespace PREFIXhI whose eth0 (10.0.0.I/24,
// MAC 02:00:00:00:00:I) is one end of a veth pair; the other end, PREFIXsI in the root namespace,
// is switch port I-1. Built with iproute2 (`ip`), torn down by the destructor.
#include <string>
#include <vector>

namespace netlab::lab_switch {

struct topology_host {
  std::string netns;
  std::string ip;
  std::string mac;
  std::string switch_interface;
};

class topology {
 public:
  // Throws netlib::app::failure (tearing down what it built) when a step fails.
  topology(const std::string& prefix, std::size_t hosts);
  ~topology();
  topology(const topology&) = delete;
  topology& operator=(const topology&) = delete;

  [[nodiscard]] const std::vector<topology_host>& hosts() const noexcept { return hosts_; }
  [[nodiscard]] std::vector<std::string> switch_interfaces() const;

 private:
  void build_host(std::size_t i);
  void tear_down() noexcept;
  std::vector<topology_host> hosts_;
};

// Runs a program (no shell) and waits; throws netlib::app::failure with its first stderr line
// when it fails.
void run_checked(const std::vector<std::string>& argv);

}  // namespace netlab::lab_switch
