#pragma once
// Incremental HTTP/1.1 request parser (RFC 9112), server side. Call next() with the unconsumed
// input; drop `consumed` bytes; repeat until need_more. Events per request: head_complete, zero or
// more body_data, message_complete; then the next pipelined request starts. A parse_error is
// sticky and names the status to send (status_for) before closing.
//
// The head is parsed into views (request_view): method, target and every field are spans of the
// input given to next(), no byte copied. They stay valid while those bytes do: a caller that
// drops them and reads more (a driver collecting a body over several reads) first calls
// keep_head(), which copies the head's bytes into the parser once and points the views there.
//
// The parser enforces syntax and framing (400/413/414/431/501/505). Method policy (501 for an
// unknown method, 405 for a known one a resource does not allow) is the server's: see
// server_session.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "netlib/http/body_framing.hpp"
#include "netlib/http/chunked_decoder.hpp"
#include "netlib/http/message.hpp"
#include "netlib/http/parse_event.hpp"
#include "netlib/http/parser_limits.hpp"

namespace netlib::http {

class request_parser {
 public:
  explicit request_parser(parser_limits limits = {}) : limits_(limits), chunked_(limits) {}
  // A copy's head points into the copy's own kept bytes (and trailers); copying a parser whose head
  // is views of its caller's input copies those views.
  request_parser(const request_parser& other) : request_parser(other.limits_) { *this = other; }
  request_parser& operator=(const request_parser& other);
  parse_step next(byte_view input);
  // The current request's head, from head_complete until the next request's head starts: views of
  // the input it was parsed from (see above). Trailers (chunked bodies) are views of the
  // parser's own copy, valid as long as the head.
  [[nodiscard]] const request_view& head() const noexcept { return head_; }
  // Copies the current head's bytes into the parser (memory reused from head to head) and points
  // head() at them, so the caller may drop and overwrite its input. Nothing to do when kept.
  void keep_head();
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
  std::optional<errc> validate(const request_view& h, std::uint32_t seen) const;
  void take_trailers();

  parser_limits limits_;
  state state_ = state::awaiting_head;
  request_view head_;
  std::string_view head_bytes_;  // what head_'s views point into (the input, or kept_)
  std::string kept_;             // keep_head()'s copy
  std::uint64_t remaining_ = 0;
  chunked_decoder chunked_;
  std::optional<errc> error_;
  std::string refused_line_;
};

}  // namespace netlib::http
