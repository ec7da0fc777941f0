// SVG helpers (see svg.hpp). Tick values are computed as i × step by the callers, never summed,
// which would drift.
#include "netlib/core/svg.hpp"

#include <fmt/format.h>

#include <cmath>

namespace netlib::svg {

std::string escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

double tick_step(double range) {
  const double raw = range / 6;
  const double mag = std::pow(10, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
    if (raw <= m * mag * 1.0000001) return m * mag;
  return 10 * mag;
}

double axis_end(double value, double step) {
  return std::ceil(value / step * (1 - 1e-9)) * step;
}

std::string tick_label(double value, double step) {
  const std::string step_text = fmt::format("{:.6g}", step);
  const auto point = step_text.find('.');
  const int decimals = step_text.find('e') != std::string::npos ? 3
                       : point == std::string::npos             ? 0
                                                                : int(step_text.size() - point - 1);
  if (std::abs(value) < step * 1e-6) value = 0;
  if (value >= 1e6) return fmt::format("{:.3g}", value);
  return fmt::format("{:.{}f}", value, decimals);
}

}  // namespace netlib::svg
