#pragma once
// Throughput (textbook §1.4.4): a flow gets the rate of its bottleneck link, min(R_1..R_N); N
// flows fairly sharing a link of rate R each get R/N, so with server and client links Rs, Rc the
// flow gets min(Rs, Rc, R/N). Transfer time of F bits is F / throughput.
#include <optional>
#include <string>
#include <vector>

namespace netlib::calc {

struct shared_link {
  double rate_bps = 0;
  long long flows = 1;
};

struct path_result {
  double throughput_bps = 0;
  // Index (0-based) of the limiting link, or -1 when the shared link limits.
  int bottleneck = 0;
  std::vector<double> link_utilisation;      // throughput / R_i per per-flow link
  std::optional<double> shared_utilisation;  // N · throughput / R
  std::optional<double> transfer_s;          // F / throughput when a file size is given
  std::string explanation;
};

path_result path_throughput(const std::vector<double>& link_rates_bps, std::optional<shared_link> shared = std::nullopt,
                            std::optional<double> file_bits = std::nullopt);

}  // namespace netlib::calc
