// Theory of operation: the access link is a queue fed by the requests that miss the cache. Its
// delay follows the textbook's Δ/(1 - Δβ) model (problem P9), Δ = L/R, which is unbounded once the
// access link's intensity Δβ reaches 1; a cache with hit rate h lowers β to (1 - h)β.
#include "netlib/calc/web_cache.hpp"

#include <fmt/format.h>

#include "netlib/calc/input_error.hpp"
#include "netlib/core/units.hpp"

namespace netlib::calc {
namespace {

web_cache_side side(const web_cache_input& in, double beta, std::string& text, const char* label) {
  web_cache_side s;
  const double delta = in.object_bits / in.access_bps;
  s.access_intensity = delta * beta;
  text += fmt::format("{}: access-link intensity Δβ = ({} b / {} bps) × {} /s = {}\n", label, num(in.object_bits),
                      num(in.access_bps), num(beta), num(s.access_intensity));
  if (s.access_intensity >= 1) {
    text += fmt::format("{}: intensity >= 1, the access delay and the response time are unbounded\n", label);
    return s;
  }
  s.access_delay_s = delta / (1 - s.access_intensity);
  text += fmt::format("{}: access delay Δ/(1 - Δβ) = {} / (1 - {}) = {} s\n", label, num(delta),
                      num(s.access_intensity), num(*s.access_delay_s));
  return s;
}

}  // namespace

web_cache_result web_cache(const web_cache_input& in) {
  require_non_negative(in.request_rate, "the request rate");
  require_positive(in.object_bits, "the object size");
  require_positive(in.access_bps, "the access link rate");
  require_non_negative(in.internet_s, "the Internet delay");
  require_probability(in.hit_rate, "the hit rate");
  require_non_negative(in.lan_s, "the LAN delay");
  require_non_negative(in.lan_bps, "the LAN rate");

  web_cache_result r;
  std::string& t = r.explanation;
  if (in.lan_bps > 0) {
    r.lan_intensity = in.request_rate * in.object_bits / in.lan_bps;
    t += fmt::format("LAN intensity = β·L/R_LAN = {} × {} / {} = {}\n", num(in.request_rate), num(in.object_bits),
                     num(in.lan_bps), num(*r.lan_intensity));
  }
  r.without_cache = side(in, in.request_rate, t, "without cache");
  if (r.without_cache.access_delay_s) {
    r.without_cache.response_s = in.internet_s + *r.without_cache.access_delay_s;
    t += fmt::format("without cache: response = Internet + access = {} + {} = {} s\n", num(in.internet_s),
                     num(*r.without_cache.access_delay_s), num(*r.without_cache.response_s));
  }
  const double miss = 1 - in.hit_rate;
  r.with_cache = side(in, miss * in.request_rate, t, "with cache");
  if (r.with_cache.access_delay_s) {
    const double miss_time = in.internet_s + *r.with_cache.access_delay_s;
    r.with_cache.response_s = in.hit_rate * in.lan_s + miss * miss_time;
    t += fmt::format("with cache: response = h·LAN + (1 - h)·(Internet + access) = {} × {} + {} × ({} + {}) = {}",
                     num(in.hit_rate), num(in.lan_s), num(miss), num(in.internet_s), num(*r.with_cache.access_delay_s),
                     num_s(*r.with_cache.response_s));
  }
  while (!t.empty() && t.back() == '\n') t.pop_back();
  return r;
}

}  // namespace netlib::calc
