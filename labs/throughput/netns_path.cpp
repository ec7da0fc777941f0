// Theory of operation: every change is made inside the two namespaces the netns_set names after
// this process; the set deletes them when the path is destroyed, or when a step of the
// constructor throws (the set is a member, so it is destroyed then too).
#include "netns_path.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "netlib/app/program.hpp"

namespace netlab::lab_throughput {

netns_path::netns_path(const path_settings& s, bool verbose)
    : set_(verbose), tc_(netlib::app::netns_set::find_tool("tc")) {
  if (tc_.empty()) throw netlib::app::failure("ip and tc are needed: apt-get install iproute2");
  server_ = set_.add("s");
  client_ = set_.add("c");
  const auto& ip = set_.ip();
  set_.step({ip, "-n", server_, "link", "add", "veth-s", "type", "veth", "peer", "name", "veth-c", "netns", client_});
  set_.step({ip, "-n", server_, "addr", "add", std::string(server_address) + "/30", "dev", "veth-s"});
  set_.step({ip, "-n", client_, "addr", "add", std::string(client_address) + "/30", "dev", "veth-c"});
  set_.step({ip, "-n", server_, "link", "set", "veth-s", "up"});
  set_.step({ip, "-n", client_, "link", "set", "veth-c", "up"});
  shape(server_, "veth-s", s);
  shape(client_, "veth-c", s);
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
    netem_ =
        netem_ && set_.try_step({tc_, "-n", ns, "qdisc", "add", "dev", dev, "root", "handle", "1:", "netem", "delay",
                                 fmt::format("{}us", std::llround(s.one_way_delay_s * 1e6)), "limit", "100000"});
    if (netem_) {
      std::vector<std::string> argv{tc_, "-n", ns, "qdisc", "add", "dev", dev, "parent", "1:1", "handle", "10:"};
      argv.insert(argv.end(), tbf.begin(), tbf.end());
      set_.step(argv);
      return;
    }
  }
  std::vector<std::string> argv{tc_, "-n", ns, "qdisc", "add", "dev", dev, "root", "handle", "10:"};
  argv.insert(argv.end(), tbf.begin(), tbf.end());
  set_.step(argv);
}

}  // namespace netlab::lab_throughput
