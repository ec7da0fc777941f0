#pragma once
// Incremental HTTP/1.1 response parser (RFC 9112), client side. Before each request is sent, tell
// the parser its method with expect(); responses are matched to requests in order (pipelining).
// Events per response: head_complete (a 1xx head is followed by another head), body_data...,
// message_complete. A close-delimited body ends with receive_eof(). Errors are sticky.
#include <cstdint>
#include <deque>
#include <optional>
#include <string>

#include "netlib/http/body_framing.hpp"
#include "netlib/http/chunked_decoder.hpp"
#include "netlib/http/message.hpp"
#include "netlib/http/parse_event.hpp"
#include "netlib/http/parser_limits.hpp"

namespace netlib::http {

class response_parser {
 public:
  explicit response_parser(parser_limits limits = {}) : limits_(limits), chunked_(limits) {}
  // The method of the next request sent on this connection (HEAD responses carry no body).
  void expect(std::string_view method) { methods_.emplace_back(method); }
  parse_step next(byte_view input);
  // End of stream: message_complete for a close-delimited body, need_more when idle between
  // responses, truncated_message otherwise.
  parse_step receive_eof();
  [[nodiscard]] const response_head& head() const noexcept { return head_; }
  [[nodiscard]] const body_framing& framing() const noexcept { return framing_; }
  [[nodiscard]] std::optional<errc> error() const noexcept { return error_; }
  [[nodiscard]] bool idle() const noexcept { return state_ == state::awaiting_head; }

 private:
  enum class state { awaiting_head, body_none, body_length, body_chunked, body_until_close, failed };
  parse_step on_head(byte_view input);
  parse_step on_body_length(byte_view input);
  parse_step on_body_chunked(byte_view input);
  parse_step fail(errc e);
  void finish_message();

  parser_limits limits_;
  state state_ = state::awaiting_head;
  response_head head_;
  body_framing framing_;
  std::uint64_t remaining_ = 0;
  chunked_decoder chunked_;
  std::deque<std::string> methods_;
  std::optional<errc> error_;
};

}  // namespace netlib::http
