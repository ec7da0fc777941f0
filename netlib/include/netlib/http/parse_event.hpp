#pragma once
// What an incremental parser reports for one call (docs/architecture.md, "Protocol cores never do I/O"). The caller
// passes the unconsumed input, drops `consumed` bytes, and calls again until need_more.
#include <cstddef>
#include <variant>

#include "netlib/core/bytes.hpp"
#include "netlib/http/errc.hpp"

namespace netlib::http {

struct need_more {};      // nothing complete yet: feed more bytes (or end of stream)
struct head_complete {};  // parser.head() is ready; for a 1xx response another head follows
struct body_data {        // part of the body, framing removed; valid while the input is
  byte_view bytes;
};
struct message_complete {};  // the message (and any trailers) ended; the next one may follow
struct parse_error {         // sticky: every later call repeats it; close the connection
  errc code;
};

using parse_event = std::variant<need_more, head_complete, body_data, message_complete, parse_error>;

struct parse_step {
  parse_event event;
  std::size_t consumed = 0;
};

}  // namespace netlib::http
