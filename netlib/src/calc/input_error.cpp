#include "netlib/calc/input_error.hpp"

#include <fmt/format.h>

#include <cmath>

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

std::string num(double value) { return fmt::format("{:.6g}", value); }

}  // namespace netlib::calc
