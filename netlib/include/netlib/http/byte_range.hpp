#pragma once
// Single byte ranges (RFC 9110 §14.1.2, §14.2): "bytes=0-99", "bytes=100-", "bytes=-50".
#include <cstdint>
#include <string_view>

namespace netlib::http {

struct range_decision {
  enum class kind { ignore, satisfiable, unsatisfiable };
  kind result = kind::ignore;  // ignore: send the whole representation (200)
  std::uint64_t first = 0;     // inclusive, for satisfiable
  std::uint64_t last = 0;      // inclusive
};

// A Range header value against a representation of `size` bytes. Malformed values, other units
// and multiple ranges are ignored (a server MAY ignore Range, RFC 9110 §14.2).
range_decision evaluate_range(std::string_view value, std::uint64_t size);

}  // namespace netlib::http
