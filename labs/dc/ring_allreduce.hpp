#pragma once
// A real ring all-reduce (docs/labs/datacenter.md, "Collective traffic"): every rank of every job
// is a set of TCP sockets in its host's namespace, bound to the 5-tuples netlib::dc::place_jobs
// drew, holding a buffer of float32 values; the ranks run the schedule netlib::dc's
// ring_send_chunk defines (reduce-scatter adds what arrives, all-gather keeps it), each ring
// edge's channels carrying their part of every chunk (split_range), and every rank's result is
// checked element by element against the sum of the ranks' starting buffers.
//
// As NCCL does, there is no barrier between steps: a channel sends step s + 1 as soon as it has
// received step s (the data it forwards). A step ends, as in the model, when the last channel of
// the job has delivered it. Iterations: a job's compute time passes (no traffic) from the moment
// its previous all-reduce ended, for every rank at once. One thread drives every socket with poll(2);
// bounded by a deadline and by SIGINT/SIGTERM.
#include <cstdint>
#include <vector>

#include "netlib/dc/collective.hpp"
#include "netns_fabric.hpp"

namespace netlab::lab_dc {

struct live_allreduce {
  // Per job, in seconds since every connection was up.
  std::vector<std::vector<double>> step_end_s;   // every step of every iteration
  std::vector<std::vector<double>> allreduce_s;  // per iteration: its last step's end minus its first step's start
  std::vector<double> finish_s;
  std::vector<std::size_t> elements;        // floats in each rank's buffer
  std::vector<std::size_t> checked;         // elements compared with the sum (every rank, iteration and warm-up)
  std::vector<std::size_t> wrong;           // of those, not equal to the sum
  std::vector<std::uint64_t> payload_sent;  // per ring flow
  double connect_s = 0;                     // to set up every connection
  double warmup_s = 0;                      // the warm-up all-reduces
  double duration_s = 0;
  bool complete = false;  // every job finished before the deadline
};

// Buffers are whole floats: buffer_bytes / 4 of them per rank. First `warmups` all-reduces of
// every job at once, untimed (new connections start with small windows: nccl-tests warms up too),
// then the jobs' own schedule, timed from when the warm-up ended.
live_allreduce run_ring_allreduce(const netns_fabric& fabric, const netlib::dc::collective_setup& s,
                                  std::size_t warmups, double deadline_s);

}  // namespace netlab::lab_dc
