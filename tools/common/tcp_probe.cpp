// The line-based suites' client connection.
#include "tcp_probe.hpp"

#include <array>

#include "netlib/io/asio.hpp"
#include "netlib/io/tcp_client.hpp"

namespace netlab::grade {

tcp_probe::tcp_probe(const std::string& host, unsigned short port, std::chrono::milliseconds timeout)
    : client_(std::make_unique<netlib::io::tcp_client>(timeout)) {
  try {
    client_->connect(host, port);
  } catch (const netlib::io::io_error& e) {
    error_ = e.what();
    client_.reset();
  }
}

tcp_probe::~tcp_probe() = default;

bool tcp_probe::send(std::string_view bytes) {
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

bool tcp_probe::read_more() {
  if (!client_ || eof_) return false;
  std::array<std::byte, 16384> chunk{};
  try {
    const auto n = client_->read_some(chunk);
    if (n == 0) {
      eof_ = true;
      error_ = closed_error_;
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

void tcp_probe::set_timeout(std::chrono::milliseconds timeout) {
  if (client_) client_->set_timeout(timeout);
}

bool tcp_probe::wait_closed() {
  for (int round = 0; round < 10000 && client_ && !eof_; ++round) {
    buffer_.clear();
    if (!read_more()) break;
  }
  return eof_;
}

}  // namespace netlab::grade
