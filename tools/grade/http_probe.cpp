// The HTTP suite's client connection: the only grader file that touches a socket for HTTP.
#include "http_probe.hpp"

#include <array>

#include "netlib/io/asio.hpp"
#include "netlib/http/errc.hpp"
#include "netlib/http/status.hpp"
#include "netlib/io/tcp_client.hpp"

namespace netlab::grade {

namespace http = netlib::http;

http_probe::http_probe(std::string host, unsigned short port, std::chrono::milliseconds timeout)
    : client_(std::make_unique<netlib::io::tcp_client>(timeout)) {
  try {
    client_->connect(host, port);
  } catch (const netlib::io::io_error& e) {
    error_ = e.what();
    client_.reset();
  }
}

http_probe::~http_probe() = default;

bool http_probe::send(std::string_view bytes, const std::vector<std::string>& methods) {
  if (!client_) return false;
  for (const auto& m : methods) parser_.expect(m);
  try {
    client_->write(bytes);
    return true;
  } catch (const netlib::io::io_error& e) {
    error_ = e.what();
    return false;
  }
}

bool http_probe::read_more() {
  if (!client_ || eof_) return false;
  std::array<std::byte, 16384> chunk{};
  try {
    const auto n = client_->read_some(chunk);
    if (n == 0) {
      eof_ = true;
      return false;
    }
    buffer_.append(netlib::byte_view(chunk.data(), n));
    received_.append(reinterpret_cast<const char*>(chunk.data()), n);
    return true;
  } catch (const netlib::io::io_error& e) {
    error_ = e.what();
    return false;
  }
}

std::optional<http_reply> http_probe::next_response() {
  http_reply reply;
  for (int round = 0; round < 100000; ++round) {
    auto step = eof_ && buffer_.empty() ? parser_.receive_eof() : parser_.next(buffer_.data());
    buffer_.consume(step.consumed);
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
        error_ = received_.empty() || received_.starts_with("HTTP/")
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
