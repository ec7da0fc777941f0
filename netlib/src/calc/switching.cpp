// Theory of operation: circuit switching reserves r per user, so floor(R/r) users fit; packet
// switching lets all N users share and fails only when more than that many are active at once,
// a binomial tail summed exactly (each term via lgamma in log space, so N can be large).
#include "netlib/calc/switching.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "netlib/calc/input_error.hpp"
#include "netlib/core/units.hpp"

namespace netlib::calc {
namespace {

double log_term(long long n, long long k, double p) {
  const double lc = std::lgamma(double(n) + 1) - std::lgamma(double(k) + 1) - std::lgamma(double(n - k) + 1);
  return lc + double(k) * std::log(p) + double(n - k) * std::log1p(-p);
}

}  // namespace

double binomial_tail_above(long long trials, double p, long long n) {
  if (trials < 0) throw input_error("the number of users must be zero or more");
  require_probability(p, "the activity probability p");
  if (n >= trials) return 0;
  if (n < 0) return 1;
  if (p == 0) return 0;
  if (p == 1) return 1;
  // Sum the shorter side for accuracy: the upper tail directly.
  double sum = 0;
  for (long long k = n + 1; k <= trials; ++k) sum += std::exp(log_term(trials, k, p));
  return std::min(1.0, sum);
}

switching_result circuit_vs_packet(double link_bps, double user_bps, double active_probability, long long users) {
  require_positive(link_bps, "the link rate");
  require_positive(user_bps, "the user rate");
  require_probability(active_probability, "the activity probability");
  if (users < 0 || users > 10'000'000) throw input_error("the number of users must be 0..10000000");
  switching_result r;
  r.circuit_users = static_cast<long long>(std::floor(link_bps / user_bps * (1 + 1e-12)));
  r.expected_active = double(users) * active_probability;
  r.probability_more_active = binomial_tail_above(users, active_probability, r.circuit_users);
  r.explanation = fmt::format(
      "circuit switching: floor(R/r) = floor({} / {}) = {} users\n"
      "packet switching with N = {} users, each active with p = {}:\n"
      "P(more than {} active) = Σ_{{k={}..{}}} C({},k)·{}^k·{}^({}-k) = {}",
      units::format_bps(link_bps), units::format_bps(user_bps), r.circuit_users, users, num(active_probability),
      r.circuit_users, r.circuit_users + 1, users, users, num(active_probability), num(1 - active_probability), users,
      num(r.probability_more_active));
  return r;
}

}  // namespace netlib::calc
