// Theory of operation: a response starts with a status line "+OK ..." or "-ERR ..." (RFC 1939 §3).
// When the caller says the command has a multi-line answer and the status is +OK, lines follow
// until a line that is exactly "."; a line starting with '.' has that dot removed (byte-stuffing).
// Complete lines are absorbed as they arrive (consumed grows even on need_more), so a large RETR
// is scanned once; the response is returned when its last line is in.
#include "netlib/pop3/response.hpp"

namespace netlib::pop3 {

bool multiline_response(std::string_view verb, std::string_view argument) noexcept {
  if (verb == "RETR" || verb == "TOP" || verb == "CAPA") return true;
  return (verb == "LIST" || verb == "UIDL" || verb == "AUTH") && argument.empty();
}

response_result response_parser::next(byte_view input, bool multiline) {
  if (failed_) return {response_status::malformed, {}, 0};
  std::size_t used = 0;
  const auto malformed = [&] {
    failed_ = true;
    partial_ = {};
    in_body_ = false;
    return response_result{response_status::malformed, {}, used};
  };
  if (!in_body_) {
    const line_result l = status_framer_.next(input);
    if (l.status == line_status::need_more) return {response_status::need_more, {}, l.consumed};
    used += l.consumed;
    if (l.status != line_status::line) return malformed();
    const std::string_view t = l.text;
    if (t.rfind("+OK", 0) == 0 && (t.size() == 3 || t[3] == ' ')) {
      partial_ = {true, std::string(t.substr(t.size() > 3 ? 4 : 3)), {}};
    } else if (t.rfind("-ERR", 0) == 0 && (t.size() == 4 || t[4] == ' ')) {
      partial_ = {false, std::string(t.substr(t.size() > 4 ? 5 : 4)), {}};
    } else {
      return malformed();
    }
    if (!multiline || !partial_.ok) return {response_status::response, std::exchange(partial_, {}), used};
    in_body_ = true;
    body_framer_ = line_framer({.max_length = 65536, .strict = false});
  }
  for (;;) {  // bounded by the input: each line consumes at least one byte
    const line_result l = body_framer_.next(input.subspan(used));
    used += l.consumed;
    if (l.status == line_status::need_more) return {response_status::need_more, {}, used};
    if (l.status != line_status::line) return malformed();
    std::string_view t = l.text;
    if (t == ".") {
      in_body_ = false;
      return {response_status::response, std::exchange(partial_, {}), used};
    }
    if (!t.empty() && t.front() == '.') t.remove_prefix(1);
    if (partial_.body.size() + t.size() + 2 > max_body_) return malformed();
    partial_.body.append(t);
    partial_.body.append("\r\n");
  }
}

}  // namespace netlib::pop3
