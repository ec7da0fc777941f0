#pragma once
// Shared pieces of the load and fault tests: the scale factor, the bounded Python driver
// (tests/load/load_driver.py, one JSON object out), and the server-process checks: open file
// descriptors back to the baseline and resident memory after a second identical round.
//
// NETLAB_LOAD_SCALE (default 1) multiplies every client count: 0.2 under ASan keeps the label
// fast; the default runs the full figures of issue 10 (5,000 keep-alive connections, 500
// slowloris connections, 50 FTP transfers, 200 SMTP senders).
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/types.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "support/process.hpp"

namespace load_test {
namespace fs = std::filesystem;

inline double scale() {
  const char* s = std::getenv("NETLAB_LOAD_SCALE");
  if (s == nullptr || *s == '\0') return 1.0;
  const double v = std::atof(s);
  return v > 0 ? std::min(v, 1.0) : 1.0;
}

// n scaled by NETLAB_LOAD_SCALE, at least `floor`.
inline int scaled(int n, int floor = 1) {
  return std::max(floor, static_cast<int>(n * scale()));
}

// The test process raises its own descriptor limit too (the driver it starts inherits it).
inline void raise_own_fd_limit() {
  rlimit lim{};
  if (getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur < lim.rlim_max) {
    lim.rlim_cur = lim.rlim_max;
    setrlimit(RLIMIT_NOFILE, &lim);
  }
}

inline std::size_t fd_count(pid_t pid) {
  std::error_code ec;
  std::size_t n = 0;
  for (auto it = fs::directory_iterator("/proc/" + std::to_string(pid) + "/fd", ec);
       !ec && it != fs::directory_iterator(); it.increment(ec)) {
    ++n;
  }
  return n;
}

// VmRSS of the process in KiB (0 when unreadable).
inline long vm_rss_kb(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::atol(line.c_str() + 6);
  }
  return 0;
}

// VmHWM (peak resident set) of the process in KiB (0 when unreadable).
inline long vm_hwm_kb(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::atol(line.c_str() + 6);
  return 0;
}

// Entries in a folder (0 when it cannot be read).
inline std::size_t files_in(const fs::path& dir) {
  std::error_code ec;
  std::size_t n = 0;
  for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) ++n;
  return n;
}

// "Max open files" soft and hard limits of a process, from /proc/PID/limits ({0, 0} if unreadable).
inline std::pair<std::string, std::string> fd_limits(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/limits");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("Max open files", 0) == 0) {
      std::istringstream fields(line.substr(14));
      std::string soft, hard;
      fields >> soft >> hard;
      return {soft, hard};
    }
  }
  return {"0", "0"};
}

// The server closes sockets as it notices each peer gone; polls /proc (bounded: 15 s) until the
// descriptor count is back to `baseline`, and returns the last count seen.
inline std::size_t settle_fds(pid_t pid, std::size_t baseline) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(15);
  std::size_t n = fd_count(pid);
  while (n > baseline && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    n = fd_count(pid);
  }
  return n;
}

// Runs tests/load/load_driver.py MODE ARGS... (bounded: 180 s) and parses its JSON line.
inline nlohmann::json drive(const std::vector<std::string>& args) {
  std::vector<std::string> argv{"/usr/bin/python3", netlab::test::source_path("tests/load/load_driver.py")};
  argv.insert(argv.end(), args.begin(), args.end());
  const auto r = netlab::test::run(argv, {}, std::chrono::seconds(180));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out, nullptr, false);
  EXPECT_FALSE(doc.is_discarded()) << r.out << r.err;
  return doc.is_discarded() ? nlohmann::json::object() : doc;
}

inline int port_of(const std::string& host_port) {
  return netlab::test::process::port_of(host_port);
}

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool under_asan = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool under_asan = true;
#else
inline constexpr bool under_asan = false;
#endif
#else
inline constexpr bool under_asan = false;
#endif

// Memory bound after the second identical round: at most a quarter more than after the first,
// plus 8 MiB of allocator slack (measured: lab-http 51 -> 62 -> 64 -> 65 MiB over four rounds of
// 5,000 connections, a plateau). Under ASan (the servers are built in the same tree, so with ASan
// too) freed memory sits in ASan's quarantine, up to 256 MiB, so RSS says nothing about leaks
// there: the bound is not applied, and the figures are only printed.
inline bool rss_within_bound(long first_kb, long second_kb) {
  return under_asan || second_kb <= first_kb + first_kb / 4 + 8 * 1024;
}

inline std::string make_temp_dir(const std::string& stem) {
  std::string tmpl = (fs::temp_directory_path() / (stem + "-XXXXXX")).string();
  if (::mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  return tmpl;
}

// Pseudo-random but fixed bytes (the same generator as the HTTP integration fixture).
inline std::string pattern(std::size_t n) {
  std::string s(n, '\0');
  std::uint32_t x = 12345;
  for (auto& c : s) {
    x = x * 1103515245u + 12345u;
    c = static_cast<char>(x >> 16);
  }
  return s;
}

inline void write_file(const fs::path& path, const std::string& content) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << content;
}

inline std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A temporary folder removed at the end of the test.
struct temp_dir {
  fs::path path;
  explicit temp_dir(const std::string& stem) : path(make_temp_dir(stem)) {}
  ~temp_dir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;
};

}  // namespace load_test
