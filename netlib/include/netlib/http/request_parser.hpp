#pragma once
// Incremental HTTP/1.1 request parser (RFC 9112), server side. Call next() with the unconsumed
// input; drop `consumed` bytes; repeat until need_more. Events per request: head_complete, zero or
// more body_data, message_complete; then the next pipelined request starts. A parse_error is
// sticky and names the status to send (status_for) before closing.
//
// The parser enforces syntax and framing (400/413/414/431/501/505). Method policy (501 for an
// unknown method, 405 for a known one a resource does not allow) is the server's: see
// server_session.
#include <cstdint>
#include <optional>
#include <string>

#include "netlib/http/body_framing.hpp"
#include "netlib/http/chunked_decoder.hpp"
#include "netlib/http/message.hpp"
#include "netlib/http/parse_event.hpp"
#include "netlib/http/parser_limits.hpp"

namespace netlib::http {

class request_parser {
 public:
  explicit request_parser(parser_limits limits = {}) : limits_(limits), chunked_(limits) {}
  parse_step next(byte_view input);
  // The current request's head; valid from head_complete until the next request's head starts.
  [[nodiscard]] const request_head& head() const noexcept { return head_; }
  // Moves the current head out (after message_complete, when the caller keeps it): head() is then
  // empty until the next head is parsed.
  [[nodiscard]] request_head take_head() noexcept {
    request_head taken = std::move(head_);
    head_ = {};
    return taken;
  }
  // The first line of a head the parser read whole and refused (the request line as it came,
  // without CRLF), for a server's access log; empty when no whole first line was read.
  [[nodiscard]] const std::string& refused_request_line() const noexcept { return refused_line_; }
  [[nodiscard]] const parser_limits& limits() const noexcept { return limits_; }
  [[nodiscard]] std::optional<errc> error() const noexcept { return error_; }
  // True between requests (nothing of a next request consumed yet).
  [[nodiscard]] bool idle() const noexcept { return state_ == state::awaiting_head; }

 private:
  enum class state { awaiting_head, body_none, body_length, body_chunked, failed };
  parse_step on_head(byte_view input);
  parse_step on_body_length(byte_view input);
  parse_step on_body_chunked(byte_view input);
  parse_step fail(errc e);
  std::optional<errc> validate(const request_head& h) const;

  parser_limits limits_;
  state state_ = state::awaiting_head;
  request_head head_;
  std::uint64_t remaining_ = 0;
  chunked_decoder chunked_;
  std::optional<errc> error_;
  std::string refused_line_;
};

}  // namespace netlib::http
