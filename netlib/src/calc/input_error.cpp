#include "netlib/calc/input_error.hpp"

#include <fmt/format.h>

#include <cmath>

#include "netlib/core/units.hpp"

namespace netlib::calc {

void require_positive(double value, std::string_view what) {
  if (!std::isfinite(value) || value <= 0)
    throw input_error(fmt::format("{} must be a positive number (got {})", what, value));
}

void require_non_negative(double value, std::string_view what) {
  if (!std::isfinite(value) || value < 0)
    throw input_error(fmt::format("{} must be zero or more (got {})", what, value));
}

void require_probability(double value, std::string_view what) {
  if (!std::isfinite(value) || value < 0 || value > 1)
    throw input_error(fmt::format("{} must be between 0 and 1 (got {})", what, value));
}

std::string num(double value) {
  return fmt::format("{:.6g}", value);
}

std::string num_s(double seconds) {
  const std::string plain = num(seconds) + " s";
  const std::string prefixed = units::format_seconds(seconds);
  return prefixed == plain ? plain : plain + " (" + prefixed + ")";
}

std::string count_of(long long n, std::string_view singular, std::string_view plural) {
  return units::format_count(n, singular, plural);
}

}  // namespace netlib::calc
