#pragma once
// Real traffic through a netns_fabric: every flow gets its own sockets in its hosts' namespaces,
// bound to the flow's addresses and ports, so the kernel hashes exactly the 5-tuple the model
// hashes. UDP senders are unconnected (a connected or TCP socket carries its own random flow
// hash, which Linux's L4 multipath policy then uses instead of the 5-tuple); receivers count
// what arrives. Bounded in time; stops early on SIGINT/SIGTERM (the flag).
#include <netinet/in.h>
#include <unistd.h>

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "netlib/dc/ecmp.hpp"
#include "netlib/dc/topology.hpp"
#include "netlib/io/unique_fd.hpp"
#include "netns_fabric.hpp"

namespace netlab::lab_dc {

// A socket closed when it goes: the project's one descriptor owner.
using fd_guard = netlib::io::unique_fd;

// Throws failure("WHAT: strerror(errno)").
[[noreturn]] void fail(const std::string& what);
sockaddr_in address_of(const netlib::packet::ip_address& a, std::uint16_t port);
// A non-blocking socket of `type` opened inside namespace `ns`, bound to a:port (SO_REUSEADDR);
// throws failure naming the address.
fd_guard open_socket(const std::string& ns, int type, const netlib::packet::ip_address& a, std::uint16_t port);
// Raises the soft limit on open files to `needed` + 64 when the hard limit allows.
void raise_file_limit(std::size_t needed);

struct traffic_result {
  std::vector<double> wire_bytes;           // per flow: frames sent (UDP: exact; TCP: payload + 66 B per 1448 B)
  std::vector<std::uint64_t> payload_sent;  // per flow
  std::vector<std::uint64_t> payload_received;
  std::vector<double> finish_s;  // per flow (TCP): when its receiver saw the end of the stream; NaN if never
  std::uint64_t datagrams_sent = 0, datagrams_received = 0;  // UDP
  double duration_s = 0;
  bool complete = false;  // everything sent arrived before the deadline
  // With a midway_event: when it ran (s after the start), what each flow had sent by then (UDP:
  // datagrams' frame bytes; TCP: payload written), and the datagrams still in flight after it
  // that never arrived (lost on the failed link or behind it).
  bool event_ran = false;
  double event_at_s = 0;
  std::vector<double> wire_bytes_before;
  std::uint64_t datagrams_lost = 0;
};

// Something done once while the traffic flows (lab-dc run --fail: a link set down): `action` runs
// as soon as `fraction` of the datagrams (UDP) or of the payload (TCP) has been sent, between two
// sends; what is in flight meanwhile goes on. `tick` runs after every round of sending (the
// capture reads its sockets).
struct midway_event {
  double fraction = 0.5;
  std::function<void()> action;
  std::function<void()> tick;
};

// UDP: each flow's bytes as datagrams of `payload` bytes (the last one shorter).
traffic_result send_udp(const netns_fabric& fabric, std::span<const netlib::dc::flow> flows, std::size_t payload,
                        double deadline_s, const midway_event* event = nullptr);
// TCP: one connection per flow, each sending its bytes, all at once.
traffic_result send_tcp(const netns_fabric& fabric, std::span<const netlib::dc::flow> flows, double deadline_s,
                        const midway_event* event = nullptr);

}  // namespace netlab::lab_dc
