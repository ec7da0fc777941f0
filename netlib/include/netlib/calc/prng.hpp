#pragma once
// A seeded pseudo-random source that gives the same numbers on every platform: std::mt19937_64 is
// fully specified by the standard, while std's distributions are not, so the mappings to ranges
// and distributions are written here.
#include <cstdint>
#include <random>

namespace netlib::calc {

class prng {
 public:
  explicit prng(std::uint64_t seed) : engine_(seed) {}
  std::uint64_t next() { return engine_(); }
  // Uniform in [0, 1) with 53 random bits.
  double uniform();
  // Uniform integer in [lo, hi] (rejection sampling: no modulo bias).
  long long between(long long lo, long long hi);
  // Exponential with the given mean (inverse transform).
  double exponential(double mean);
  // True with probability p.
  bool chance(double p) { return uniform() < p; }

 private:
  std::mt19937_64 engine_;
};

}  // namespace netlib::calc
