#include "netlib/io/udp_socket.hpp"

namespace netlib::io {

struct udp_socket::impl {
  asio::io_context ctx{1};
  udp::socket socket{ctx};
};

udp_socket::udp_socket(const std::string& host, unsigned short port) : impl_(std::make_unique<impl>()) {
  boost::system::error_code ec;
  const auto addr = asio::ip::make_address(host, ec);
  if (ec) throw io_error("cannot bind UDP to '" + host + "': not an IP address");
  const udp::endpoint ep(addr, port);
  impl_->socket.open(ep.protocol(), ec);
  if (!ec) impl_->socket.bind(ep, ec);
  if (ec) throw io_error("cannot bind UDP to " + to_string(ep) + ": " + ec.message());
}
udp_socket::~udp_socket() = default;

udp::endpoint udp_socket::local_endpoint() const {
  boost::system::error_code ec;
  return impl_->socket.local_endpoint(ec);
}

void udp_socket::send_to(byte_view data, const udp::endpoint& to) {
  boost::system::error_code ec;
  impl_->socket.send_to(asio::buffer(data.data(), data.size()), to, 0, ec);
  if (ec) throw io_error("sending a datagram to " + to_string(to) + " failed: " + ec.message());
}

std::optional<datagram> udp_socket::receive_from(std::span<std::byte> buffer, std::chrono::milliseconds timeout) {
  bool done = false;
  boost::system::error_code result;
  datagram d;
  impl_->socket.async_receive_from(asio::buffer(buffer.data(), buffer.size()), d.from, [&](auto ec, std::size_t n) {
    result = ec;
    d.size = n;
    done = true;
  });
  impl_->ctx.restart();
  impl_->ctx.run_for(timeout);
  if (!done) {
    impl_->socket.cancel();
    impl_->ctx.restart();
    impl_->ctx.run();
    if (!result || result == asio::error::operation_aborted) return std::nullopt;
  }
  if (result == asio::error::operation_aborted) return std::nullopt;
  // ICMP port unreachable from an earlier send surfaces as connection_refused: not a datagram.
  if (result == asio::error::connection_refused) return std::nullopt;
  if (result) throw io_error("receiving a datagram failed: " + result.message());
  return d;
}

udp::endpoint udp_socket::resolve(const std::string& host, unsigned short port) {
  asio::io_context ctx;
  udp::resolver resolver(ctx);
  boost::system::error_code ec;
  auto results = resolver.resolve(host, std::to_string(port), ec);
  if (ec || results.empty()) throw io_error("cannot resolve '" + host + "': " + ec.message());
  return results.begin()->endpoint();
}

}  // namespace netlib::io
