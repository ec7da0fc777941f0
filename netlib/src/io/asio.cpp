#include "netlib/io/asio.hpp"

#include <fmt/format.h>

namespace netlib::io {
namespace {
template <class Endpoint>
std::string endpoint_text(const Endpoint& ep) {
  const auto addr = ep.address();
  if (addr.is_v6()) return fmt::format("[{}]:{}", addr.to_string(), ep.port());
  return fmt::format("{}:{}", addr.to_string(), ep.port());
}
}  // namespace

std::string to_string(const tcp::endpoint& ep) {
  return endpoint_text(ep);
}
std::string to_string(const udp::endpoint& ep) {
  return endpoint_text(ep);
}

}  // namespace netlib::io
