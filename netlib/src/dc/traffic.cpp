// Theory of operation: every random choice comes from one netlib::calc::prng stream seeded by the
// configuration, in a fixed order (participants' ring or derangement, then per flow: ends, size,
// start, ports), so a seed gives the same flows on every platform.
#include "netlib/dc/traffic.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <unordered_set>

#include "netlib/calc/prng.hpp"

namespace netlib::dc {
namespace {

using calc::prng;

void shuffle(std::vector<node_id>& v, prng& g) {
  for (std::size_t i = v.size(); i > 1; --i) {
    const auto j = static_cast<std::size_t>(g.between(0, static_cast<long long>(i) - 1));
    std::swap(v[i - 1], v[j]);
  }
}

// Ports unique per host: draws until a free one comes up (bounded: the ranges hold thousands).
class port_pool {
 public:
  port_pool(std::uint16_t lo, std::uint16_t hi) : lo_(lo), hi_(hi) {}
  std::uint16_t take(node_id host, prng& g) {
    auto& used = used_[host];
    if (used.size() >= static_cast<std::size_t>(hi_ - lo_ + 1) / 2) {
      throw std::invalid_argument(
          fmt::format("more than {} flows at one host: not enough distinct ports", (hi_ - lo_ + 1) / 2));
    }
    for (;;) {
      const auto p = static_cast<std::uint16_t>(g.between(lo_, hi_));
      if (used.insert(p).second) return p;
    }
  }

 private:
  std::uint16_t lo_, hi_;
  std::map<node_id, std::unordered_set<std::uint16_t>> used_;
};

}  // namespace

packet::ip_address host_address(std::size_t host_index) {
  const std::uint32_t v = (10u << 24) + 4u * static_cast<std::uint32_t>(host_index) + 2u;
  packet::ip_address a;
  for (int i = 0; i < 4; ++i) a.octets[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(v >> (24 - 8 * i));
  return a;
}

std::string pattern_name(traffic_pattern p) {
  switch (p) {
    case traffic_pattern::uniform:
      return "uniform";
    case traffic_pattern::permutation:
      return "permutation";
    case traffic_pattern::incast:
      return "incast";
    case traffic_pattern::all_to_all:
      return "all-to-all";
    case traffic_pattern::ring:
      return "ring";
  }
  return "?";
}

bool parse_pattern(std::string_view text, traffic_pattern& out) {
  for (auto p : {traffic_pattern::uniform, traffic_pattern::permutation, traffic_pattern::incast,
                 traffic_pattern::all_to_all, traffic_pattern::ring}) {
    if (text == pattern_name(p)) {
      out = p;
      return true;
    }
  }
  return false;
}

std::vector<flow> generate_flows(const topology& t, const traffic_config& c) {
  if (t.hosts().size() > (1u << 22)) throw std::invalid_argument("more than 4194304 hosts cannot be addressed");
  const std::size_t available = t.hosts().size();
  const std::size_t p = c.hosts == 0 ? available : c.hosts;
  if (p > available)
    throw std::invalid_argument(fmt::format("{} participants, but the fabric has {} hosts", p, available));
  if (p < 2) throw std::invalid_argument("flows need at least two hosts");
  if (!(c.size_bytes >= 1) || c.size_bytes > 1e15) throw std::invalid_argument("a flow size is 1 byte to 1 PB");
  if (c.pareto_alpha != 0 && !(c.pareto_alpha > 1 && c.pareto_alpha <= 10)) {
    throw std::invalid_argument("the Pareto shape must be above 1 (a finite mean) and at most 10");
  }
  if (!(c.window_s > 0)) throw std::invalid_argument("the time window must be positive");
  constexpr std::size_t max_flows = 50'000'000;
  const bool counted = c.pattern != traffic_pattern::all_to_all && c.pattern != traffic_pattern::ring;
  if (counted && (c.flows < 1 || c.flows > max_flows)) {
    throw std::invalid_argument(fmt::format("the number of flows is 1 to {}", max_flows));
  }
  if (c.pattern == traffic_pattern::all_to_all && p * (p - 1) > max_flows) {
    throw std::invalid_argument("all-to-all among that many hosts is more than 50000000 flows");
  }

  prng g(c.seed);
  std::vector<node_id> part(t.hosts().begin(), t.hosts().begin() + static_cast<std::ptrdiff_t>(p));
  std::vector<std::pair<node_id, node_id>> ends;
  double size = c.size_bytes;
  switch (c.pattern) {
    case traffic_pattern::uniform:
      for (std::size_t i = 0; i < c.flows; ++i) {
        const auto a = static_cast<std::size_t>(g.between(0, static_cast<long long>(p) - 1));
        auto b = static_cast<std::size_t>(g.between(0, static_cast<long long>(p) - 2));
        if (b >= a) ++b;
        ends.emplace_back(part[a], part[b]);
      }
      break;
    case traffic_pattern::permutation: {
      // Sattolo's algorithm: a uniformly random cyclic permutation, which has no fixed point.
      std::vector<node_id> to = part;
      for (std::size_t i = p - 1; i > 0; --i) {
        const auto j = static_cast<std::size_t>(g.between(0, static_cast<long long>(i) - 1));
        std::swap(to[i], to[j]);
      }
      for (std::size_t i = 0; i < c.flows; ++i) ends.emplace_back(part[i % p], to[i % p]);
      break;
    }
    case traffic_pattern::incast: {
      const auto sink = static_cast<std::size_t>(g.between(0, static_cast<long long>(p) - 1));
      for (std::size_t i = 0; i < c.flows; ++i) {
        auto s = static_cast<std::size_t>(g.between(0, static_cast<long long>(p) - 2));
        if (s >= sink) ++s;
        ends.emplace_back(part[s], part[sink]);
      }
      break;
    }
    case traffic_pattern::all_to_all:
      for (std::size_t a = 0; a < p; ++a) {
        for (std::size_t b = 0; b < p; ++b) {
          if (a != b) ends.emplace_back(part[a], part[b]);
        }
      }
      break;
    case traffic_pattern::ring:
      shuffle(part, g);
      for (std::size_t i = 0; i < p; ++i) ends.emplace_back(part[i], part[(i + 1) % p]);
      size = c.size_bytes * 2.0 * static_cast<double>(p - 1) / static_cast<double>(p);
      break;
  }
  port_pool sports(32768, 60999), dports(5000, 14999);
  std::vector<flow> flows;
  flows.reserve(ends.size());
  const double xm = c.pareto_alpha > 1 ? c.size_bytes * (c.pareto_alpha - 1) / c.pareto_alpha : 0;
  for (const auto& [s, d] : ends) {
    flow f;
    f.src = s;
    f.dst = d;
    f.key.src = host_address(t.host_index(s));
    f.key.dst = host_address(t.host_index(d));
    f.key.protocol = c.protocol;
    if (c.pareto_alpha > 1) {
      const double u = 1.0 - g.uniform();  // (0, 1]
      f.bytes = std::min(std::round(xm / std::pow(u, 1.0 / c.pareto_alpha)), 1000 * c.size_bytes);
      f.bytes = std::max(f.bytes, 1.0);
    } else {
      f.bytes = std::round(size);
    }
    f.start_s = g.uniform() * c.window_s;
    if (c.unique_ports) {
      f.key.src_port = sports.take(s, g);
      f.key.dst_port = dports.take(d, g);
    } else {
      f.key.src_port = static_cast<std::uint16_t>(g.between(32768, 60999));
      f.key.dst_port = static_cast<std::uint16_t>(g.between(5000, 14999));
    }
    flows.push_back(f);
  }
  return flows;
}

captured_flows flows_from_conversations(const topology& t, std::span<const conversation_flow> conversations) {
  if (t.hosts().empty()) throw std::invalid_argument("the fabric has no hosts to place the capture's addresses on");
  captured_flows out;
  // Hosts in rack order: the first host of every switch with hosts, then the second of each, ...
  std::vector<node_id> order;
  {
    std::vector<std::vector<node_id>> per_switch(t.edge_switches().size());
    std::map<node_id, std::size_t> index;
    for (std::size_t i = 0; i < t.edge_switches().size(); ++i) index[t.edge_switches()[i]] = i;
    for (node_id h : t.hosts()) per_switch[index.at(t.attachment(h))].push_back(h);
    for (std::size_t round = 0; order.size() < t.hosts().size(); ++round) {
      for (const auto& hosts : per_switch) {
        if (round < hosts.size()) order.push_back(hosts[round]);
      }
    }
  }
  std::map<packet::ip_address, node_id> placed;
  const auto host_of = [&](const packet::ip_address& a) {
    auto it = placed.find(a);
    if (it != placed.end()) return it->second;
    const node_id h = order[placed.size() % order.size()];
    placed.emplace(a, h);
    out.placed_addresses.emplace_back(a, h);
    return h;
  };
  for (const auto& c : conversations) {
    const node_id a = host_of(c.key.src);
    const node_id b = host_of(c.key.dst);
    if (c.bytes_ab > 0) out.flows.push_back(flow{c.key, a, b, c.bytes_ab, c.start_s});
    if (c.bytes_ba > 0) {
      flow_key back{c.key.dst, c.key.src, c.key.protocol, c.key.dst_port, c.key.src_port};
      out.flows.push_back(flow{back, b, a, c.bytes_ba, c.start_s});
    }
  }
  return out;
}

}  // namespace netlib::dc
