// Theory of operation: place_jobs hands out hosts and ports; every scheduler is a set of paths
// plus a priority level per job, and simulate_collective plays every job's iterations on a
// fluid_network (fair_share.hpp): a job's state moves waiting -> computing -> step 0 .. step
// 2(N-1)-1 -> computing -> ... -> done, every transition at an event time (a start, a compute
// timer, or the end of a step's last flow), and several transitions may happen at one time (no
// computation, a step of empty flows). The provider's paths are a greedy placement followed by
// single-flow moves, each scored by the fabric arcs of its path only: a host's own link carries
// all of its channels whatever the routing.
#include "netlib/dc/collective.hpp"
#include "netlib/core/ascii.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>
#include <unordered_set>

#include "netlib/calc/prng.hpp"
#include "netlib/core/units.hpp"
#include "netlib/dc/te.hpp"
#include "netlib/dc/traffic.hpp"

namespace netlib::dc {
namespace {

std::string default_name(std::size_t i) {
  if (i < 26) return std::string(1, static_cast<char>('A' + i));
  return fmt::format("J{}", i + 1);
}

bool valid_name(std::string_view n) {
  if (n.empty() || n.size() > 32) return false;
  return std::all_of(n.begin(), n.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
           c == '.';
  });
}

std::uint64_t parse_count(std::string_view key, std::string_view v, std::uint64_t lo, std::uint64_t hi) {
  std::uint64_t n = 0;
  if (v.empty() || v.size() > 19)
    throw std::invalid_argument(fmt::format("{}={}: expected a whole number", key, ascii::excerpt(v)));
  for (char c : v) {
    if (c < '0' || c > '9')
      throw std::invalid_argument(fmt::format("{}={}: expected a whole number", key, ascii::excerpt(v)));
    n = n * 10 + static_cast<std::uint64_t>(c - '0');
  }
  if (n < lo || n > hi) throw std::invalid_argument(fmt::format("{}={}: must be {} to {}", key, n, lo, hi));
  return n;
}

bool between_switches(const topology& t, arc_id a) {
  return !t.is_host(t.arc_from(a)) && !t.is_host(t.arc_to(a));
}

double wire_bytes(double payload, const simulation_options& o) {
  if (o.header_bytes_per_segment <= 0 || payload <= 0) return payload;
  return payload + o.header_bytes_per_segment * std::ceil(payload / o.mss);
}

}  // namespace

std::string placement_name(placement_policy p) {
  switch (p) {
    case placement_policy::packed:
      return "packed";
    case placement_policy::rack_aware:
      return "rack-aware";
    case placement_policy::random:
      return "random";
  }
  return "?";
}

job_spec parse_job(std::string_view text, const job_limits& limits) {
  job_spec j;
  std::set<std::string, std::less<>> seen;
  std::size_t at = 0;
  if (text.size() > 1024) throw std::invalid_argument("a job is at most 1024 characters");
  while (at <= text.size()) {
    const auto comma = text.find(',', at);
    const auto item = text.substr(at, comma == std::string_view::npos ? std::string_view::npos : comma - at);
    at = comma == std::string_view::npos ? text.size() + 1 : comma + 1;
    if (item.empty()) continue;
    const auto eq = item.find('=');
    if (eq == std::string_view::npos) {
      throw std::invalid_argument(
          fmt::format("'{}': expected KEY=VALUE (keys: name, ranks, placement, seed, buffer, "
                      "channels, compute, iterations, start)",
                      ascii::excerpt(item)));
    }
    const auto key = item.substr(0, eq), value = item.substr(eq + 1);
    if (!seen.insert(std::string(key)).second)
      throw std::invalid_argument(fmt::format("{} is given twice", ascii::excerpt(key)));
    try {
      if (key == "name") {
        if (!valid_name(value))
          throw std::invalid_argument(
              fmt::format("name={}: 1 to 32 letters, digits, '_', '-' or '.'", ascii::excerpt(value)));
        j.name = std::string(value);
      } else if (key == "ranks") {
        j.ranks = static_cast<std::size_t>(parse_count(key, value, 2, limits.max_ranks));
      } else if (key == "placement") {
        if (value == "packed")
          j.placement = placement_policy::packed;
        else if (value == "rack-aware")
          j.placement = placement_policy::rack_aware;
        else if (value == "random")
          j.placement = placement_policy::random;
        else
          throw std::invalid_argument(
              fmt::format("placement={}: use packed, rack-aware or random", ascii::excerpt(value)));
      } else if (key == "seed") {
        j.seed = parse_count(key, value, 0, ~std::uint64_t{0} >> 1);
      } else if (key == "buffer") {
        j.buffer_bytes = units::parse_bytes(value);
        if (!(j.buffer_bytes >= 1) || j.buffer_bytes > limits.max_buffer_bytes) {
          throw std::invalid_argument(fmt::format("buffer={}: must be 1B to {}", ascii::excerpt(value),
                                                  units::format_bytes(limits.max_buffer_bytes)));
        }
      } else if (key == "channels") {
        j.channels = static_cast<std::size_t>(parse_count(key, value, 1, limits.max_channels));
      } else if (key == "compute") {
        j.compute_s = units::parse_duration_s(value);
        if (!(j.compute_s >= 0) || j.compute_s > 86400)
          throw std::invalid_argument(fmt::format("compute={}: must be 0 to 1 day", ascii::excerpt(value)));
      } else if (key == "iterations") {
        j.iterations = static_cast<std::size_t>(parse_count(key, value, 1, limits.max_iterations));
      } else if (key == "start") {
        j.start_s = units::parse_duration_s(value);
        if (!(j.start_s >= 0) || j.start_s > 86400)
          throw std::invalid_argument(fmt::format("start={}: must be 0 to 1 day", ascii::excerpt(value)));
      } else {
        throw std::invalid_argument(
            fmt::format("unknown key '{}' (keys: name, ranks, placement, seed, buffer, channels, "
                        "compute, iterations, start)",
                        ascii::excerpt(key)));
      }
    } catch (const units::unit_error& e) {
      throw std::invalid_argument(fmt::format("{}={}: {}", ascii::excerpt(key), ascii::excerpt(value), e.what()));
    }
  }
  return j;
}

collective_setup place_jobs(const topology& t, std::span<const job_spec> jobs, std::uint8_t protocol) {
  collective_setup s;
  std::vector<char> taken(t.nodes().size(), 0);
  std::set<std::string> names;
  for (std::size_t ji = 0; ji < jobs.size(); ++ji) {
    placed_job p;
    p.spec = jobs[ji];
    if (p.spec.name.empty()) p.spec.name = default_name(ji);
    if (!names.insert(p.spec.name).second)
      throw std::invalid_argument(fmt::format("two jobs are named {}", p.spec.name));
    const std::size_t n = p.spec.ranks;
    if (n < 2) throw std::invalid_argument(fmt::format("job {}: a ring needs at least 2 ranks", p.spec.name));
    if (p.spec.channels < 1)
      throw std::invalid_argument(fmt::format("job {}: at least one channel per ring edge", p.spec.name));
    if (p.spec.iterations < 1) throw std::invalid_argument(fmt::format("job {}: at least one iteration", p.spec.name));
    std::vector<node_id> free;
    for (node_id h : t.hosts()) {
      if (!taken[h]) free.push_back(h);
    }
    if (free.size() < n) {
      throw std::invalid_argument(fmt::format("job {}: {} ranks, but only {} of the fabric's {} hosts are free",
                                              p.spec.name, n, free.size(), t.hosts().size()));
    }
    if (p.spec.placement == placement_policy::packed) {
      p.hosts.assign(free.begin(), free.begin() + static_cast<std::ptrdiff_t>(n));
    } else {
      // A partial Fisher-Yates shuffle: the first n of a uniformly random order.
      calc::prng g(p.spec.seed);
      for (std::size_t i = 0; i < n; ++i) {
        const auto k =
            static_cast<std::size_t>(g.between(static_cast<long long>(i), static_cast<long long>(free.size()) - 1));
        std::swap(free[i], free[k]);
        p.hosts.push_back(free[i]);
      }
      if (p.spec.placement == placement_policy::rack_aware) {
        std::stable_sort(p.hosts.begin(), p.hosts.end(), [&](node_id a, node_id b) {
          return std::pair(t.attachment(a), t.host_index(a)) < std::pair(t.attachment(b), t.host_index(b));
        });
      }
    }
    for (node_id h : p.hosts) taken[h] = 1;
    // Ports: one listening port per rank, one source port per channel, distinct on each host
    // (a host runs one rank), drawn from the job's seed and its position.
    calc::prng ports(p.spec.seed * 1000003u + ji + 1);
    for (std::size_t r = 0; r < n; ++r) p.listen_port.push_back(static_cast<std::uint16_t>(ports.between(5000, 14999)));
    for (std::size_t e = 0; e < n; ++e) {
      const node_id src = p.hosts[e], dst = p.hosts[(e + 1) % n];
      std::unordered_set<std::uint16_t> used;
      for (std::size_t c = 0; c < p.spec.channels; ++c) {
        std::uint16_t port = 0;
        do port = static_cast<std::uint16_t>(ports.between(32768, 60999));
        while (!used.insert(port).second);
        ring_flow rf;
        rf.job = ji;
        rf.edge = e;
        rf.channel = c;
        rf.f.src = src;
        rf.f.dst = dst;
        rf.f.key = {host_address(t.host_index(src)), host_address(t.host_index(dst)), protocol, port,
                    p.listen_port[(e + 1) % n]};
        p.flows.push_back(s.flows.size());
        s.flows.push_back(rf);
      }
    }
    s.jobs.push_back(std::move(p));
  }
  return s;
}

std::size_t ring_send_chunk(std::size_t rank, std::size_t step, std::size_t n) noexcept {
  if (step + 1 < n) return (rank + n - step % n) % n;  // reduce-scatter
  const std::size_t t = step - (n - 1);                // all-gather
  return (rank + 1 + n - t % n) % n;
}

std::size_t ring_receive_chunk(std::size_t rank, std::size_t step, std::size_t n) noexcept {
  return ring_send_chunk((rank + n - 1) % n, step, n);
}

std::pair<std::size_t, std::size_t> split_range(std::size_t count, std::size_t part, std::size_t parts) noexcept {
  // count < 2^40 and parts < 2^16 in every use (job_limits), so the product fits.
  const auto at = [&](std::size_t i) { return static_cast<std::size_t>(std::uint64_t{count} * i / parts); };
  return {at(part), at(part + 1)};
}

double ring_step_bytes(const collective_setup& s, std::size_t flow, std::size_t step, std::size_t element_bytes) {
  const auto& rf = s.flows[flow];
  const auto& j = s.jobs[rf.job];
  const std::size_t n = j.hosts.size(), k = j.spec.channels;
  if (element_bytes == 0) return j.spec.buffer_bytes / static_cast<double>(n * k);
  const auto elements = static_cast<std::size_t>(j.spec.buffer_bytes / static_cast<double>(element_bytes));
  const auto [c0, c1] = split_range(elements, ring_send_chunk(rf.edge, step % j.steps(), n), n);
  const auto [p0, p1] = split_range(c1 - c0, rf.channel, k);
  return static_cast<double>((p1 - p0) * element_bytes);
}

path_list ecmp_paths(const ecmp_model& model, const collective_setup& s) {
  path_list out;
  std::vector<arc_id> path(model.max_path());
  for (const auto& rf : s.flows) {
    const std::size_t n = model.route(rf.f, path);
    out.add(std::span<const arc_id>(path.data(), n));
  }
  return out;
}

provider_placement provider_paths(const topology& t, const routes& r, const collective_setup& s) {
  constexpr std::size_t max_candidates = 64;
  // Candidate paths between two edge switches: every shortest path, in next-hop order.
  std::map<std::pair<node_id, node_id>, std::vector<std::vector<arc_id>>> candidates;
  const auto paths_between = [&](node_id from, node_id to) -> const std::vector<std::vector<arc_id>>& {
    const auto emplaced = candidates.try_emplace({from, to});
    const auto it = emplaced.first;  // a plain variable: the lambda below refers to it
    if (!emplaced.second) return it->second;
    std::vector<arc_id> stack;
    const auto walk = [&](auto&& self, node_id v) -> void {
      if (it->second.size() >= max_candidates) return;
      if (v == to) {
        it->second.push_back(stack);
        return;
      }
      for (arc_id a : r.next_hops(v, to)) {
        stack.push_back(a);
        self(self, t.arc_to(a));
        stack.pop_back();
      }
    };
    if (r.distance(from, to) == routes::unreachable()) {
      throw std::invalid_argument(fmt::format("no path from {} to {}", t.nodes()[from].name, t.nodes()[to].name));
    }
    walk(walk, from);
    return it->second;
  };
  std::vector<std::uint32_t> total(t.arc_count(), 0), same(t.arc_count(), 0);
  std::vector<double> demand(t.arc_count(), 0);
  std::vector<std::size_t> choice(s.flows.size(), 0);
  double wants = 0;  // the demand of the flow being placed
  const auto cost = [&](const std::vector<arc_id>& p) {
    std::uint32_t max_same = 0, max_total = 0, sum = 0;
    double worst = 0;
    for (arc_id a : p) {
      max_same = std::max(max_same, same[a]);
      worst = std::max(worst, (demand[a] + wants) / t.capacity(a));
      max_total = std::max(max_total, total[a]);
      sum += total[a];
    }
    // Demands are multiples of a few rates: compare them rounded, so that ties stay ties.
    return std::tuple(max_same, std::llround(worst * 1e6), max_total, sum);
  };
  const auto apply = [&](const std::vector<arc_id>& p, int d) {
    for (arc_id a : p) {
      same[a] = static_cast<std::uint32_t>(static_cast<int>(same[a]) + d);
      total[a] = static_cast<std::uint32_t>(static_cast<int>(total[a]) + d);
      demand[a] += d * wants;
    }
  };
  const auto options_of = [&](const ring_flow& rf) -> const std::vector<std::vector<arc_id>>& {
    return paths_between(t.attachment(rf.f.src), t.attachment(rf.f.dst));
  };
  const auto best = [&](const std::vector<std::vector<arc_id>>& opts) {
    std::size_t b = 0;
    for (std::size_t i = 1; i < opts.size(); ++i) {
      if (cost(opts[i]) < cost(opts[b])) b = i;
    }
    return b;
  };
  for (const auto& job : s.jobs) {
    std::fill(same.begin(), same.end(), 0);
    for (std::size_t f : job.flows) {
      const auto& opts = options_of(s.flows[f]);
      if (opts.empty()) continue;  // both ends on one switch: no fabric arc
      wants = flow_demand_bps(t, s, f);
      choice[f] = best(opts);
      apply(opts[choice[f]], +1);
    }
    // Single-flow moves while one lowers the flow's own cost (at most 20 passes).
    for (int pass = 0; pass < 20; ++pass) {
      bool moved = false;
      for (std::size_t f : job.flows) {
        const auto& opts = options_of(s.flows[f]);
        if (opts.size() < 2) continue;
        wants = flow_demand_bps(t, s, f);
        apply(opts[choice[f]], -1);
        const std::size_t b = best(opts);
        if (cost(opts[b]) < cost(opts[choice[f]])) {
          choice[f] = b;
          moved = true;
        }
        apply(opts[choice[f]], +1);
      }
      if (!moved) break;
    }
  }
  provider_placement out;
  std::map<std::pair<arc_id, std::size_t>, std::size_t> per_job;
  for (std::size_t f = 0; f < s.flows.size(); ++f) {
    const auto& rf = s.flows[f];
    std::vector<arc_id> path{t.host_uplink(rf.f.src)};
    const auto& opts = options_of(rf);
    if (!opts.empty()) {
      path.insert(path.end(), opts[choice[f]].begin(), opts[choice[f]].end());
      for (arc_id a : opts[choice[f]]) ++per_job[{a, rf.job}];
    }
    path.push_back(t.host_uplink(rf.f.dst) ^ 1u);
    out.paths.add(path);
  }
  for (const auto& [key, count] : per_job) out.same_job_shared_arcs += count >= 2;
  return out;
}

std::vector<double> gpu_intensity(const topology& t, const collective_setup& s, const path_list& paths) {
  std::vector<double> out;
  std::vector<double> bytes(t.arc_count());
  for (std::size_t ji = 0; ji < s.jobs.size(); ++ji) {
    const auto& j = s.jobs[ji];
    std::fill(bytes.begin(), bytes.end(), 0.0);
    for (std::size_t f : j.flows) {
      double per_iteration = 0;
      for (std::size_t step = 0; step < j.steps(); ++step) per_iteration += ring_step_bytes(s, f, step);
      for (arc_id a : paths[f]) bytes[a] += per_iteration;
    }
    double busiest = 0;
    for (arc_id a = 0; a < t.arc_count(); ++a) busiest = std::max(busiest, bytes[a] * 8 / t.capacity(a));
    const double work = static_cast<double>(j.hosts.size()) * j.spec.compute_s;
    out.push_back(busiest > 0 ? work / busiest : 0.0);
  }
  return out;
}

std::vector<std::uint32_t> intensity_levels(std::span<const double> intensity) {
  std::vector<double> distinct(intensity.begin(), intensity.end());
  std::sort(distinct.begin(), distinct.end(), std::greater<>());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  std::vector<std::uint32_t> out;
  for (double v : intensity) {
    out.push_back(static_cast<std::uint32_t>(std::find(distinct.begin(), distinct.end(), v) - distinct.begin()));
  }
  return out;
}

double flow_demand_bps(const topology& t, const collective_setup& s, std::size_t flow) {
  const auto& rf = s.flows[flow];
  const double ends = std::min(t.capacity(t.host_uplink(rf.f.src)), t.capacity(t.host_uplink(rf.f.dst) ^ 1u));
  return ends / static_cast<double>(s.jobs[rf.job].spec.channels);
}

std::vector<collision> find_collisions(const topology& t, const collective_setup& s, const path_list& paths) {
  std::vector<std::vector<std::size_t>> on(t.arc_count());
  for (std::size_t f = 0; f < s.flows.size(); ++f) {
    for (arc_id a : paths[f]) {
      if (between_switches(t, a)) on[a].push_back(f);
    }
  }
  std::vector<collision> out;
  for (arc_id a = 0; a < t.arc_count(); ++a) {
    std::set<std::pair<std::size_t, std::size_t>> edges;
    std::set<std::size_t> jobs;
    double demand = 0;
    for (std::size_t f : on[a]) {
      edges.emplace(s.flows[f].job, s.flows[f].edge);
      jobs.insert(s.flows[f].job);
      demand += flow_demand_bps(t, s, f);
    }
    if (edges.size() < 2 || demand <= t.capacity(a) * (1 + 1e-9)) continue;
    out.push_back({a, on[a], edges.size(), jobs.size(), demand});
  }
  return out;
}

collective_result simulate_collective(const topology& t, const collective_setup& s, const path_list& paths,
                                      std::span<const std::uint32_t> job_level, const simulation_options& o) {
  if (paths.size() != s.flows.size()) throw std::invalid_argument("one path per flow is needed");
  if (!job_level.empty() && job_level.size() != s.jobs.size())
    throw std::invalid_argument("one level per job is needed");
  if (!(o.capacity_scale > 0)) throw std::invalid_argument("the capacity scale must be positive");
  fluid_network net(arc_capacities(t, o.capacity_scale));
  enum class phase : std::uint8_t { waiting, computing, communicating, done };
  struct state {
    phase at = phase::waiting;
    double timer = 0;
    std::size_t iteration = 0, step = 0, outstanding = 0;
    double comm_start = 0, delivered = 0, total = 0;
    std::vector<std::size_t> live;  // network flows of the current step
  };
  std::vector<state> st(s.jobs.size());
  collective_result out;
  out.jobs.resize(s.jobs.size());
  std::vector<std::size_t> owner;  // network flow -> job
  std::vector<double> flow_bytes;  // network flow -> its bytes
  for (std::size_t j = 0; j < s.jobs.size(); ++j) {
    st[j].timer = s.jobs[j].spec.start_s;
    for (std::size_t step = 0; step < s.jobs[j].steps(); ++step) {
      for (std::size_t f : s.jobs[j].flows) st[j].total += wire_bytes(ring_step_bytes(s, f, step, o.element_bytes), o);
    }
    st[j].total *= static_cast<double>(s.jobs[j].spec.iterations);
    out.jobs[j].progress.emplace_back(0.0, 0.0);
  }
  const auto start_step = [&](std::size_t j) {
    auto& x = st[j];
    x.live.clear();
    for (std::size_t f : s.jobs[j].flows) {
      const double b = wire_bytes(ring_step_bytes(s, f, x.step, o.element_bytes), o);
      const std::size_t id = net.start(paths[f], b, job_level.empty() ? 0 : job_level[j]);
      owner.push_back(j);
      flow_bytes.push_back(b);
      x.live.push_back(id);
    }
    x.outstanding = x.live.size();
  };
  for (;;) {
    double t_next = net.next_completion();
    for (const auto& x : st) {
      if (x.at == phase::waiting || x.at == phase::computing) t_next = std::min(t_next, x.timer);
    }
    if (!std::isfinite(t_next)) break;
    for (std::size_t f : net.advance_to(t_next)) {
      auto& x = st[owner[f]];
      x.delivered += flow_bytes[f];
      --x.outstanding;
    }
    const double now = net.now();
    for (std::size_t j = 0; j < s.jobs.size(); ++j) {
      auto& x = st[j];
      const auto& spec = s.jobs[j].spec;
      auto& r = out.jobs[j];
      for (bool changed = true; changed;) {
        changed = false;
        if (x.at == phase::waiting && x.timer <= now) {
          x.at = phase::computing;
          x.timer = now + spec.compute_s;
          changed = true;
        }
        if (x.at == phase::computing && x.timer <= now) {
          x.at = phase::communicating;
          x.comm_start = now;
          x.step = 0;
          start_step(j);
          changed = true;
        } else if (x.at == phase::communicating && x.outstanding == 0) {
          r.step_end_s.push_back(now);
          if (++x.step < s.jobs[j].steps()) {
            start_step(j);
          } else {
            r.allreduce_s.push_back(now - x.comm_start);
            x.step = 0;
            if (++x.iteration < spec.iterations) {
              x.at = phase::computing;
              x.timer = now + spec.compute_s;
            } else {
              x.at = phase::done;
              r.finish_s = now;
            }
          }
          changed = x.at != phase::done;
        }
      }
    }
    for (std::size_t j = 0; j < s.jobs.size(); ++j) {
      double sent = st[j].delivered;
      for (std::size_t id : st[j].live) {
        if (std::isnan(net.finish_time(id))) sent += net.sent_bytes(id);
      }
      auto& pr = out.jobs[j].progress;
      const double share = st[j].total > 0 ? std::min(1.0, sent / st[j].total) : 1.0;
      if (pr.back().first == now)
        pr.back().second = share;
      else
        pr.emplace_back(now, share);
    }
  }
  double busy = 0, held = 0;
  for (std::size_t j = 0; j < s.jobs.size(); ++j) {
    auto& r = out.jobs[j];
    const auto& job = s.jobs[j];
    const double n = static_cast<double>(job.hosts.size());
    double mean = 0;
    for (double a : r.allreduce_s) mean += a;
    mean /= static_cast<double>(std::max<std::size_t>(r.allreduce_s.size(), 1));
    r.algbw_Bps = mean > 0 ? job.spec.buffer_bytes / mean : 0;
    r.busbw_Bps = r.algbw_Bps * 2 * (n - 1) / n;
    r.compute_s = job.spec.compute_s * static_cast<double>(job.spec.iterations);
    const double span = r.finish_s - job.spec.start_s;
    r.gpu_busy = span > 0 ? r.compute_s / span : (r.compute_s > 0 ? 1 : 0);
    busy += n * r.compute_s;
    held += n * span;
    out.makespan_s = std::max(out.makespan_s, r.finish_s);
  }
  out.gpu_busy = held > 0 ? busy / held : 0;
  return out;
}

collective_bound collective_lp_bound(const topology& t, const collective_setup& s, const lp_solver& solver,
                                     const simulation_options& o) {
  collective_bound out;
  std::map<std::pair<node_id, node_id>, double> everything;  // bits over all steps and iterations
  double first_start = std::numeric_limits<double>::infinity();
  for (const auto& j : s.jobs) {
    // One step of the fluid buffer: every ring edge B/N bytes (its channels' wire bytes).
    std::map<std::pair<node_id, node_id>, double> step;
    for (std::size_t f : j.flows) {
      const auto& rf = s.flows[f];
      step[{rf.f.src, rf.f.dst}] +=
          wire_bytes(j.spec.buffer_bytes / static_cast<double>(j.hosts.size() * j.spec.channels), o) * 8;
    }
    traffic_matrix m;
    for (const auto& [ends, bits] : step) {
      m.demands.push_back({ends.first, ends.second, bits / o.capacity_scale});
      everything[ends] += bits * static_cast<double>(j.steps() * j.spec.iterations);
    }
    const double step_s = optimal_mcf(t, m, solver).mlu;  // demand in bits "per second": the time in seconds
    out.allreduce_s.push_back(step_s * static_cast<double>(j.steps()));
    out.finish_s.push_back(j.spec.start_s +
                           static_cast<double>(j.spec.iterations) * (j.spec.compute_s + out.allreduce_s.back()));
    out.makespan_s = std::max(out.makespan_s, out.finish_s.back());
    first_start = std::min(first_start, j.spec.start_s);
  }
  if (!everything.empty()) {
    traffic_matrix m;
    for (const auto& [ends, bits] : everything) m.demands.push_back({ends.first, ends.second, bits / o.capacity_scale});
    out.makespan_s = std::max(out.makespan_s, first_start + optimal_mcf(t, m, solver).mlu);
  }
  return out;
}

}  // namespace netlib::dc
