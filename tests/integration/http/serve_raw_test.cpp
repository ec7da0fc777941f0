// lab-http serve on the wire: malformed framing answered with the right status and a close,
// pipelined requests answered in order, the request-head deadline (slowloris), the connection cap,
// a large file before a close arriving whole, clients resetting in the middle of a file.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <thread>

#include "netlib/io/tcp_client.hpp"
#include "serve_fixture.hpp"

namespace {

using namespace netlab::test;

// Sends raw bytes and reads until the server closes (bounded by the client's timeout).
std::string send_and_read(const std::string& address, const std::string& bytes) {
  netlib::io::tcp_client c(std::chrono::seconds(10));
  c.connect("127.0.0.1", static_cast<unsigned short>(process::port_of(address)));
  c.write(bytes);
  return c.read_to_end(1 << 20);
}

TEST(ServeRaw, MalformedRequestsGetTheirStatusAndAClose) {
  site_dir site;
  running_server server(site);
  const std::string host = "Host: x\r\n";
  const std::pair<std::string, std::string> cases[] = {
      {"GET / HTTP/1.1\r\n\r\n", "400"},
      {"GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", "400"},
      {"POST / HTTP/1.1\r\n" + host + "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", "400"},
      {"POST / HTTP/1.1\r\n" + host + "Content-Length: 1\r\nContent-Length: 2\r\n\r\nab", "400"},
      {"GET / HTTP/1.1\r\nHost : x\r\n\r\n", "400"},
      {"GET / HTTP/1.1\r\n" + host + "X: a\r\n b\r\n\r\n", "400"},
      {"GET / HTTP/1.1\r\n" + host + "X: a\rb\r\n\r\n", "400"},
      {"GET / HTTP/2.0\r\n" + host + "\r\n", "505"},
      {"GET /" + std::string(9000, 'a') + " HTTP/1.1\r\n" + host + "\r\n", "414"},
      {"GET / HTTP/1.1\r\n" + host + "X: " + std::string(20000, 'b') + "\r\n\r\n", "431"},
      {"POST / HTTP/1.1\r\n" + host + "Content-Length: 99999999999\r\n\r\n", "413"},
  };
  for (const auto& [request, status] : cases) {
    SCOPED_TRACE(request.substr(0, 60));
    // The request is followed by a well-formed one that must never be answered (closed first).
    const std::string reply = send_and_read(server.address, request + "GET /style.css HTTP/1.1\r\n" + host + "\r\n");
    EXPECT_EQ(reply.rfind("HTTP/1.1 " + status + " ", 0), 0u) << "[" << reply.size() << "]" << reply.substr(0, 200);
    EXPECT_NE(reply.find("Connection: close\r\n"), std::string::npos);
    EXPECT_EQ(reply.find("body { color"), std::string::npos);
  }
}

TEST(ServeRaw, PipelinedRequestsAnsweredInOrderWith405And501) {
  site_dir site;
  running_server server(site);
  const std::string reply = send_and_read(server.address,
                                          "GET /style.css HTTP/1.1\r\nHost: x\r\n\r\n"
                                          "DELETE /style.css HTTP/1.1\r\nHost: x\r\n\r\n"
                                          "BREW /pot HTTP/1.1\r\nHost: x\r\n\r\n"
                                          "HEAD /img/a.png HTTP/1.1\r\nHost: x\r\n\r\n"
                                          "GET /index.html HTTP/1.0\r\n\r\n");
  const auto p200 = reply.find("HTTP/1.1 200 OK");
  const auto p405 = reply.find("HTTP/1.1 405 Method Not Allowed");
  const auto p501 = reply.find("HTTP/1.1 501 Not Implemented");
  const auto phead = reply.find("Content-Length: 5000");
  const auto plast = reply.find("<html>");
  ASSERT_NE(plast, std::string::npos) << reply;
  EXPECT_LT(p200, p405);
  EXPECT_LT(p405, p501);
  EXPECT_LT(p501, phead);
  EXPECT_LT(phead, plast);
  EXPECT_NE(reply.find("Allow: GET, HEAD\r\n"), std::string::npos);
}

TEST(ServeRaw, SlowRequestHeadIsCutAtTheDeadline) {
  site_dir site;
  running_server server(site, {"--head-timeout", "1", "--idle-timeout", "30"});
  const auto start = std::chrono::steady_clock::now();
  netlib::io::tcp_client c(std::chrono::seconds(10));
  c.connect("127.0.0.1", static_cast<unsigned short>(process::port_of(server.address)));
  c.write("GET / HTTP/1.1\r\nHost: x\r\n");
  // Trickle a header line every 300 ms: the idle timeout never fires, the head deadline does.
  std::string got;
  for (int i = 0; i < 20; ++i) {
    try {
      c.write("X-" + std::to_string(i) + ": y\r\n");
    } catch (const std::exception&) {
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(300));  // pacing the attacker, not waiting for the server
  }
  try {
    got = c.read_to_end(1 << 16);
  } catch (const std::exception&) {
  }
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(got.find("HTTP/1.1 200"), std::string::npos);
  EXPECT_LT(elapsed, 8.0);
}

TEST(ServeRaw, ConnectionCapAnswers503) {
  site_dir site;
  running_server server(site, {"--max-connections", "1"});
  netlib::io::tcp_client held(std::chrono::seconds(10));
  held.connect("127.0.0.1", static_cast<unsigned short>(process::port_of(server.address)));
  held.write("GET /style.css HTTP/1.1\r\nHost: x\r\n\r\n");
  std::array<std::byte, 4096> buf;
  ASSERT_GT(held.read_some(buf), 0u);  // the first connection is being served and stays open
  const std::string reply = send_and_read(server.address, "GET / HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(reply.rfind("HTTP/1.1 503 ", 0), 0u) << reply;
}

}  // namespace

namespace {

// The last response of a connection (Connection: close, HTTP/1.0) with a body over 256 KiB is
// paced: about 128 KiB unsent in the kernel, the rest sent as the window opens, from the
// server's turns (TCP_NOTSENT_LOWAT, docs/performance.md). The whole file still arrives, then
// the close.
TEST(ServeRaw, LargeFileBeforeACloseArrivesWhole) {
  site_dir site;
  running_server server(site);
  const std::string file = read_whole(site.root + "/big.bin");
  for (const std::string request :
       {"GET /big.bin HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", "GET /big.bin HTTP/1.0\r\n\r\n"}) {
    SCOPED_TRACE(request.substr(0, 40));
    const std::string reply = [&] {
      netlib::io::tcp_client c(std::chrono::seconds(20));
      c.connect("127.0.0.1", static_cast<unsigned short>(process::port_of(server.address)));
      c.write(request);
      return c.read_to_end(8 << 20);  // until the server closes
    }();
    const std::size_t head_end = reply.find("\r\n\r\n");
    ASSERT_NE(head_end, std::string::npos) << reply.substr(0, 200);
    EXPECT_EQ(reply.rfind("HTTP/1.1 200 OK\r\n", 0), 0u) << reply.substr(0, 200);
    EXPECT_NE(reply.find("Connection: close\r\n"), std::string::npos);
    EXPECT_EQ(reply.size() - head_end - 4, file.size());
    EXPECT_TRUE(reply.compare(head_end + 4, std::string::npos, file) == 0);
  }
}

// Clients that reset the connection in the middle of a large file (sendfile under way) cost the
// server an EPIPE, never the process (sendfile(2) raises SIGPIPE unless it is ignored).
TEST(ServeRaw, ClientsResettingMidFileDoNotStopTheServer) {
  site_dir site;
  running_server server(site);
  const auto port = static_cast<unsigned short>(process::port_of(server.address));
  for (int i = 0; i < 30; ++i) {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    ASSERT_GE(fd, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ASSERT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    const std::string req = "GET /big.bin HTTP/1.1\r\nHost: x\r\n\r\nGET /big.bin HTTP/1.1\r\nHost: x\r\n\r\n";
    ASSERT_EQ(::send(fd, req.data(), req.size(), MSG_NOSIGNAL), static_cast<ssize_t>(req.size()));
    // Read part of the file so that the server is in the middle of it, its socket buffer full and
    // waiting to be writable again, when the reset comes.
    char buf[65536];
    std::size_t got = 0;
    for (int reads = 0; reads < 10000 && got < (512u << 10); ++reads) {
      const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
      ASSERT_GT(n, 0);
      got += static_cast<std::size_t>(n);
    }
    const linger reset{1, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_LINGER, &reset, sizeof reset);
    ::close(fd);  // RST with most of the file unsent
  }
  const std::string reply =
      send_and_read(server.address, "GET /style.css HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  EXPECT_EQ(reply.rfind("HTTP/1.1 200 OK", 0), 0u) << reply.substr(0, 100);
}

}  // namespace
