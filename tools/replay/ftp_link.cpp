// FTP control and data connections for netlab-replay, on netlib::io's blocking client and listener.
#include "ftp_link.hpp"

#include <array>

#include "netlib/io/asio.hpp"
#include "netlib/io/tcp_client.hpp"

namespace netlab::replay {

namespace io = netlib::io;

ftp_control::ftp_control(const std::string& host, unsigned short port, std::chrono::milliseconds timeout)
    : client_(std::make_unique<io::tcp_client>(timeout)) {
  try {
    client_->connect(host, port);
  } catch (const io::io_error& e) {
    error_ = e.what();
    client_.reset();
  }
}

ftp_control::~ftp_control() = default;

bool ftp_control::send(std::string_view line) {
  if (!client_) return false;
  try {
    client_->write(line);
    return true;
  } catch (const io::io_error& e) {
    error_ = e.what();
    return false;
  }
}

std::optional<netlib::ftp::reply> ftp_control::read_reply() {
  for (int round = 0; round < 100000 && client_; ++round) {
    auto r = parser_.next(buffer_.data());
    buffer_.consume(r.consumed);
    if (r.status == netlib::ftp::reply_status::reply) return r.value;
    if (r.status == netlib::ftp::reply_status::error) {
      error_ = "malformed reply: " + r.error;
      return std::nullopt;
    }
    std::array<std::byte, 4096> chunk{};
    try {
      const auto n = client_->read_some(chunk);
      if (n == 0) {
        error_ = "the server closed the connection";
        return std::nullopt;
      }
      buffer_.append(netlib::byte_view(chunk.data(), n));
    } catch (const io::io_error& e) {
      error_ = e.what();
      return std::nullopt;
    }
  }
  if (error_.empty()) error_ = "no reply";
  return std::nullopt;
}

std::string ftp_control::local_host() const {
  if (!client_) return {};
  try {
    return client_->local_endpoint().address().to_string();
  } catch (const std::exception&) {
    return {};
  }
}

ftp_data::ftp_data(std::chrono::milliseconds timeout) : timeout_(timeout) {}
ftp_data::~ftp_data() = default;

bool ftp_data::connect(const std::string& host, unsigned short port) {
  try {
    client_ = std::make_unique<io::tcp_client>(timeout_);
    client_->connect(host, port);
    return true;
  } catch (const io::io_error& e) {
    error_ = std::string("data connection: ") + e.what();
    client_.reset();
    return false;
  }
}

std::optional<unsigned short> ftp_data::listen(const std::string& host) {
  try {
    listener_ = std::make_unique<io::tcp_listener>(host, 0, timeout_);
    return listener_->local_endpoint().port();
  } catch (const io::io_error& e) {
    error_ = std::string("data listener: ") + e.what();
    return std::nullopt;
  }
}

bool ftp_data::ensure_connected() {
  try {
    if (!client_ && listener_) client_ = std::make_unique<io::tcp_client>(listener_->accept());
  } catch (const io::io_error& e) {
    error_ = std::string("data connection: ") + e.what();
  }
  if (!client_ && error_.empty()) error_ = "no data connection";
  return client_ != nullptr;
}

std::optional<std::string> ftp_data::read_all() {
  if (!ensure_connected()) return std::nullopt;
  try {
    return client_->read_to_end(256 * 1024 * 1024);
  } catch (const io::io_error& e) {
    error_ = std::string("data connection: ") + e.what();
    return std::nullopt;
  }
}

bool ftp_data::write_all(std::string_view bytes) {
  if (!ensure_connected()) return false;
  try {
    client_->write(bytes);
    client_->shutdown_send();
    client_->close();
    return true;
  } catch (const io::io_error& e) {
    error_ = std::string("data connection: ") + e.what();
    return false;
  }
}

void ftp_data::close() {
  if (client_) {
    try {
      client_->close();
    } catch (const std::exception&) {
    }
  }
  client_.reset();
  listener_.reset();
}

}  // namespace netlab::replay
