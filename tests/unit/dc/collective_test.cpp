// Collective traffic: the ring schedule against a direct sum, the formulas (2(N-1) steps,
// algbw = B/t, busbw = algbw·2(N-1)/N) on fabrics small enough to work out by hand (each case
// says how), one job alone on a non-blocking fabric at busbw = link rate, the schedulers on cases
// built so that their answers are known, the LP bound, and the job format.
#include "netlib/dc/collective.hpp"

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "netlib/dc/glpk_solver.hpp"

namespace collective_test {

using namespace netlib::dc;

const glpk_solver solver;

std::vector<job_spec> jobs(std::initializer_list<const char*> specs) {
  std::vector<job_spec> out;
  for (const char* s : specs) out.push_back(parse_job(s));
  return out;
}

// Two leaves under `spines` spines, hosts declared alternately leaf1, leaf2, leaf1, ... so that a
// packed ring h1 h2 h3 h4 crosses the fabric on every edge.
topology alternating(std::size_t spines, std::size_t hosts) {
  std::string text = "switch leaf1\nswitch leaf2\n";
  for (std::size_t s = 1; s <= spines; ++s)
    text += fmt::format("switch spine{0}\nlink leaf1 spine{0} 10Gbps\nlink leaf2 spine{0} 10Gbps\n", s);
  for (std::size_t h = 1; h <= hosts; ++h)
    text += fmt::format("host h{0}\nlink h{0} leaf{1} 10Gbps\n", h, h % 2 ? 1 : 2);
  return parse_topology(text);
}

std::vector<std::string> names(const topology& t, const std::vector<node_id>& v) {
  std::vector<std::string> out;
  for (node_id n : v) out.push_back(t.nodes()[n].name);
  return out;
}

TEST(DcCollective, the_ring_schedule_reduces_every_chunk) {
  // Run the schedule on numbers: every rank ends with the sum of all ranks' buffers.
  for (std::size_t n : {2u, 3u, 5u, 8u}) {
    const std::size_t elements = 3 * n + 2;
    std::vector<std::vector<long>> buf(n, std::vector<long>(elements));
    std::vector<long> sum(elements, 0);
    for (std::size_t r = 0; r < n; ++r) {
      for (std::size_t i = 0; i < elements; ++i) sum[i] += buf[r][i] = static_cast<long>(r * 100 + i);
    }
    for (std::size_t step = 0; step < 2 * (n - 1); ++step) {
      auto next = buf;
      for (std::size_t r = 0; r < n; ++r) {
        const std::size_t to = (r + 1) % n, c = ring_send_chunk(r, step, n);
        EXPECT_EQ(ring_receive_chunk(to, step, n), c);
        const auto [b, e] = split_range(elements, c, n);
        for (std::size_t i = b; i < e; ++i) next[to][i] = step + 1 < n ? next[to][i] + buf[r][i] : buf[r][i];
      }
      buf = std::move(next);
    }
    for (std::size_t r = 0; r < n; ++r) EXPECT_EQ(buf[r], sum) << n << " ranks, rank " << r;
  }
  EXPECT_EQ(split_range(10, 0, 3), (std::pair<std::size_t, std::size_t>{0, 3}));
  EXPECT_EQ(split_range(10, 2, 3), (std::pair<std::size_t, std::size_t>{6, 10}));
}

TEST(DcCollective, one_switch_by_hand) {
  // 4 hosts on one switch, 10 Gbps, 100 MB: 6 steps of 25 MB per edge, every edge on links of
  // its own: 25e6·8 / 1e10 = 0.02 s a step, 0.12 s in all; algbw 100 MB / 0.12 s, busbw =
  // algbw · 6/4 = 1.25 GB/s = 10 Gbps, the link rate.
  const auto t = parse_topology(
      "switch s\nhost h1\nhost h2\nhost h3\nhost h4\nlink h1 s 10Gbps\nlink h2 s 10Gbps\n"
      "link h3 s 10Gbps\nlink h4 s 10Gbps\n");
  const auto s = place_jobs(t, jobs({"ranks=4,buffer=100MB"}));
  ASSERT_EQ(s.jobs.size(), 1u);
  EXPECT_EQ(s.jobs[0].spec.name, "A");
  EXPECT_EQ(s.jobs[0].steps(), 6u);
  EXPECT_EQ(names(t, s.jobs[0].hosts), (std::vector<std::string>{"h1", "h2", "h3", "h4"}));
  const routes r(t);
  const ecmp_model m(t, r, {});
  const auto paths = ecmp_paths(m, s);
  const auto res = simulate_collective(t, s, paths, {});
  const auto& j = res.jobs[0];
  ASSERT_EQ(j.step_end_s.size(), 6u);
  for (std::size_t i = 0; i < 6; ++i) EXPECT_NEAR(j.step_end_s[i], 0.02 * static_cast<double>(i + 1), 1e-12);
  EXPECT_NEAR(j.allreduce_s[0], 0.12, 1e-12);
  EXPECT_NEAR(j.algbw_Bps, 100e6 / 0.12, 1e-3);
  EXPECT_NEAR(j.busbw_Bps, 1.25e9, 1e-3);
  EXPECT_TRUE(find_collisions(t, s, paths).empty());
  EXPECT_NEAR(collective_lp_bound(t, s, solver).allreduce_s[0], 0.12, 1e-9);
}

TEST(DcCollective, two_ring_edges_on_one_uplink_halve_the_bus_bandwidth) {
  // One spine; the packed ring h1 h2 h3 h4 alternates leaves, so each leaf's one uplink and one
  // downlink carry two ring edges: 5 Gbps each, 25 MB in 0.04 s, 6 steps in 0.24 s, busbw 5 Gbps.
  // Four arcs collide (both uplinks, both downlinks), and no routing does better (one spine).
  const auto t = alternating(1, 4);
  const auto s = place_jobs(t, jobs({"ranks=4,buffer=100MB"}));
  const routes r(t);
  const ecmp_model m(t, r, {});
  const auto paths = ecmp_paths(m, s);
  const auto res = simulate_collective(t, s, paths, {});
  EXPECT_NEAR(res.jobs[0].allreduce_s[0], 0.24, 1e-12);
  EXPECT_NEAR(res.jobs[0].busbw_Bps * 8, 5e9, 1e-3);
  const auto c = find_collisions(t, s, paths);
  ASSERT_EQ(c.size(), 4u);
  for (const auto& x : c) {
    EXPECT_EQ(x.ring_edges, 2u);
    EXPECT_EQ(x.jobs, 1u);
  }
  EXPECT_NEAR(collective_lp_bound(t, s, solver).allreduce_s[0], 0.24, 1e-9);
}

TEST(DcCollective, one_job_alone_on_a_non_blocking_fabric_reaches_the_link_rate) {
  // Packed rings leave each rack once: no two ring edges meet on a fabric link, whatever the
  // hash, and every rank's link is busy all the time.
  for (const char* shape : {"leaf-spine:4x2", "leaf-spine:8x4", "fat-tree:4"}) {
    SCOPED_TRACE(shape);
    const auto t = *parse_shape(shape);
    for (const char* spec : {"ranks=8,buffer=256MB", "ranks=8,buffer=256MB,channels=4",
                             "ranks=16,buffer=1GB,placement=rack-aware,seed=3"}) {
      if (parse_job(spec).ranks > t.hosts().size()) continue;
      SCOPED_TRACE(spec);
      const auto s = place_jobs(t, jobs({spec}));
      const routes r(t);
      for (auto h : {hash_algorithm::crc16, hash_algorithm::linux_hash}) {
        hash_config cfg;
        cfg.algorithm = h;
        const ecmp_model m(t, r, cfg);
        const auto res = simulate_collective(t, s, ecmp_paths(m, s), {});
        EXPECT_NEAR(res.jobs[0].busbw_Bps * 8 / 10e9, 1.0, 0.01);
      }
    }
  }
}

TEST(DcCollective, placement_policies) {
  const auto t = *parse_shape("leaf-spine:4x2");  // h1 h2 on leaf1, h3 h4 on leaf2, ...
  auto s = place_jobs(t, jobs({"ranks=3", "ranks=3"}));
  EXPECT_EQ(names(t, s.jobs[0].hosts), (std::vector<std::string>{"h1", "h2", "h3"}));
  EXPECT_EQ(names(t, s.jobs[1].hosts), (std::vector<std::string>{"h4", "h5", "h6"}));
  EXPECT_EQ(s.jobs[1].spec.name, "B");
  s = place_jobs(t, jobs({"ranks=6,placement=random,seed=5"}));
  const auto random = s.jobs[0].hosts;
  s = place_jobs(t, jobs({"ranks=6,placement=rack-aware,seed=5"}));
  auto sorted = random;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(s.jobs[0].hosts, sorted);  // the same hosts, ring rack by rack (host order is rack order here)
  EXPECT_NE(random, sorted);
  // Ports: distinct listening ports per rank; channels of an edge get distinct source ports.
  s = place_jobs(t, jobs({"ranks=8,channels=4,seed=9"}));
  ASSERT_EQ(s.flows.size(), 32u);
  for (std::size_t e = 0; e < 8; ++e) {
    std::set<std::uint16_t> ports;
    for (std::size_t c = 0; c < 4; ++c) {
      const auto& f = s.flows[e * 4 + c];
      EXPECT_EQ(f.edge, e);
      EXPECT_EQ(f.channel, c);
      EXPECT_EQ(f.f.key.dst_port, s.jobs[0].listen_port[(e + 1) % 8]);
      ports.insert(f.f.key.src_port);
    }
    EXPECT_EQ(ports.size(), 4u);
  }
  EXPECT_THROW(place_jobs(t, jobs({"ranks=6", "ranks=3"})), std::invalid_argument);
  EXPECT_THROW(place_jobs(t, jobs({"ranks=2,name=X", "ranks=2,name=X"})), std::invalid_argument);
}

TEST(DcCollective, crux_gives_the_more_gpu_intensive_job_the_link_first) {
  // alternating(1, 4): job A on h1 h2, job B on h3 h4; every ring edge crosses the one spine, and
  // leaf1's uplink carries A's h1->h2 and B's h3->h4 (the downlinks likewise). 100 MB buffers,
  // 2 ranks: 2 steps of 50 MB per edge (0.04 s alone at 10 Gbps, 0.08 s sharing).
  // A computes 20 ms, B 10 ms but starts at 10 ms: both communicate from 20 ms.
  //   fair: both at 5 Gbps, 0.16 s of all-reduce, both done at 0.18 s.
  //   crux: I_A = 2·20 ms / t > I_B = 2·10 ms / t (t the same), so A goes first: done at
  //         0.02 + 0.08 = 0.10 s; B waits, then runs alone: 0.10 + 0.08 = 0.18 s.
  const auto t = alternating(1, 4);
  const auto s =
      place_jobs(t, jobs({"ranks=2,buffer=100MB,compute=20ms", "ranks=2,buffer=100MB,compute=10ms,start=10ms"}));
  EXPECT_EQ(names(t, s.jobs[0].hosts), (std::vector<std::string>{"h1", "h2"}));
  const routes r(t);
  const ecmp_model m(t, r, {});
  const auto paths = ecmp_paths(m, s);
  const auto fair = simulate_collective(t, s, paths, {});
  EXPECT_NEAR(fair.jobs[0].allreduce_s[0], 0.16, 1e-12);
  EXPECT_NEAR(fair.jobs[1].allreduce_s[0], 0.16, 1e-12);
  EXPECT_NEAR(fair.jobs[0].finish_s, 0.18, 1e-12);
  EXPECT_NEAR(fair.jobs[1].finish_s, 0.18, 1e-12);
  const auto intensity = gpu_intensity(t, s, paths);
  // t_j: 2 steps × 50 MB on each busiest link = 0.08 s; W_j = 2 ranks × compute.
  EXPECT_NEAR(intensity[0], 2 * 0.020 / 0.08, 1e-12);
  EXPECT_NEAR(intensity[1], 2 * 0.010 / 0.08, 1e-12);
  const auto levels = intensity_levels(intensity);
  EXPECT_EQ(levels, (std::vector<std::uint32_t>{0, 1}));
  const auto crux = simulate_collective(t, s, paths, levels);
  EXPECT_NEAR(crux.jobs[0].allreduce_s[0], 0.08, 1e-12);
  EXPECT_NEAR(crux.jobs[0].finish_s, 0.10, 1e-12);
  EXPECT_NEAR(crux.jobs[1].allreduce_s[0], 0.16, 1e-12);
  EXPECT_NEAR(crux.jobs[1].finish_s, 0.18, 1e-12);
  EXPECT_NEAR(crux.jobs[0].gpu_busy, 0.020 / 0.10, 1e-12);
  EXPECT_NEAR(fair.jobs[0].gpu_busy, 0.020 / 0.18, 1e-12);
  // Cluster: (2·20 ms + 2·10 ms) GPU-seconds over 2·0.10 + 2·0.17 (crux) or 2·0.18 + 2·0.17 (fair).
  EXPECT_NEAR(crux.gpu_busy, 0.060 / (0.20 + 0.34), 1e-12);
  EXPECT_NEAR(fair.gpu_busy, 0.060 / (0.36 + 0.34), 1e-12);
  EXPECT_GT(crux.gpu_busy, fair.gpu_busy);
  // The bound: each job alone 0.08 s; together the uplink must carry 4 × 50 MB = 0.16 s of bytes.
  const auto b = collective_lp_bound(t, s, solver);
  EXPECT_NEAR(b.allreduce_s[0], 0.08, 1e-9);
  EXPECT_NEAR(b.finish_s[1], 0.01 + 0.01 + 0.08, 1e-9);
  EXPECT_NEAR(b.makespan_s, 0.16, 1e-9);
}

TEST(DcCollective, the_provider_keeps_a_jobs_flows_apart) {
  // alternating(2, 4): two spines; the packed ring h1 h2 h3 h4 sends two edges up each leaf.
  // ECMP may put both on one spine; the provider puts them on different spines, every flow then
  // has 10 Gbps and the job reaches the link rate.
  const auto t = alternating(2, 4);
  const routes r(t);
  std::size_t ecmp_collided = 0;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const auto s = place_jobs(t, jobs({fmt::format("ranks=4,buffer=100MB,channels=2,seed={}", seed).c_str()}));
    const ecmp_model m(t, r, {});
    ecmp_collided += !find_collisions(t, s, ecmp_paths(m, s)).empty();
    const auto p = provider_paths(t, r, s);
    // 4 flows leave each leaf over 2 uplinks and enter the other over 2 downlinks: every one of
    // the 8 fabric arcs must carry 2 flows of the job, but no arc more than it can take.
    EXPECT_EQ(p.same_job_shared_arcs, 8u) << seed;
    EXPECT_TRUE(find_collisions(t, s, p.paths).empty()) << seed;
    const auto res = simulate_collective(t, s, p.paths, {});
    EXPECT_NEAR(res.jobs[0].busbw_Bps * 8, 10e9, 1e-3) << seed;
  }
  EXPECT_GT(ecmp_collided, 0u);  // with 4 flows up each leaf over 2 spines, ECMP collides often
  const auto s1 = place_jobs(t, jobs({"ranks=4,buffer=100MB"}));
  EXPECT_EQ(provider_paths(t, r, s1).same_job_shared_arcs, 0u);  // one channel: every flow its own spine
}

TEST(DcCollective, iterations_and_whole_elements) {
  const auto t = *parse_shape("leaf-spine:2x2");
  const auto s = place_jobs(t, jobs({"ranks=4,buffer=1000B,iterations=3,compute=1ms,channels=3"}));
  // 250 floats in 4 chunks of 62 or 63, each cut in 3 parts: the bytes of a step add up to the
  // chunk, and one iteration's steps to 2(N-1)/N of the buffer (within a chunk's rounding).
  double per_iteration = 0;
  for (std::size_t step = 0; step < 6; ++step) {
    double step_bytes = 0;
    for (std::size_t f = 0; f < 3; ++f) step_bytes += ring_step_bytes(s, f, step, 4);
    EXPECT_TRUE(step_bytes == 248 || step_bytes == 252) << step_bytes;
    per_iteration += step_bytes;
  }
  EXPECT_NEAR(per_iteration, 1500, 8);
  EXPECT_DOUBLE_EQ(ring_step_bytes(s, 0, 0), 1000.0 / 12);
  const routes r(t);
  const ecmp_model m(t, r, {});
  const auto res = simulate_collective(t, s, ecmp_paths(m, s), {}, {.element_bytes = 4});
  EXPECT_EQ(res.jobs[0].step_end_s.size(), 18u);
  EXPECT_EQ(res.jobs[0].allreduce_s.size(), 3u);
  EXPECT_GT(res.jobs[0].finish_s, 0.003);
  EXPECT_NEAR(res.jobs[0].progress.back().second, 1.0, 1e-12);
  // Time runs forward, one step after the other.
  EXPECT_TRUE(std::is_sorted(res.jobs[0].step_end_s.begin(), res.jobs[0].step_end_s.end()));
}

TEST(DcCollective, job_format) {
  const auto j = parse_job(
      "name=big,ranks=16,placement=rack-aware,seed=4,buffer=1GB,channels=2,compute=50ms,iterations=3,start=1s");
  EXPECT_EQ(j.name, "big");
  EXPECT_EQ(j.ranks, 16u);
  EXPECT_EQ(j.placement, placement_policy::rack_aware);
  EXPECT_EQ(j.seed, 4u);
  EXPECT_DOUBLE_EQ(j.buffer_bytes, 1e9);
  EXPECT_EQ(j.channels, 2u);
  EXPECT_DOUBLE_EQ(j.compute_s, 0.05);
  EXPECT_EQ(j.iterations, 3u);
  EXPECT_DOUBLE_EQ(j.start_s, 1);
  EXPECT_EQ(parse_job("").ranks, 8u);
  for (const char* bad : {"ranks=1", "ranks=x", "placement=spread", "buffer=12", "channels=0", "color=red",
                          "ranks=4,ranks=5", "name=a b", "compute=-1s", "ranks", "iterations=1001"}) {
    EXPECT_THROW(parse_job(bad), std::invalid_argument) << bad;
  }
  // Errors quote a short excerpt of a long value (found by the fuzz target: a 1000-digit start=).
  for (const std::string& bad : {"start=" + std::string(1000, '1') + "rt", "buffer=" + std::string(900, '9') + "x",
                                 "name=" + std::string(900, 'a')}) {
    try {
      (void)parse_job(bad);
      ADD_FAILURE() << "accepted " << bad.substr(0, 20);
    } catch (const std::invalid_argument& e) {
      EXPECT_LT(std::string(e.what()).size(), 160u) << e.what();
    }
  }
  try {
    parse_job("placement=spread");
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("packed, rack-aware or random"), std::string::npos) << e.what();
  }
}

// The fuzz target's timeout, as it ran there: a 19-byte buffer on the fuzz target's leaf-spine
// (2.4 bytes per flow and step) never finished, its flows stuck a few 1e-8 bytes short of the end
// (DcFairShare.a_flow_shorter_than_the_clocks_resolution_still_ends has the cause).
TEST(DcCollective, a_buffer_of_a_few_bytes_still_finishes) {
  const auto t = leaf_spine(4, 2, 2, 10e9, 10e9);
  const routes r(t);
  const ecmp_model m(t, r, {});
  const auto js = jobs({"name=vision,,seed=0,buffer=19B,compute=21ms,iterations=4,start=1ms"});
  const auto s = place_jobs(t, js);
  const auto res = simulate_collective(t, s, ecmp_paths(m, s), {});
  EXPECT_EQ(res.jobs[0].step_end_s.size(), 2 * 7 * 4u);
  EXPECT_EQ(res.jobs[0].allreduce_s.size(), 4u);
  EXPECT_GT(res.jobs[0].finish_s, 0.001 + 4 * 0.021);
}

}  // namespace collective_test
