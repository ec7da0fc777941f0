// Single byte-range evaluation (RFC 9110 §14.1.2 range specs, §14.2 Range, §15.5.17 416).
#include "netlib/http/byte_range.hpp"

#include "netlib/http/fields.hpp"

namespace netlib::http {
namespace {

std::optional<std::uint64_t> parse_digits(std::string_view s) {
  if (s.empty() || s.size() > 18) return std::nullopt;
  std::uint64_t n = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + static_cast<std::uint64_t>(c - '0');
  }
  return n;
}

}  // namespace

range_decision evaluate_range(std::string_view value, std::uint64_t size) {
  using kind = range_decision::kind;
  value = trim_ows(value);
  if (value.size() < 6 || !iequals(value.substr(0, 6), "bytes=")) return {};
  const std::string_view spec = trim_ows(value.substr(6));
  if (spec.find(',') != std::string_view::npos) return {};  // several ranges: ignored (200)
  const std::size_t dash = spec.find('-');
  if (dash == std::string_view::npos) return {};
  const auto first = parse_digits(spec.substr(0, dash));
  const std::string_view last_text = spec.substr(dash + 1);
  if (dash == 0) {  // suffix-range: the last N bytes
    const auto n = parse_digits(last_text);
    if (!n) return {};
    if (*n == 0 || size == 0) return {kind::unsatisfiable, 0, 0};
    return {kind::satisfiable, *n >= size ? 0 : size - *n, size - 1};
  }
  if (!first) return {};
  std::uint64_t last = size == 0 ? 0 : size - 1;
  if (!last_text.empty()) {
    const auto l = parse_digits(last_text);
    if (!l || *l < *first) return {};  // invalid range-spec: ignored
    if (*l < last) last = *l;
  }
  if (*first >= size) return {kind::unsatisfiable, 0, 0};
  return {kind::satisfiable, *first, last};
}

}  // namespace netlib::http
