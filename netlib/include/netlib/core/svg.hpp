#pragma once
// Small pieces every SVG picture of the project needs: text escaped for XML, and axes whose ticks
// fall on "nice" values (1, 2, 2.5 or 5 times a power of ten) and whose end is a tick, so the
// largest value is labelled. Used by lab-delay's and lab-dc's plots, netlab-ladder's pictures and
// netlab-grade's JUnit XML (the one XML escaper of the project).
#include <string>
#include <string_view>

namespace netlib::svg {

// &, <, > and " escaped.
std::string escape(std::string_view text);

// A tick step giving four to eight intervals over [0, range] (range > 0).
double tick_step(double range);
// The smallest multiple of `step` at or above `value`.
double axis_end(double value, double step);
// `value` with as many decimals as `step` has (0.25 -> 2, 0.2 -> 1, 5 -> 0), never "-0".
std::string tick_label(double value, double step);

}  // namespace netlib::svg
