// Theory of operation: packets cross a chain of store-and-forward links. For each link i we keep
// when it finishes sending the previous packet; packet k starts on link i when it has fully
// arrived at the node (plus the node's processing delay) and the link is free:
//   start(k,i) = max(arrive(k,i-1) + proc_i, finish(k-1,i)), finish = start + L_k/R_i,
//   arrive(k,i) = finish(k,i) + d_i/s_i.
// With equal packet sizes this telescopes to Σ_i (proc_i + L/R_i + d_i/s_i) + (P-1)·max_i L/R_i,
// which is what total_s uses (so P may be large); the recurrence gives the per-packet times.
#include "netlib/calc/end_to_end.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "netlib/calc/input_error.hpp"
#include "netlib/core/units.hpp"

namespace netlib::calc {
namespace {

constexpr std::size_t max_links = 10000;
constexpr long long max_segments = 1'000'000;
constexpr std::size_t kept_packets = 1000;

void check_links(const std::vector<link_spec>& links) {
  if (links.empty()) throw input_error("a path needs at least one link");
  if (links.size() > max_links) throw input_error(fmt::format("at most {} links", max_links));
  for (std::size_t i = 0; i < links.size(); ++i) {
    const auto n = fmt::format("link {}", i + 1);
    require_positive(links[i].rate_bps, n + " rate");
    require_non_negative(links[i].distance_m, n + " distance");
    require_positive(links[i].speed_mps, n + " propagation speed");
    require_non_negative(links[i].processing_s, n + " processing delay");
  }
}

// Runs the recurrence; `size_of(k)` is packet k's length in bits. Returns each arrival time.
template <typename SizeOf>
std::vector<double> recurrence(const std::vector<link_spec>& links, long long count, SizeOf size_of) {
  std::vector<double> link_free(links.size(), 0.0);
  std::vector<double> arrivals;
  arrivals.reserve(static_cast<std::size_t>(count));
  for (long long k = 0; k < count; ++k) {
    double at = 0;  // every packet is ready at the source at t = 0
    for (std::size_t i = 0; i < links.size(); ++i) {
      const double start = std::max(at + links[i].processing_s, link_free[i]);
      link_free[i] = start + size_of(k) / links[i].rate_bps;
      at = link_free[i] + links[i].distance_m / links[i].speed_mps;
    }
    arrivals.push_back(at);
  }
  return arrivals;
}

// The last packet's arrival time (0 for no packet).
template <typename SizeOf>
double last_arrival(const std::vector<link_spec>& links, long long count, SizeOf size_of) {
  const std::vector<double> arrivals = recurrence(links, count, size_of);
  return arrivals.empty() ? 0.0 : arrivals.back();
}

bool plain_equal_links(const std::vector<link_spec>& links) {
  return std::all_of(links.begin(), links.end(), [&](const link_spec& l) {
    return l.rate_bps == links.front().rate_bps && l.distance_m == 0 && l.processing_s == 0;
  });
}

}  // namespace

end_to_end_result end_to_end_delay(const std::vector<link_spec>& links, double length_bits, long long packets) {
  check_links(links);
  require_positive(length_bits, "the packet length L");
  if (packets < 1) throw input_error("the number of packets P must be at least 1");

  double fixed = 0;
  double slowest = 0;
  for (const auto& l : links) {
    fixed += l.processing_s + length_bits / l.rate_bps + l.distance_m / l.speed_mps;
    slowest = std::max(slowest, length_bits / l.rate_bps);
  }
  end_to_end_result r;
  r.total_s = fixed + static_cast<double>(packets - 1) * slowest;
  r.first_packet_s = fixed;
  const auto kept = std::min<long long>(packets, kept_packets);
  r.per_packet_s = recurrence(links, kept, [&](long long) { return length_bits; });

  const auto n = links.size();
  if (plain_equal_links(links)) {
    const double rate = links.front().rate_bps;
    r.explanation = fmt::format(
        "{} equal store-and-forward links, {}: d = (N + P - 1)·L/R = ({} + {} - 1) × {} b / "
        "{} bps = {}",
        n, count_of(packets, "packet", "packets"), n, packets, num(length_bits), num(rate), num_s(r.total_s));
  } else {
    r.explanation = fmt::format(
        "{} store-and-forward links, {}:\n"
        "first packet: Σ (d_proc + L/R_i + d_i/s_i) = {} s\n"
        "each further packet waits for the slowest link: max L/R_i = {} s\n"
        "d = {} + ({} - 1) × {} = {}",
        n, count_of(packets, "packet", "packets"), num(fixed), num(slowest), num(fixed), packets, num(slowest),
        num_s(r.total_s));
  }
  return r;
}

segmentation_result segmentation(const std::vector<link_spec>& links, double message_bits, double payload_bits,
                                 double header_bits) {
  check_links(links);
  require_positive(message_bits, "the message size");
  require_positive(payload_bits, "the packet payload size");
  require_non_negative(header_bits, "the header size");
  const double count = std::ceil(message_bits / payload_bits);
  if (count > static_cast<double>(max_segments))
    throw input_error(fmt::format("at most {} segments (use a larger packet size)", max_segments));

  segmentation_result r;
  r.packets = static_cast<long long>(count);
  r.whole_message_s = last_arrival(links, 1, [&](long long) { return message_bits + header_bits; });
  const double last_payload = message_bits - payload_bits * static_cast<double>(r.packets - 1);
  r.segmented_s = last_arrival(
      links, r.packets, [&](long long k) { return (k + 1 == r.packets ? last_payload : payload_bits) + header_bits; });
  r.explanation = fmt::format(
      "whole message ({} b with {} b header) over {}: {}\n"
      "segmented into {} of at most {} b payload + {} b header: {}\n"
      "segmentation lets the links work in parallel (pipelining): {} faster",
      num(message_bits), num(header_bits), count_of(static_cast<long long>(links.size()), "link", "links"),
      num_s(r.whole_message_s), count_of(r.packets, "packet", "packets"), num(payload_bits), num(header_bits),
      num_s(r.segmented_s), r.segmented_s > 0 ? fmt::format("{:.3g}×", r.whole_message_s / r.segmented_s) : "n/a");
  return r;
}

}  // namespace netlib::calc
