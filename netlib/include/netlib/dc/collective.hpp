#pragma once
// Collective traffic on a fabric (docs/architecture.md, "Data-centre core"): training jobs whose
// ranks (one per host, one GPU each) reduce a buffer with ring all-reduce, several jobs sharing
// one fabric, and four ways to share it.
//
// Ring all-reduce of a buffer of B bytes among N ranks r0 .. r(N-1) in ring order: the buffer is
// cut into N chunks; in reduce-scatter step s (0 <= s < N-1) rank r sends chunk (r - s) mod N to
// its successor, which adds it into its own copy; after N-1 steps rank r holds chunk (r + 1) mod N
// fully reduced. In all-gather step t (0 <= t < N-1, step N-1+t overall) rank r sends chunk
// (r + 1 - t) mod N, which the successor keeps. 2(N-1) steps of B/N bytes per ring edge: each rank
// sends 2(N-1)/N · B in all. Each ring edge is `channels` TCP connections (NCCL's channels), each
// carrying 1/channels of every chunk, each with its own source port, so ECMP hashes them apart.
// A step ends when its slowest flow ends (the next step's data is what this step delivered).
//
// Measures, as nccl-tests defines them (its PERFORMANCE.md): algorithm bandwidth algbw = B / t for
// an all-reduce of t seconds; bus bandwidth busbw = algbw · 2(N-1)/N, the rate each rank's link
// carried, comparable with the link rate whatever N is.
//
// Schedulers:
//   fair  ECMP paths (the fabric's hash), every flow max-min fair (fair_share.hpp)
//   crux  ECMP paths, strict priority by GPU intensity (Crux, SIGCOMM 2024, Definition 2):
//         I_j = W_j / t_j, W_j the job's computation per iteration (here GPU-seconds: ranks ×
//         compute time), t_j the time its traffic of one iteration needs on its busiest link
//         (max over arcs of its bytes there × 8 / capacity). Higher intensity, higher priority:
//         the job that turns a second of network time into more GPU work goes first.
//   mccs  paths chosen by the provider (MCCS, SIGCOMM 2024: the cloud, which sees the fabric,
//         routes each collective): flows placed one by one, each on the shortest path whose
//         fabric arcs carry the fewest flows of the same job, then the fewest flows in all, then
//         improved by moving single flows until no move helps; max-min fair
//   LP bound (collective_lp_bound): each job alone with any split of its traffic over any paths
//         (a multi-commodity flow linear program per step, te.hpp's optimal_mcf); no schedule
//         beats it.
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "netlib/dc/ecmp.hpp"
#include "netlib/dc/fair_share.hpp"
#include "netlib/dc/lp.hpp"
#include "netlib/dc/routes.hpp"
#include "netlib/dc/topology.hpp"

namespace netlib::dc {

enum class placement_policy : std::uint8_t {
  packed,      // the first free hosts in host order (a rack filled before the next); ring in that order
  rack_aware,  // hosts drawn at random (as `random`), ring ordered rack by rack, so it leaves each rack once
  random,      // hosts drawn at random from the free ones; ring in the order drawn
};
std::string placement_name(placement_policy p);  // "packed", "rack-aware", "random"

struct job_spec {
  std::string name;  // default "A", "B", ... by position
  std::size_t ranks = 8;
  placement_policy placement = placement_policy::packed;
  std::uint64_t seed = 1;  // the random draw of hosts, and every job's ports
  double buffer_bytes = 256e6;
  std::size_t channels = 1;  // flows per ring edge
  double compute_s = 0;      // GPU computation per iteration, before its all-reduce
  std::size_t iterations = 1;
  double start_s = 0;
};

struct job_limits {
  std::size_t max_ranks = 4096;
  std::size_t max_channels = 64;
  std::size_t max_iterations = 1000;
  double max_buffer_bytes = 1e12;
};

// "ranks=8,placement=random,seed=3,buffer=256MB,channels=2,compute=50ms,iterations=3,start=1s,name=A":
// keys in any order, each at most once, any left out. Throws std::invalid_argument naming the key.
job_spec parse_job(std::string_view text, const job_limits& limits = {});

// One flow of a collective: channel `channel` of ring edge `edge` (rank edge -> rank edge + 1) of
// job `job`. flow.bytes is unused (a step's bytes come from ring_step_bytes).
struct ring_flow {
  std::size_t job = 0;
  std::size_t edge = 0;
  std::size_t channel = 0;
  flow f;
};

struct placed_job {
  job_spec spec;
  std::vector<node_id> hosts;              // rank i's host, ring order
  std::vector<std::uint16_t> listen_port;  // per rank: where its predecessor's channels connect
  std::vector<std::size_t> flows;          // this job's ring_flows, edge by edge, channel by channel
  [[nodiscard]] std::size_t steps() const noexcept { return 2 * (hosts.size() - 1); }
};

struct collective_setup {
  std::vector<placed_job> jobs;
  std::vector<ring_flow> flows;
};

// Places the jobs in order, one rank per host, no host shared between jobs; draws each job's
// ports from its seed (listen ports in 5000-14999, source ports in 32768-60999, distinct on a
// host). Throws std::invalid_argument when the hosts run out or a job is out of range.
collective_setup place_jobs(const topology& t, std::span<const job_spec> jobs, std::uint8_t protocol = 6);

// The chunk rank `rank` sends at step `step` (0 .. 2(N-1) - 1) of a ring of n ranks.
std::size_t ring_send_chunk(std::size_t rank, std::size_t step, std::size_t n) noexcept;
// The chunk it receives at that step (what its predecessor sends).
std::size_t ring_receive_chunk(std::size_t rank, std::size_t step, std::size_t n) noexcept;
// Part `part` of `parts` of [0, count): [count·part/parts, count·(part+1)/parts).
std::pair<std::size_t, std::size_t> split_range(std::size_t count, std::size_t part, std::size_t parts) noexcept;

// How many payload bytes a flow carries in a step. element_bytes 0: the fluid buffer, B/(N·K)
// exactly; otherwise the buffer is whole elements of that size (floats: 4) cut into chunks and
// channel parts with split_range, as lab-dc run --collective sends them.
double ring_step_bytes(const collective_setup& s, std::size_t flow, std::size_t step, std::size_t element_bytes = 0);

// Every flow's path: by the fabric's ECMP hash, or by the provider (mccs above). The provider's
// placement reports how many (fabric arc, job) pairs still carry two or more flows of the job.
path_list ecmp_paths(const ecmp_model& model, const collective_setup& s);
struct provider_placement {
  path_list paths;
  std::size_t same_job_shared_arcs = 0;
};
provider_placement provider_paths(const topology& t, const routes& r, const collective_setup& s);

// Crux's GPU intensity of each job on the given paths (GPU-seconds of computation per second of
// its busiest link's transfer time), and the priority levels it gives: 0 for the highest
// intensity, equal intensities on one level.
std::vector<double> gpu_intensity(const topology& t, const collective_setup& s, const path_list& paths);
std::vector<std::uint32_t> intensity_levels(std::span<const double> intensity);

// What a flow can send at most: its share of its two hosts' links (the slower of the sender's
// uplink and the receiver's downlink, divided among the edge's channels, which all send at once).
double flow_demand_bps(const topology& t, const collective_setup& s, std::size_t flow);

// Collisions: fabric arcs (between two switches) where flows of two or more ring edges meet and
// want more than the arc has (the sum of their demands above its capacity), so that the routing,
// not the hosts' links, holds them back. Two channels of one edge never collide: together they
// want no more than their host's link.
struct collision {
  arc_id arc = 0;
  std::vector<std::size_t> flows;  // ring_flow numbers
  std::size_t ring_edges = 0;      // distinct (job, edge)
  std::size_t jobs = 0;            // distinct jobs
  double demand_bps = 0;           // Σ flow_demand_bps
};
std::vector<collision> find_collisions(const topology& t, const collective_setup& s, const path_list& paths);

struct simulation_options {
  std::size_t element_bytes = 0;        // as ring_step_bytes
  double header_bytes_per_segment = 0;  // wire bytes = payload + this · ceil(payload / mss)
  double mss = 1448;
  double capacity_scale = 1;  // link rates × this (lab-dc run's scaled links)
};

struct job_result {
  std::vector<double> step_end_s;   // every step of every iteration, in order
  std::vector<double> allreduce_s;  // per iteration: from its first step's start to its last step's end
  double finish_s = 0;              // the last step's end
  double algbw_Bps = 0;             // buffer / mean all-reduce time
  double busbw_Bps = 0;             // algbw · 2(N-1)/N
  double compute_s = 0;             // GPU-seconds per GPU spent computing: iterations × compute
  double gpu_busy = 0;              // compute_s / (finish - start): the share of its time each GPU computed
  std::vector<std::pair<double, double>> progress;  // (time, share of the job's bytes delivered), at every event
};

struct collective_result {
  std::vector<job_result> jobs;
  double makespan_s = 0;
  double gpu_busy = 0;  // all jobs: Σ ranks·compute_s / Σ ranks·(finish - start)
};

// Runs every job's iterations (compute, then the all-reduce's 2(N-1) steps) on the fluid network:
// the flows of one step start together, the next step starts when the last of them ends, rates
// are max-min fair within a priority level (job_level per job, empty for all 0) and recomputed at
// every start and end.
collective_result simulate_collective(const topology& t, const collective_setup& s, const path_list& paths,
                                      std::span<const std::uint32_t> job_level, const simulation_options& o = {});

// The LP bound: per job, the least all-reduce time with its traffic split over any paths
// optimally and no other job (2(N-1) × the optimal multi-commodity flow time of one step's
// bytes), and the least time each job could finish in that way (start + iterations × (compute +
// that all-reduce)); and the least makespan of all jobs together (the later of the jobs' own bound
// and the time the fabric needs for every job's bytes at once, split optimally). Throws
// std::runtime_error when the solver fails.
struct collective_bound {
  std::vector<double> allreduce_s;
  std::vector<double> finish_s;
  double makespan_s = 0;
};
collective_bound collective_lp_bound(const topology& t, const collective_setup& s, const lp_solver& solver,
                                     const simulation_options& o = {});

}  // namespace netlib::dc
