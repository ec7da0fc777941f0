#pragma once
// Real traffic through a netns_fabric: every flow gets its own sockets in its hosts' namespaces,
// bound to the flow's addresses and ports, so the kernel hashes exactly the 5-tuple the model
// hashes. UDP senders are unconnected (a connected or TCP socket carries its own random flow
// hash, which Linux's L4 multipath policy then uses instead of the 5-tuple); receivers count
// what arrives. Bounded in time; stops early on SIGINT/SIGTERM (the flag).
#include <cstdint>
#include <span>
#include <vector>

#include "netlib/dc/ecmp.hpp"
#include "netlib/dc/topology.hpp"
#include "netns_fabric.hpp"

namespace netlab::lab_dc {

struct traffic_result {
  std::vector<double> wire_bytes;            // per flow: frames sent (UDP: exact; TCP: payload + 66 B per 1448 B)
  std::vector<std::uint64_t> payload_sent;   // per flow
  std::vector<std::uint64_t> payload_received;
  std::uint64_t datagrams_sent = 0, datagrams_received = 0;  // UDP
  double duration_s = 0;
  bool complete = false;                     // everything sent arrived before the deadline
};

// UDP: each flow's bytes as datagrams of `payload` bytes (the last one shorter).
traffic_result send_udp(const netns_fabric& fabric, std::span<const netlib::dc::flow> flows,
                        std::size_t payload, double deadline_s);
// TCP: one connection per flow, each sending its bytes, all at once.
traffic_result send_tcp(const netns_fabric& fabric, std::span<const netlib::dc::flow> flows,
                        double deadline_s);

}  // namespace netlab::lab_dc
