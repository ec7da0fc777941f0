#pragma once
// Max-min fair sharing of a fabric's arcs (docs/architecture.md, "Data-centre core"): the rates
// flows get when every link divides its capacity among the flows crossing it as evenly as they can
// use it, and the flow completion times that follow when a flow that ends frees its share.
//
// Progressive filling (water-filling; Bertsekas and Gallager, "Data Networks", 6.5.2): every flow
// not yet limited grows at the same rate; when an arc is full, the flows crossing it keep the rate
// they reached; the others grow on until each flow crosses a full arc. The result is max-min fair:
// no flow can get more without taking from a flow that has no more. Strict priority levels (0 is
// the highest): level 0 is filled over the whole capacities, level 1 over what level 0 left, and
// so on, as a switch with strict-priority queues shares a link.
//
// Flow completion times (fluid model): each flow sends at its max-min rate until one flow ends
// or starts; then the rates are computed again. Rates are in bits per second, sizes in bytes.
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "netlib/dc/topology.hpp"

namespace netlib::dc {

// The paths of a set of flows, one list of arcs each (an empty list: a flow that crosses no link).
class path_list {
 public:
  std::size_t add(std::span<const arc_id> arcs);
  [[nodiscard]] std::size_t size() const noexcept { return begin_.size() - 1; }
  [[nodiscard]] std::span<const arc_id> operator[](std::size_t i) const noexcept {
    return {arcs_.data() + begin_[i], begin_[i + 1] - begin_[i]};
  }

 private:
  std::vector<arc_id> arcs_;
  std::vector<std::uint32_t> begin_{0};
};

// Every arc's capacity in bits per second, optionally multiplied by `scale`.
std::vector<double> arc_capacities(const topology& t, double scale = 1.0);

inline constexpr double unlimited_rate = std::numeric_limits<double>::infinity();

// The max-min fair rate of every flow (bits per second). `level` (one per flow, or empty for all
// 0) gives strict priority levels; `active` (one per flow, or empty for all) leaves flows out (rate
// 0). A flow with an empty path gets unlimited_rate; a flow that a higher level leaves no room gets 0.
// Throws std::invalid_argument when a path names an arc without a capacity or a capacity is not
// positive.
std::vector<double> max_min_rates(std::span<const double> capacity_bps, const path_list& paths,
                                  std::span<const std::uint32_t> level = {}, std::span<const char> active = {});

// A fluid network: flows start at the current time and send at their max-min rates; the clock
// moves from event to event.
//
//   fluid_network net(arc_capacities(t));
//   const auto a = net.start(path_a, 10e6), b = net.start(path_b, 5e6);
//   while (net.active() > 0) for (auto f : net.advance_to(net.next_completion())) { ... net.finish_time(f) ... }
class fluid_network {
 public:
  explicit fluid_network(std::vector<double> capacity_bps);

  // A flow of `bytes` that starts now on `path`; returns its number (0, 1, ...). A flow of 0 bytes
  // or with an empty path completes now (advance_to(now()) reports it).
  std::size_t start(std::span<const arc_id> path, double bytes, std::uint32_t level = 0);
  [[nodiscard]] double now() const noexcept { return now_; }
  // When the next active flow completes at the current rates (now() for flows already complete
  // but not yet reported; infinity when no active flow has a rate).
  [[nodiscard]] double next_completion();
  // Moves the clock to t (now() <= t <= next_completion()), every active flow sending at its
  // rate meanwhile; returns the flows complete at t, in the order they started.
  std::vector<std::size_t> advance_to(double t);

  [[nodiscard]] std::size_t active() const noexcept { return live_.size(); }
  [[nodiscard]] std::size_t flows() const noexcept { return bytes_.size(); }
  [[nodiscard]] double rate_bps(std::size_t f);
  [[nodiscard]] double remaining_bytes(std::size_t f) const noexcept { return remaining_[f]; }
  [[nodiscard]] double sent_bytes(std::size_t f) const noexcept { return bytes_[f] - remaining_[f]; }
  [[nodiscard]] double start_time(std::size_t f) const noexcept { return start_[f]; }
  // NaN until the flow completes.
  [[nodiscard]] double finish_time(std::size_t f) const noexcept { return finish_[f]; }

 private:
  void refresh();
  std::vector<double> capacity_;
  path_list paths_;
  std::vector<double> bytes_, remaining_, start_, finish_, rates_;
  std::vector<std::uint32_t> level_;
  std::vector<std::size_t> live_;      // flows still sending, in the order they started
  std::vector<std::size_t> done_now_;  // completed at now_, not yet reported
  double now_ = 0;
  bool stale_ = false;
};

// A flow of a set for completion_times: its size, when it starts, its priority level.
struct sized_flow {
  double bytes = 0;
  double start_s = 0;
  std::uint32_t level = 0;
};

// When each flow of `flows` (path i for flow i) completes, in seconds, under max-min fair
// sharing with rates recomputed at every start and end.
std::vector<double> completion_times(std::span<const double> capacity_bps, const path_list& paths,
                                     std::span<const sized_flow> flows);

}  // namespace netlib::dc
