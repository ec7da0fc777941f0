#pragma once
// The one place netlib::io pulls in Boost.Asio. With Boost 1.74, <boost/asio/awaitable.hpp> needs
// <utility> first; include it here so every io file works with both Debian versions.
#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <utility>

namespace netlib::io {
namespace asio = boost::asio;
namespace ssl = boost::asio::ssl;
using tcp = asio::ip::tcp;
using udp = asio::ip::udp;
template <class T>
using awaitable = asio::awaitable<T>;
using asio::use_awaitable;

// "HOST:PORT", IPv6 in brackets (RFC 5952 text as Asio prints it).
std::string to_string(const tcp::endpoint& ep);
std::string to_string(const udp::endpoint& ep);

// An environment failure at the adapter (bind, connect, TLS set-up), with a one-line message that
// names what failed and, where possible, how to fix it.
class io_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace netlib::io
