// Theory of operation: a quantity is a number (decimal or scientific) followed immediately or
// after spaces by a unit from a fixed table. Parsing splits at the first character that cannot
// continue a number, looks the unit up case-sensitively (b is a bit, B a byte; m metre, M mega),
// and rejects negative, non-finite or missing values with a message naming the accepted units.
#include "netlib/core/units.hpp"
#include "netlib/core/ascii.hpp"

#include <fmt/format.h>

#include <array>
#include <charconv>
#include <cmath>
#include <utility>

namespace netlib::units {
namespace {

struct unit {
  std::string_view name;
  double factor;
};

struct split {
  double value;
  std::string_view unit;
};

split split_number(std::string_view text, std::string_view what, std::string_view accepted) {
  const auto trim = [](std::string_view s) { return ascii::trim(s, " \t"); };
  text = trim(text);
  if (text.empty()) throw unit_error(fmt::format("empty {}: write a number with a unit ({})", what, accepted));
  if (text.front() == '+') text.remove_prefix(1);
  double value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec == std::errc::result_out_of_range)  // 1e400, or a thousand digits
    throw unit_error(fmt::format("'{}' is out of range for a {}", ascii::excerpt(text), what));
  if (ec != std::errc{} || end == text.data())
    throw unit_error(
        fmt::format("'{}' is not a {}: it must start with a number ({})", ascii::excerpt(text), what, accepted));
  // from_chars accepts "inf" and "nan"; a quantity may not be either.
  if (!std::isfinite(value)) throw unit_error(fmt::format("'{}' is not a finite {}", ascii::excerpt(text), what));
  if (value < 0) throw unit_error(fmt::format("'{}': a {} cannot be negative", ascii::excerpt(text), what));
  return {value, trim(text.substr(static_cast<std::size_t>(end - text.data())))};
}

// `bare_unit`: the unit a bare number is read in (durations: seconds); empty: a bare number other
// than 0 is refused, because it is ambiguous (1500: bits or bytes?).
template <std::size_t N>
double parse_with(std::string_view text, std::string_view what, std::string_view accepted,
                  const std::array<unit, N>& table, std::string_view bare_unit = {}) {
  const split s = split_number(text, what, accepted);
  if (s.unit.empty()) {
    if (s.value == 0) return 0;  // zero is zero in every unit
    for (const unit& u : table)
      if (!bare_unit.empty() && u.name == bare_unit) return s.value * u.factor;
    throw unit_error(
        fmt::format("'{}' has no unit: write the {} with a unit ({})", ascii::excerpt(text), what, accepted));
  }
  for (const unit& u : table)
    if (u.name == s.unit) return s.value * u.factor;
  throw unit_error(fmt::format("'{}': unknown unit '{}' for a {} (use {})", ascii::excerpt(text),
                               ascii::excerpt(s.unit), what, accepted));
}

constexpr std::array size_units{
    unit{"b", 1},
    unit{"bit", 1},
    unit{"bits", 1},
    unit{"kb", 1e3},
    unit{"Kb", 1e3},
    unit{"Mb", 1e6},
    unit{"Gb", 1e9},
    unit{"B", 8},
    unit{"byte", 8},
    unit{"bytes", 8},
    unit{"kB", 8e3},
    unit{"KB", 8e3},
    unit{"MB", 8e6},
    unit{"GB", 8e9},
    unit{"KiB", 8.0 * 1024},
    unit{"MiB", 8.0 * 1048576},
    unit{"GiB", 8.0 * 1073741824},
};
constexpr std::string_view size_accepted = "b, kb, Mb, B, kB, MB, GB, KiB, MiB, GiB; e.g. 1500B or 12000b";

constexpr std::array rate_units{
    unit{"bps", 1},    unit{"b/s", 1},    unit{"kbps", 1e3}, unit{"Kbps", 1e3}, unit{"kb/s", 1e3},
    unit{"Mbps", 1e6}, unit{"Mb/s", 1e6}, unit{"Gbps", 1e9}, unit{"Gb/s", 1e9}, unit{"Tbps", 1e12},
    unit{"Bps", 8},    unit{"B/s", 8},    unit{"kB/s", 8e3}, unit{"MB/s", 8e6}, unit{"GB/s", 8e9},
};
constexpr std::string_view rate_accepted = "bps, kbps, Mbps, Gbps, or B/s, MB/s; e.g. 10Mbps";

constexpr std::array distance_units{
    unit{"m", 1},
    unit{"km", 1e3},
    unit{"cm", 1e-2},
    unit{"mm", 1e-3},
};
constexpr std::string_view distance_accepted = "m, km, cm, mm; e.g. 2500km";

constexpr std::array speed_units{
    unit{"m/s", 1},
    unit{"km/s", 1e3},
    unit{"mps", 1},
};
constexpr std::string_view speed_accepted = "m/s or km/s; e.g. 2.5e8m/s";

constexpr std::array duration_units{
    unit{"s", 1},     unit{"sec", 1},  unit{"ms", 1e-3}, unit{"us", 1e-6}, unit{"\xC2\xB5s", 1e-6},
    unit{"ns", 1e-9}, unit{"min", 60}, unit{"h", 3600},
};
constexpr std::string_view duration_accepted = "s, ms, us, ns, min, h; e.g. 30ms; a bare number is seconds";

constexpr std::array per_second_units{
    unit{"/s", 1}, unit{"pps", 1}, unit{"/ms", 1e3}, unit{"/min", 1.0 / 60}, unit{"/h", 1.0 / 3600},
};
constexpr std::string_view per_second_accepted = "/s, pps, /ms, /min; e.g. 500/s";

std::string with_prefix(double value, std::string_view base) {
  struct prefix {
    double scale;
    std::string_view name;
  };
  static constexpr std::array prefixes{prefix{1e12, "T"}, prefix{1e9, "G"},  prefix{1e6, "M"},  prefix{1e3, "k"},
                                       prefix{1, ""},     prefix{1e-3, "m"}, prefix{1e-6, "u"}, prefix{1e-9, "n"}};
  if (value == 0 || !std::isfinite(value)) return fmt::format("{} {}", value, base);
  const double mag = std::fabs(value);
  for (const prefix& p : prefixes) {
    if (mag >= p.scale * 0.9995) return fmt::format("{:.3g} {}{}", value / p.scale, p.name, base);
  }
  return fmt::format("{:.3g} n{}", value / 1e-9, base);
}

}  // namespace

double parse_bits(std::string_view text) {
  return parse_with(text, "size", size_accepted, size_units);
}
double parse_bytes(std::string_view text) {
  return parse_bits(text) / 8;
}
double parse_rate_bps(std::string_view text) {
  if (text.ends_with("bs") && !text.ends_with("bps"))  // a common slip: 10Mbs
    throw unit_error(fmt::format("'{}': did you mean '{}ps'? rates are written like 10Mbps", ascii::excerpt(text),
                                 ascii::excerpt(text.substr(0, text.size() - 1))));
  return parse_with(text, "rate", rate_accepted, rate_units);
}
double parse_distance_m(std::string_view text) {
  return parse_with(text, "distance", distance_accepted, distance_units);
}
double parse_speed_mps(std::string_view text) {
  return parse_with(text, "propagation speed", speed_accepted, speed_units);
}
double parse_duration_s(std::string_view text) {
  return parse_with(text, "duration", duration_accepted, duration_units, "s");
}
double parse_per_second(std::string_view text) {
  return parse_with(text, "rate of arrivals", per_second_accepted, per_second_units);
}
double parse_fraction(std::string_view text) {
  const split s = split_number(text, "fraction", "0.1 or 10%");
  double v = s.value;
  if (s.unit == "%") {
    v /= 100;
  } else if (!s.unit.empty()) {
    throw unit_error(fmt::format("'{}' is not a fraction: write 0.1 or 10%", ascii::excerpt(text)));
  }
  if (v > 1)
    throw unit_error(fmt::format("'{}': a fraction must be between 0 and 1 (or 0% and 100%)", ascii::excerpt(text)));
  return v;
}

// Seconds take the sub-second SI prefixes (ms, us, ns) only: 30e6 s is "347 days", never "30 Ms".
std::string format_seconds(double s) {
  const double mag = std::fabs(s);
  if (!std::isfinite(s) || mag < 999.5) return with_prefix(s, "s");
  if (mag < 60 * 99.95) return fmt::format("{:.3g} min", s / 60);
  if (mag < 3600 * 47.95) return fmt::format("{:.3g} h", s / 3600);
  if (mag < 86400 * 999.5) return fmt::format("{:.3g} days", s / 86400);
  return fmt::format("{:.3g} years", s / (86400 * 365.25));
}
std::string format_bps(double bps) {
  return with_prefix(bps, "bps");
}
std::string format_bytes(double bytes) {
  return with_prefix(bytes, "B");
}
std::string format_meters(double m) {
  return with_prefix(m, "m");
}

std::string format_count(long long n, std::string_view singular, std::string_view plural) {
  return fmt::format("{} {}", n, n == 1 ? singular : plural);
}

}  // namespace netlib::units
