// Theory of operation: a flow's throughput is the minimum of its per-flow link rates and, when a
// shared link carries N flows fairly, R/N (textbook §1.4.4). The first minimum wins ties, and a
// per-flow link wins a tie with the shared share.
#include "netlib/calc/throughput.hpp"

#include <fmt/format.h>

#include "netlib/calc/input_error.hpp"
#include "netlib/core/units.hpp"

namespace netlib::calc {

path_result path_throughput(const std::vector<double>& link_rates_bps, std::optional<shared_link> shared,
                            std::optional<double> file_bits) {
  if (link_rates_bps.empty() && !shared) throw input_error("a path needs at least one link");
  std::string rates;
  path_result r;
  r.bottleneck = -1;
  double best = 0;
  for (std::size_t i = 0; i < link_rates_bps.size(); ++i) {
    require_positive(link_rates_bps[i], fmt::format("link {} rate", i + 1));
    if (r.bottleneck < 0 || link_rates_bps[i] < best) {
      best = link_rates_bps[i];
      r.bottleneck = static_cast<int>(i);
    }
    rates += (i ? ", " : "") + units::format_bps(link_rates_bps[i]);
  }
  double share = 0;
  if (shared) {
    require_positive(shared->rate_bps, "the shared link rate R");
    if (shared->flows < 1) throw input_error("the number of flows N must be at least 1");
    share = shared->rate_bps / static_cast<double>(shared->flows);
    if (r.bottleneck < 0 || share < best) {
      best = share;
      r.bottleneck = -1;
    }
    rates += fmt::format("{}R/N = {} / {} = {}", rates.empty() ? "" : ", ", units::format_bps(shared->rate_bps),
                         shared->flows, units::format_bps(share));
  }
  r.throughput_bps = best;
  for (double rate : link_rates_bps) r.link_utilisation.push_back(best / rate);
  if (shared) r.shared_utilisation = best * static_cast<double>(shared->flows) / shared->rate_bps;
  r.explanation =
      fmt::format("throughput = min({}) = {} ({} bps), limited by {}", rates, units::format_bps(best), num(best),
                  r.bottleneck < 0 ? std::string("the shared link") : fmt::format("link {}", r.bottleneck + 1));
  for (std::size_t i = 0; i < link_rates_bps.size(); ++i)
    r.explanation += fmt::format("\nlink {} utilisation = {} / {} = {}", i + 1, num(best), num(link_rates_bps[i]),
                                 num(r.link_utilisation[i]));
  if (shared)
    r.explanation += fmt::format("\nshared link utilisation = N·throughput/R = {} × {} / {} = {}", shared->flows,
                                 num(best), num(shared->rate_bps), num(*r.shared_utilisation));
  if (file_bits) {
    require_non_negative(*file_bits, "the file size F");
    r.transfer_s = *file_bits / best;
    r.explanation += fmt::format("\ntransfer time = F/throughput = {} b / {} bps = {}", num(*file_bits), num(best),
                                 num_s(*r.transfer_s));
  }
  return r;
}

}  // namespace netlib::calc
