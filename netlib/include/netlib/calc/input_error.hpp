#pragma once
// Bad calculator input (a zero rate, a negative length, a probability above 1): the message names
// the quantity and what it must be. Programs report it as a usage error (exit 2).
#include <stdexcept>
#include <string>
#include <string_view>

namespace netlib::calc {

class input_error : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// Throws input_error unless value > 0 (finite).
void require_positive(double value, std::string_view what);
// Throws input_error unless value >= 0 (finite).
void require_non_negative(double value, std::string_view what);
// Throws input_error unless 0 <= value <= 1.
void require_probability(double value, std::string_view what);

// Numbers as they appear in explanations: six significant digits, no trailing zeros ("0.0012").
std::string num(double value);
// A time in an explanation: "0.0012 s (1.2 ms)", or just "12 s" when the prefixed form says the same.
std::string num_s(double seconds);
// "1 packet", "2 packets" (netlib::units::format_count).
std::string count_of(long long n, std::string_view singular, std::string_view plural);

}  // namespace netlib::calc
