// The FTP suite's data connections on netlib::io's blocking client and listener.
#include "data_channel.hpp"

#include "netlib/io/asio.hpp"
#include "netlib/io/tcp_client.hpp"

namespace netlab::grade {

struct data_channel::impl {
  std::optional<netlib::io::tcp_client> client;
  std::optional<netlib::io::tcp_listener> listener;
};

data_channel::data_channel(std::chrono::milliseconds timeout) : impl_(std::make_unique<impl>()), timeout_(timeout) {}
data_channel::~data_channel() = default;

bool data_channel::connect(const std::string& host, unsigned short port) {
  try {
    impl_->client.emplace(timeout_);
    impl_->client->connect(host, port);
    return true;
  } catch (const netlib::io::io_error& e) {
    error_ = std::string("data connection: ") + e.what();
    impl_->client.reset();
    return false;
  }
}

std::optional<unsigned short> data_channel::listen() {
  try {
    impl_->listener.emplace("127.0.0.1", 0, timeout_);
    return impl_->listener->local_endpoint().port();
  } catch (const netlib::io::io_error& e) {
    error_ = std::string("data listener: ") + e.what();
    return std::nullopt;
  }
}

std::optional<std::string> data_channel::read_all() {
  try {
    if (!impl_->client && impl_->listener) impl_->client.emplace(impl_->listener->accept());
    if (!impl_->client) {
      if (error_.empty()) error_ = "no data connection";
      return std::nullopt;
    }
    return impl_->client->read_to_end(64 * 1024 * 1024);
  } catch (const netlib::io::io_error& e) {
    error_ = std::string("data connection: ") + e.what();
    return std::nullopt;
  }
}

}  // namespace netlab::grade
