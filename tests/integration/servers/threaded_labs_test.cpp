// The lab servers with --threads 2 under both thread models: many clients at once, every answer
// right, and a clean exit 0 on SIGTERM. Built with TSan (the `tsan` preset, docs/testing.md), a
// data race in a server makes it print a report and exit 66, which these tests catch.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <atomic>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "netlib/io/tcp_client.hpp"
#include "support/process.hpp"

namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using netlab::test::bin_path;
using netlab::test::process;

constexpr int client_threads = 6;
constexpr int rounds = 25;

struct temp_dir {
  temp_dir() {
    std::string tmpl = (fs::temp_directory_path() / "netlab-threads-XXXXXX").string();
    path = mkdtemp(tmpl.data());
  }
  ~temp_dir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  fs::path path;
};

// Reads from `c` into `pending` until `pending` holds `needle`; false at end of stream.
bool read_until(netlib::io::tcp_client& c, std::string& pending, std::string_view needle) {
  std::array<std::byte, 8192> buf{};
  while (pending.find(needle) == std::string::npos) {
    const std::size_t n = c.read_some(buf);
    if (n == 0) return false;
    pending.append(reinterpret_cast<const char*>(buf.data()), n);
  }
  return true;
}

// One HTTP/1.1 response off a keep-alive connection: its status line, body consumed by Content-Length.
std::string read_response(netlib::io::tcp_client& c, std::string& pending) {
  if (!read_until(c, pending, "\r\n\r\n")) return "<eof>";
  const auto head_end = pending.find("\r\n\r\n") + 4;
  const std::string head = pending.substr(0, head_end);
  std::size_t length = 0;
  if (auto at = head.find("Content-Length: "); at != std::string::npos) length = std::stoul(head.substr(at + 16));
  while (pending.size() < head_end + length) {
    std::array<std::byte, 8192> buf{};
    const std::size_t n = c.read_some(buf);
    if (n == 0) return "<eof>";
    pending.append(reinterpret_cast<const char*>(buf.data()), n);
  }
  pending.erase(0, head_end + length);
  return head.substr(0, head.find("\r\n"));
}

// Runs `client(i)` on client_threads threads; returns how many returned true.
template <class F>
int run_clients(F client) {
  std::atomic<int> good{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < client_threads; ++i)
    threads.emplace_back([&, i] {
      try {
        if (client(i)) ++good;
      } catch (const std::exception& e) {
        ADD_FAILURE() << "client " << i << ": " << e.what();
      }
    });
  for (auto& t : threads) t.join();
  return good.load();
}

void expect_clean_exit(process& server) {
  server.signal(SIGTERM);
  EXPECT_EQ(server.wait(60s), 0) << server.err();
  EXPECT_EQ(server.err().find("ThreadSanitizer"), std::string::npos) << server.err();
}

class ThreadedLabs : public ::testing::TestWithParam<std::string> {};

TEST_P(ThreadedLabs, http_serve_with_cookies_answers_every_request) {
  temp_dir dir;
  std::ofstream(dir.path / "index.html") << "<p>hello</p>\n";
  process server({bin_path("lab-http"), "serve", "--root", dir.path.string(), "--cookies", "--threads", "2",
                  "--thread-model", GetParam()});
  const int port = process::port_of(server.wait_listening());
  // Each client alternates a file and the cookie page (a new session each time: the shared store).
  const int good = run_clients([&](int) {
    netlib::io::tcp_client c(20s);
    c.connect("127.0.0.1", static_cast<unsigned short>(port));
    std::string pending;
    for (int k = 0; k < rounds; ++k) {
      c.write(k % 2 ? "GET /visits HTTP/1.1\r\nHost: t\r\n\r\n" : "GET /index.html HTTP/1.1\r\nHost: t\r\n\r\n");
      if (read_response(c, pending) != "HTTP/1.1 200 OK") return false;
    }
    return true;
  });
  EXPECT_EQ(good, client_threads);
  expect_clean_exit(server);
}

// The proxy's sessions share one store (its mutex): every client mixes HITs of a fresh file,
// MISSes of a file too large to store (streamed), and revalidations of a stale one.
TEST_P(ThreadedLabs, http_proxy_shares_its_cache_between_threads) {
  temp_dir dir;
  std::ofstream(dir.path / "fresh.html") << "<p>fresh</p>\n";
  fs::last_write_time(dir.path / "fresh.html", fs::file_time_type::clock::now() - 240h);  // fresh for a day
  std::ofstream(dir.path / "stale.html") << "<p>stale</p>\n";
  std::ofstream(dir.path / "big.bin") << std::string(200'000, 'b');
  process origin({bin_path("lab-http"), "serve", "--root", dir.path.string(), "--listen", "127.0.0.1:0"});
  const std::string origin_address = origin.wait_listening();
  process proxy({bin_path("lab-http"), "proxy", "--listen", "127.0.0.1:0", "--max-object-size", "64KB", "--threads",
                 "2", "--thread-model", GetParam()});
  const int port = process::port_of(proxy.wait_listening());
  const std::string paths[] = {"/fresh.html", "/big.bin", "/stale.html"};
  const int good = run_clients([&](int) {
    netlib::io::tcp_client c(20s);
    c.connect("127.0.0.1", static_cast<unsigned short>(port));
    std::string pending;
    for (int k = 0; k < rounds; ++k) {
      c.write("GET http://" + origin_address + paths[k % 3] + " HTTP/1.1\r\nHost: t\r\n\r\n");
      if (read_response(c, pending) != "HTTP/1.1 200 OK") return false;
    }
    return true;
  });
  EXPECT_EQ(good, client_threads);
  expect_clean_exit(proxy);
  EXPECT_NE(proxy.err().find("lab-http proxy: "), std::string::npos);
}

TEST_P(ThreadedLabs, smtp_serve_stores_every_message_once) {
  temp_dir dir;
  std::ofstream(dir.path / "users.txt") << "bob:secret\n";
  process server({bin_path("lab-smtp"), "serve", "--maildir", (dir.path / "mail").string(), "--domain", "example.org",
                  "--users", (dir.path / "users.txt").string(), "--threads", "2", "--thread-model", GetParam()});
  const int port = process::port_of(server.wait_listening());
  const int good = run_clients([&](int i) {
    netlib::io::tcp_client c(20s);
    c.connect("127.0.0.1", static_cast<unsigned short>(port));
    std::string pending;
    if (!read_until(c, pending, "\r\n")) return false;
    pending.clear();
    c.write("EHLO client.test\r\n");
    if (!read_until(c, pending, "250 ")) return false;
    for (int k = 0; k < rounds; ++k) {
      pending.clear();
      c.write("MAIL FROM:<a@client.test>\r\nRCPT TO:<bob@example.org>\r\nDATA\r\n");
      if (!read_until(c, pending, "354")) return false;
      pending.clear();
      c.write("Subject: " + std::to_string(i) + "/" + std::to_string(k) + "\r\n\r\nbody\r\n.\r\n");
      if (!read_until(c, pending, "250 ")) return false;
    }
    c.write("QUIT\r\n");
    return true;
  });
  EXPECT_EQ(good, client_threads);
  expect_clean_exit(server);
  const auto stored =
      std::distance(fs::directory_iterator(dir.path / "mail" / "bob" / "new"), fs::directory_iterator{});
  EXPECT_EQ(stored, client_threads * rounds);
}

INSTANTIATE_TEST_SUITE_P(models, ThreadedLabs, ::testing::Values("pool", "loops"));

}  // namespace
