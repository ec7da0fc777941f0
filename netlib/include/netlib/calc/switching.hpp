#pragma once
// Circuit versus packet switching (textbook §1.3.2): a link of rate R, users of rate r active with
// probability p. Circuit switching supports floor(R/r) users; with packet switching and N users,
// the probability that more than that many are active at once is the exact binomial tail
//   P(X > n) = 1 - Σ_{k=0..n} C(N,k) p^k (1-p)^(N-k).
// The textbook's example: 1 Mbps, 100 kbps, p = 0.1, N = 35 -> 10 users, P(X > 10) ≈ 0.0004.
#include <string>

namespace netlib::calc {

struct switching_result {
  long long circuit_users = 0;
  double probability_more_active = 0;  // P(X > circuit_users) among `users`
  double expected_active = 0;          // N · p
  std::string explanation;
};

switching_result circuit_vs_packet(double link_bps, double user_bps, double active_probability, long long users);

// P(X > n) for X ~ Binomial(trials, p), summed exactly in log space.
double binomial_tail_above(long long trials, double p, long long n);

}  // namespace netlib::calc
