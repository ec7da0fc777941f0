#pragma once
// Web caching (textbook §2.2.5, problem P9): requests at rate β for objects of L bits over an
// access link of rate R: access-link intensity I = β·L/R. Access delay uses the textbook's model
// Δ/(1 - Δβ) with Δ = L/R (unbounded when Δβ >= 1). Average response time:
//   without a cache:        Internet delay + access delay
//   with hit rate h:        h · (LAN delay) + (1 - h) · (Internet delay + access delay at (1-h)β)
#include <optional>
#include <string>

namespace netlib::calc {

struct web_cache_input {
  double request_rate = 0;  // β, requests per second
  double object_bits = 0;   // L
  double access_bps = 0;    // R
  double internet_s = 0;    // from the access router to the origin server and back
  double hit_rate = 0;      // h
  double lan_s = 0;         // response time of a cache hit
  double lan_bps = 0;       // 0: LAN intensity not computed
};

struct web_cache_side {
  double access_intensity = 0;
  std::optional<double> access_delay_s;  // absent when unbounded
  std::optional<double> response_s;      // absent when unbounded
};

struct web_cache_result {
  std::optional<double> lan_intensity;
  web_cache_side without_cache;
  web_cache_side with_cache;
  std::string explanation;
};

web_cache_result web_cache(const web_cache_input& in);

}  // namespace netlib::calc
