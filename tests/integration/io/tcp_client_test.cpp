// tcp_client::connect: a numeric address is connected to without the resolver. Asio's resolver
// runs getaddrinfo on a thread it starts per io_context, and every tcp_client has its own, so
// resolving "127.0.0.1" started a thread per connection: the 4-6 ms connect times lab-http get
// showed on a loaded machine against a 20 us round trip (issue 29). Seen here as the process's
// thread count (/proc/self/task), which a name does raise.
#include <gtest/gtest.h>

#include <filesystem>

#include "netlib/io/tcp_client.hpp"

namespace {

std::size_t threads() {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator("/proc/self/task")) ++n;
  return n;
}

TEST(TcpClient, NumericAddressStartsNoResolverThread) {
  netlib::io::tcp_listener listener("127.0.0.1", 0);  // the kernel completes the handshake: no accept needed
  const auto port = listener.local_endpoint().port();
  const std::size_t before = threads();
  netlib::io::tcp_client client(std::chrono::seconds(10));
  client.connect("127.0.0.1", port);
  EXPECT_EQ(threads(), before) << "connecting to 127.0.0.1 started a thread";
  EXPECT_EQ(client.remote_endpoint().port(), port);
}

TEST(TcpClient, NumericIpv6AddressStartsNoResolverThread) {
  std::unique_ptr<netlib::io::tcp_listener> listener;
  try {
    listener = std::make_unique<netlib::io::tcp_listener>("::1", 0);
  } catch (const std::exception& e) {
    GTEST_SKIP() << "no IPv6 loopback here: " << e.what();
  }
  const std::size_t before = threads();
  netlib::io::tcp_client client(std::chrono::seconds(10));
  client.connect("::1", listener->local_endpoint().port());
  EXPECT_EQ(threads(), before);
}

// The control: a name goes through the resolver, whose thread the count does see (so the test
// above can fail).
TEST(TcpClient, NameGoesThroughTheResolver) {
  netlib::io::tcp_listener listener("127.0.0.1", 0);
  const std::size_t before = threads();
  netlib::io::tcp_client client(std::chrono::seconds(10));
  client.connect("localhost", listener.local_endpoint().port());  // /etc/hosts: 127.0.0.1 (or ::1, refused)
  EXPECT_GE(threads(), before + 1);  // the resolver's thread (under TSan its runtime may start one more)
}

}  // namespace
