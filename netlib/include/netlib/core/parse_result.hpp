#pragma once
// What one call of an incremental parser returns (SMTP replies, POP3 responses, ...): its status
// (a complete value, need more input, or malformed), the value when complete, and the bytes it
// consumed; the caller keeps the rest (docs/architecture.md, "Protocol cores never do I/O").
#include <cstddef>

namespace netlib {

template <class Status, class Value>
struct parse_result {
  Status status = Status::need_more;
  Value value;
  std::size_t consumed = 0;
};

}  // namespace netlib
