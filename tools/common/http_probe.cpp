// The HTTP suite's client connection: tcp_probe with HTTP response parsing.
#include "http_probe.hpp"

#include "netlib/http/errc.hpp"
#include "netlib/http/status.hpp"

namespace netlab::grade {

namespace http = netlib::http;

http_probe::http_probe(const std::string& host, unsigned short port, std::chrono::milliseconds timeout)
    : tcp_probe(host, port, timeout) {
  closed_error_.clear();
}

bool http_probe::send(std::string_view bytes, const std::vector<std::string>& methods) {
  if (!connected()) return false;
  for (const auto& m : methods) parser_.expect(m);
  return tcp_probe::send(bytes);
}

std::optional<http_reply> http_probe::next_response() {
  http_reply reply;
  for (int round = 0; round < 100000; ++round) {
    auto& buffer = this->buffer();
    auto step = eof_ && buffer.empty() ? parser_.receive_eof() : parser_.next(buffer.data());
    buffer.consume(step.consumed);
    if (std::holds_alternative<http::body_data>(step.event)) {
      reply.body += netlib::as_chars(std::get<http::body_data>(step.event).bytes);
    } else if (std::holds_alternative<http::head_complete>(step.event)) {
      reply.head = parser_.head();
    } else if (std::holds_alternative<http::message_complete>(step.event)) {
      if (!http::is_interim(reply.head.status)) return reply;
      reply = {};
    } else if (const auto* e = std::get_if<http::parse_error>(&step.event)) {
      error_ = "the response could not be parsed: " + std::string(http::make_error_code(e->code).message());
      return std::nullopt;
    } else if (eof_) {
      if (error_.empty()) {
        error_ = received().empty() || received().starts_with("HTTP/")
                     ? "the server closed the connection before a complete response"
                     : "the reply has no HTTP/1.x status line (HTTP/0.9 style)";
      }
      return std::nullopt;
    } else if (!read_more() && !eof_) {
      if (error_.empty()) error_ = "no connection";
      return std::nullopt;
    }
  }
  error_ = "the response never ended";
  return std::nullopt;
}

bool http_probe::wait_closed() {
  for (int round = 0; round < 100000 && !eof_; ++round) {
    if (!read_more()) break;
  }
  return eof_;
}

}  // namespace netlab::grade
