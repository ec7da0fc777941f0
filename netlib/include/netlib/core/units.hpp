#pragma once
// Units written the way the textbook writes them (docs/architecture.md, "Program conventions"): 1500B, 12000b, 10Mbps,
// 1Gbps, 2500km, 2.5e8m/s, 30ms, 500/s. Rates use powers of 10; byte sizes take B, kB/KB, MB, GB (powers of 10) or KiB,
// MiB, GiB (powers of 2). The unit must be written (1500: bits or bytes?), with two exceptions: 0 needs no unit, and a
// bare duration is in seconds (as for sleep(1) and timeout(1)).
#include <stdexcept>
#include <string>
#include <string_view>

namespace netlib::units {

// Thrown for text that is not a valid quantity; the message says what was expected.
class unit_error : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

double parse_bits(std::string_view text);        // "1500B" -> 12000, "12000b" -> 12000, "1KiB"
double parse_bytes(std::string_view text);       // "1500B" -> 1500, "1MB" -> 1e6, "12000b" -> 1500
double parse_rate_bps(std::string_view text);    // "10Mbps" -> 1e7, "100kbps" -> 1e5
double parse_distance_m(std::string_view text);  // "2500km" -> 2.5e6, "10m", "1mi" rejected
double parse_speed_mps(std::string_view text);   // "2.5e8m/s", "200000km/s"
double parse_duration_s(std::string_view text);  // "30ms", "1.5s", "20us", "100ns", "2min", "2" (s)
double parse_per_second(std::string_view text);  // "500/s", "500pps", "2/ms"
double parse_fraction(std::string_view text);    // "0.1", "10%"

// Formatting with an SI prefix and three significant digits: "12 ms", "1.2 s", "10 Mbps".
// Durations from 1000 s up are written in min, h, days or years ("347 days"), never "30 Ms".
std::string format_seconds(double s);
std::string format_bps(double bps);
std::string format_bytes(double bytes);
std::string format_meters(double m);
// A count and its noun, singular for exactly one: "1 packet", "3 packets".
std::string format_count(long long n, std::string_view singular, std::string_view plural);

}  // namespace netlib::units
