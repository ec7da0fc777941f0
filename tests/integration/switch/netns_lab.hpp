#pragma once
// Network namespaces for the live switch tests: three hosts PREFIXh1..3 (eth0 10.0.0.I/24, MAC
// 02:00:00:00:00:0I) whose veth peers PREFIXs1..3 sit in the root namespace, optionally enslaved to
// a Linux bridge PREFIXbr (the kernel as the oracle). Names are unique per test run; everything is
// deleted by the destructor, even when the test fails.
#include "support/peers.hpp"
#include "support/process.hpp"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <random>
#include <string>
#include <vector>

namespace netlab::test {

inline std::string unique_prefix() {
  std::random_device rd;
  return "t" + std::to_string(::getpid() % 10000) + std::to_string(rd() % 1000);  // <= 8 chars
}

inline bool ok(const std::vector<std::string>& argv) {
  return run(argv, {}, std::chrono::seconds(20)).exit_code == 0;
}

class netns_hosts {
 public:
  netns_hosts(std::string prefix, bool with_bridge) : prefix_(std::move(prefix)), bridge_(with_bridge) {}
  ~netns_hosts() { tear_down(); }
  netns_hosts(const netns_hosts&) = delete;
  netns_hosts& operator=(const netns_hosts&) = delete;

  // Builds the hosts (and the bridge); false on any failure.
  bool build() {
    if (bridge_ && !(ok({"ip", "link", "add", br(), "type", "bridge"}) &&
                     ok({"ip", "link", "set", br(), "addrgenmode", "none"}) && ok({"ip", "link", "set", br(), "up"}))) {
      return false;
    }
    for (int i = 1; i <= 3; ++i) {
      const auto h = ns(i);
      const auto s = sw(i);
      const bool built = ok({"ip", "netns", "add", h}) &&
                         ok({"ip", "link", "add", s, "type", "veth", "peer", "name", s + "p", "netns", h}) &&
                         ok({"ip", "link", "set", s, "addrgenmode", "none"}) &&
                         ok({"ip", "-n", h, "link", "set", s + "p", "name", "eth0"}) &&
                         ok({"ip", "-n", h, "link", "set", "eth0", "address", mac(i), "addrgenmode", "none"}) &&
                         ok({"ip", "-n", h, "addr", "add", ip(i) + "/24", "dev", "eth0"}) &&
                         ok({"ip", "-n", h, "link", "set", "eth0", "up"}) &&
                         (!bridge_ || ok({"ip", "link", "set", s, "master", br()})) &&
                         ok({"ip", "link", "set", s, "up"});
      if (!built) return false;
    }
    return true;
  }

  void tear_down() {
    for (int i = 1; i <= 3; ++i) {
      run({"ip", "netns", "del", ns(i)});
      run({"ip", "link", "del", sw(i)});
    }
    if (bridge_) run({"ip", "link", "del", br()});
  }

  [[nodiscard]] std::string ns(int i) const { return prefix_ + "h" + std::to_string(i); }
  [[nodiscard]] std::string sw(int i) const { return prefix_ + "s" + std::to_string(i); }
  [[nodiscard]] std::string br() const { return prefix_ + "br"; }
  static std::string ip(int i) { return "10.0.0." + std::to_string(i); }
  static std::string mac(int i) { return "02:00:00:00:00:0" + std::to_string(i); }

 private:
  std::string prefix_;
  bool bridge_;
};

// What each host saw while host 1 pinged host 2.
struct ping_outcome {
  bool ping_ok = false;
  bool h3_saw_arp_broadcast = false;
  bool h3_saw_echo = false;
  bool h2_saw_echo = false;
  friend bool operator==(const ping_outcome&, const ping_outcome&) = default;
};

inline std::ostream& operator<<(std::ostream& os, const ping_outcome& o) {
  return os << "{ping_ok " << o.ping_ok << ", h3 saw ARP broadcast " << o.h3_saw_arp_broadcast << ", h3 saw echo "
            << o.h3_saw_echo << ", h2 saw echo " << o.h2_saw_echo << "}";
}

// A raw-socket observer inside a namespace (python3 stdlib): prints "ready", then after `seconds`
// one JSON line with every frame received on eth0 (direction, src, dst, ethertype).
inline const char* observer_script() {
  return R"PY(
import json, socket, sys, time
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.ntohs(3))
s.bind(("eth0", 0))
s.settimeout(0.1)
print("ready", flush=True)
end = time.time() + float(sys.argv[1])
seen = []
while time.time() < end and len(seen) < 10000:
    try:
        data, addr = s.recvfrom(65535)
    except socket.timeout:
        continue
    if addr[2] == socket.PACKET_OUTGOING:
        continue
    seen.append({"dst": data[0:6].hex(":"), "src": data[6:12].hex(":"), "type": data[12:14].hex()})
print(json.dumps(seen), flush=True)
)PY";
}

inline nlohmann::json observed(process& p) {
  p.wait(std::chrono::seconds(20));
  const auto& out = p.out();
  const auto last = out.rfind('[');
  if (last == std::string::npos) return nlohmann::json::array();
  return nlohmann::json::parse(out.substr(last));
}

// Host 1 pings host 2 (ARP first) while hosts 2 and 3 watch their eth0.
inline ping_outcome ping_scenario(const netns_hosts& hosts) {
  ping_outcome o;
  process h2({"ip", "netns", "exec", hosts.ns(2), "/usr/bin/python3", "-c", observer_script(), "4"});
  process h3({"ip", "netns", "exec", hosts.ns(3), "/usr/bin/python3", "-c", observer_script(), "4"});
  if (!h2.wait_for_line("ready") || !h3.wait_for_line("ready")) return o;
  o.ping_ok = run({"ip", "netns", "exec", hosts.ns(1), "ping", "-c", "3", "-i", "0.2", "-W", "2", netns_hosts::ip(2)},
                  {}, std::chrono::seconds(15))
                  .exit_code == 0;
  for (const auto& f : observed(h3)) {
    if (f["dst"] == "ff:ff:ff:ff:ff:ff" && f["type"] == "0806" && f["src"] == netns_hosts::mac(1))
      o.h3_saw_arp_broadcast = true;
    if (f["type"] == "0800" && f["dst"] == netns_hosts::mac(2)) o.h3_saw_echo = true;
  }
  for (const auto& f : observed(h2)) {
    if (f["type"] == "0800" && f["dst"] == netns_hosts::mac(2) && f["src"] == netns_hosts::mac(1)) o.h2_saw_echo = true;
  }
  return o;
}

}  // namespace netlab::test
