// Fuzz target for lab-dc collective's job format (netlib::dc::parse_job): arbitrary text either
// parses or fails with std::invalid_argument and a short message; a job that parses is placed on
// a leaf-spine:4x2 (or refused with invalid_argument when it does not fit), and, when small enough
// to simulate quickly, its schedule holds its invariants: 2(N-1) steps per iteration, in time
// order, busbw = algbw · 2(N-1)/N and never above the host links' rate, the provider's paths from
// host to host, no fewer collisions than none.
#include "netlib/dc/collective.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace {

void check(bool ok) {
  if (!ok) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace netlib::dc;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  job_spec job;
  try {
    job = parse_job(text);
  } catch (const std::invalid_argument& e) {
    check(std::string_view(e.what()).size() < 400);
    return 0;
  }
  static const topology t = leaf_spine(4, 2, 2, 10e9, 10e9);
  static const routes r(t);
  static const ecmp_model model(t, r, {});
  collective_setup s;
  try {
    const job_spec jobs[] = {job};
    s = place_jobs(t, jobs);
  } catch (const std::invalid_argument& e) {
    check(std::string_view(e.what()).size() < 400);
    return 0;
  }
  check(s.jobs.size() == 1 && s.jobs[0].hosts.size() == job.ranks);
  check(s.flows.size() == job.ranks * job.channels);
  if (job.iterations * job.channels > 16) return 0;  // keep every input fast
  const auto paths = ecmp_paths(model, s);
  const auto res = simulate_collective(t, s, paths, {});
  const auto& j = res.jobs[0];
  const std::size_t n = job.ranks;
  check(j.step_end_s.size() == 2 * (n - 1) * job.iterations);
  check(std::is_sorted(j.step_end_s.begin(), j.step_end_s.end()));
  check(j.allreduce_s.size() == job.iterations);
  check(std::abs(j.busbw_Bps - j.algbw_Bps * 2 * double(n - 1) / double(n)) <= 1e-6 * std::max(1.0, j.busbw_Bps));
  // The all-reduce times are differences of clock readings: a 19-byte buffer's all-reduce takes
  // 2.7e-8 s read off a clock at 0.17 s, whose ulp is 2.8e-17 s, so each time is known to about
  // 1e-8 of itself (found by this target: 2.2e-9 over the link rate from the rounding alone).
  const double ulp = std::nextafter(j.finish_s, 1e300) - j.finish_s;
  const double shortest = *std::min_element(j.allreduce_s.begin(), j.allreduce_s.end());
  const double rounding = 16 * 2 * double(n - 1) * ulp / shortest;
  check(j.busbw_Bps * 8 <= 10e9 * (1 + 1e-9 + rounding));
  const auto provider = provider_paths(t, r, s);
  for (std::size_t f = 0; f < s.flows.size(); ++f) {
    const auto p = provider.paths[f];
    check(!p.empty() && t.arc_from(p.front()) == s.flows[f].f.src && t.arc_to(p.back()) == s.flows[f].f.dst);
  }
  for (const auto& c : find_collisions(t, s, paths)) check(c.ring_edges >= 2 && c.demand_bps > t.capacity(c.arc));
  return 0;
}
