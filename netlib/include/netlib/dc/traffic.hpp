#pragma once
// Flows for the fabric (docs/architecture.md, "Data-centre core"), generated from a seed or taken
// from recorded conversations.
//
// Host i (in topology order) has the address 10.0.0.0 + 4·i + 2 (h1 10.0.0.2, h2 10.0.0.6, ...):
// the model hashes these, and lab-dc run gives the namespaces the same ones.
//
// Patterns (participants: the first `hosts` hosts, or all):
//   uniform       each flow between two different participants drawn at random
//   permutation   a random derangement p of the participants; flow i goes from participant
//                 i mod P to p(i mod P)
//   incast        every flow ends at one participant (drawn at random), from the others at random
//   all_to_all    one flow per ordered pair of participants (P·(P-1) flows; `flows` is ignored)
//   ring          ring all-reduce: participants in a random ring, each sends 2(P-1)/P of the
//                 buffer (`size_bytes`) to its successor (P flows)
// Sizes: `size_bytes` each, or with pareto_alpha > 1 Pareto-distributed with that shape and mean
// size_bytes, cut at 1000 × size_bytes. Ports: a source port in 32768-60999 and a destination
// port in 5000-14999; with unique_ports, no two flows share a source port at their source host or
// a destination port at their destination host (so each has its own sockets in lab-dc run).
// Start times are uniform in [0, window_s).
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "netlib/dc/ecmp.hpp"
#include "netlib/dc/topology.hpp"

namespace netlib::dc {

packet::ip_address host_address(std::size_t host_index);

enum class traffic_pattern : std::uint8_t { uniform, permutation, incast, all_to_all, ring };
std::string pattern_name(traffic_pattern p);
bool parse_pattern(std::string_view text,
                   traffic_pattern& out);  // "uniform", "permutation", "incast", "all-to-all", "ring"

struct traffic_config {
  traffic_pattern pattern = traffic_pattern::uniform;
  std::size_t flows = 100;
  std::size_t hosts = 0;  // participants; 0: every host
  double size_bytes = 1e6;
  double pareto_alpha = 0;  // 0: every flow is size_bytes
  double window_s = 1;
  std::uint64_t seed = 1;
  std::uint8_t protocol = 6;  // 6 TCP, 17 UDP
  bool unique_ports = false;
};

// Throws std::invalid_argument naming what is wrong (too few hosts, a size or count out of range).
std::vector<flow> generate_flows(const topology& t, const traffic_config& c);

// A conversation seen in a capture, in one direction or both (the capture layer's figures).
struct conversation_flow {
  flow_key key;         // a -> b
  double bytes_ab = 0;  // frame bytes a -> b
  double bytes_ba = 0;  // frame bytes b -> a
  double start_s = 0;   // since the capture's first packet
};

// Flows from recorded conversations: one flow per direction that carried bytes. The distinct
// addresses (in order of first appearance) are dealt out over the racks: the first to the first
// host of the first switch with hosts, the next to the first host of the next switch, ..., then
// the second host of each switch, and so on (the k-th address goes on host k mod H of that rack
// order), so two addresses land on two racks whenever the fabric has two, and a capture with more
// addresses than the fabric has hosts folds them onto the hosts; a flow whose two addresses land
// on the same host is kept and placed nowhere (placement::same_host). Keys keep the captured
// addresses and ports: the hash sees what the switches would have seen.
struct captured_flows {
  std::vector<flow> flows;
  std::vector<std::pair<packet::ip_address, node_id>> placed_addresses;  // address -> host
};
captured_flows flows_from_conversations(const topology& t, std::span<const conversation_flow> conversations);

}  // namespace netlib::dc
