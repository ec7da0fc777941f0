// lab-http serve on the wire, counted in TCP segments (a figure no CPU change moves): a response
// head and the file body sendfile(2) sends after it leave in one segment, not the head alone
// first. Sent alone, the head is a 227-byte segment that wakes the client before its body, and
// under wrk's load that cost 1 MiB keep-alive a third of its requests per second
// (docs/performance.md, issue 30).
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/time.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "netlib/io/unique_fd.hpp"
#include "serve_fixture.hpp"

namespace {

using namespace netlab::test;

// Data segments this socket has received so far: TCP_INFO's tcpi_data_segs_in (Linux 4.6 and
// later). glibc's struct tcp_info stops before it and <linux/tcp.h> clashes with <netinet/tcp.h> in
// a unity batch, so it is read at its offset in the kernel's struct (fields are only ever appended).
unsigned data_segments_in(int fd) {
  constexpr std::size_t offset = 152;  // <linux/tcp.h>: offsetof(struct tcp_info, tcpi_data_segs_in)
  unsigned char info[256] = {};
  socklen_t len = sizeof info;
  if (::getsockopt(fd, IPPROTO_TCP, TCP_INFO, info, &len) != 0 || len < offset + 4) return 0;
  std::uint32_t segments = 0;
  std::memcpy(&segments, info + offset, sizeof segments);
  return segments;
}

// A blocking socket to 127.0.0.1:port, every read and write bounded by 10 s.
netlib::io::unique_fd connect_to(int port) {
  netlib::io::unique_fd fd(::socket(AF_INET, SOCK_STREAM, 0));
  timeval limit{10, 0};
  ::setsockopt(fd.get(), SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
  ::setsockopt(fd.get(), SOL_SOCKET, SO_SNDTIMEO, &limit, sizeof limit);
  sockaddr_in to{};
  to.sin_family = AF_INET;
  to.sin_port = htons(static_cast<std::uint16_t>(port));
  to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd.get(), reinterpret_cast<const sockaddr*>(&to), sizeof to) != 0) return {};
  return fd;
}

// Reads one response with a body of `body` bytes; returns its head, or "" on a failure.
std::string read_response(int fd, std::size_t body) {
  std::string got;
  char buf[65536];
  std::size_t end = std::string::npos;
  while (end == std::string::npos || got.size() < end + 4 + body) {
    const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) return "";
    got.append(buf, static_cast<std::size_t>(n));
    if (end == std::string::npos) end = got.find("\r\n\r\n");
  }
  return got.substr(0, end + 4);
}

TEST(ServeSegments, AFileBodyLeavesInTheSegmentOfItsHead) {
  site_dir site;
  // Larger than the responses lab-http reads into the head's buffer (32 KiB), so the body goes by
  // sendfile; smaller than one loopback segment (64 KiB), so head and body fit in one.
  write_file(site.root + "/mid.bin", pattern(48 * 1024));
  running_server server(site);
  const auto fd = connect_to(process::port_of(server.address));
  ASSERT_GE(fd.get(), 0);
  const std::string request = "GET /mid.bin HTTP/1.1\r\nHost: x\r\n\r\n";
  // The first responses of a connection may be split by the windows' growth; then, one request at
  // a time, each response is counted. The kernel may still push the head early when an ACK comes in
  // between, so the median is judged: 1 (a head sent alone makes every response at least 2).
  std::vector<unsigned> segments;
  for (int i = 0; i < 25; ++i) {
    const unsigned before = data_segments_in(fd.get());
    ASSERT_EQ(::send(fd.get(), request.data(), request.size(), MSG_NOSIGNAL), static_cast<ssize_t>(request.size()));
    const std::string head = read_response(fd.get(), 48 * 1024);
    ASSERT_EQ(head.rfind("HTTP/1.1 200 ", 0), 0u) << head;
    if (i >= 5) segments.push_back(data_segments_in(fd.get()) - before);
  }
  std::sort(segments.begin(), segments.end());
  ASSERT_GT(segments.back(), 0u) << "TCP_INFO gave no segment counts";
  EXPECT_EQ(segments[segments.size() / 2], 1u)
      << "segments per response, sorted: " << ::testing::PrintToString(segments);
}

}  // namespace
