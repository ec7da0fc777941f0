// The SMTP suite's client connection.
#include "smtp_probe.hpp"

#include <array>

#include "netlib/io/asio.hpp"
#include "netlib/io/tcp_client.hpp"

namespace netlab::grade {

smtp_probe::smtp_probe(const std::string& host, unsigned short port, std::chrono::milliseconds timeout)
    : client_(std::make_unique<netlib::io::tcp_client>(timeout)) {
  try {
    client_->connect(host, port);
  } catch (const netlib::io::io_error& e) {
    error_ = e.what();
    client_.reset();
  }
}

smtp_probe::~smtp_probe() = default;

bool smtp_probe::send(std::string_view bytes) {
  if (!client_) return false;
  sent_ += bytes;
  try {
    client_->write(bytes);
    return true;
  } catch (const netlib::io::io_error& e) {
    error_ = e.what();
    return false;
  }
}

bool smtp_probe::read_more() {
  if (!client_ || eof_) return false;
  std::array<std::byte, 4096> chunk{};
  try {
    const auto n = client_->read_some(chunk);
    if (n == 0) {
      eof_ = true;
      error_ = "the server closed the connection";
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

std::optional<netlib::smtp::reply> smtp_probe::read_reply() {
  for (int round = 0; round < 10000; ++round) {
    auto r = parser_.next(buffer_.data());
    buffer_.consume(r.consumed);
    if (r.status == netlib::smtp::reply_status::reply) return r.value;
    if (r.status == netlib::smtp::reply_status::malformed) {
      error_ = "the reply is not an SMTP reply (three digits, then a space or a hyphen)";
      return std::nullopt;
    }
    if (!read_more()) return std::nullopt;
  }
  error_ = "the reply never ended";
  return std::nullopt;
}

bool smtp_probe::wait_closed() {
  std::array<std::byte, 4096> chunk{};
  for (int round = 0; round < 10000 && client_ && !eof_; ++round) {
    try {
      const auto n = client_->read_some(chunk);
      if (n == 0) eof_ = true;
      received_.append(reinterpret_cast<const char*>(chunk.data()), n);
    } catch (const netlib::io::io_error& e) {
      error_ = e.what();
      return false;
    }
  }
  return eof_;
}

}  // namespace netlab::grade
