#pragma once
// Third-party daemons in tests (nginx, vsftpd, smtp-sink): they take a fixed port from their
// configuration and print no readiness line, so a test picks a free port on 127.0.0.1, starts the
// daemon in the foreground with its own configuration in a temporary folder, and counts "accepts a
// TCP connection" as ready (polled with a deadline). A daemon that lost the race for its port exits:
// the test tries again with another port.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>

#include "support/process.hpp"

namespace netlab::test {

inline std::string make_temp_folder(const std::string& prefix) {
  std::string tmpl = (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX")).string();
  if (!::mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
  return tmpl;
}

// A port on 127.0.0.1 that was free a moment ago (bound to port 0, then released).
inline int free_tcp_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) throw std::runtime_error("socket failed");
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) != 0) {
    ::close(fd);
    throw std::runtime_error("bind to 127.0.0.1:0 failed");
  }
  ::close(fd);
  return ntohs(a.sin_port);
}

// Whether 127.0.0.1:port accepts a TCP connection now.
inline bool accepts_connection(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return false;
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons(static_cast<std::uint16_t>(port));
  const bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  ::close(fd);
  return ok;
}

// Whether the child has exited (a zombie not yet reaped counts as exited).
inline bool has_exited(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text;
  if (!std::getline(stat, text)) return true;
  const auto paren = text.rfind(')');
  return paren == std::string::npos || paren + 2 >= text.size() || text[paren + 2] == 'Z' || text[paren + 2] == 'X';
}

// Polls until the daemon accepts a connection on `port` (true), exits, or the deadline passes (false).
inline bool wait_accepting(const process& p, int port, std::chrono::milliseconds deadline = std::chrono::seconds(15)) {
  const auto end = std::chrono::steady_clock::now() + deadline;
  while (std::chrono::steady_clock::now() < end) {
    if (accepts_connection(port)) return true;
    if (has_exited(p.pid())) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // poll interval, bounded by the deadline
  }
  return false;
}

// Starts a daemon whose argv depends on its port (its configuration is written by `argv_for`),
// trying up to three free ports. Returns the running process and sets `port`; throws otherwise.
inline std::unique_ptr<process> start_daemon(const std::function<std::vector<std::string>(int)>& argv_for, int& port) {
  std::string last_error;
  for (int attempt = 0; attempt < 3; ++attempt) {
    port = free_tcp_port();
    auto p = std::make_unique<process>(argv_for(port));
    if (wait_accepting(*p, port)) return p;
    p->signal(SIGKILL);
    p->wait();
    last_error = p->err() + p->out();
  }
  throw std::runtime_error("the daemon did not start: " + last_error);
}

}  // namespace netlab::test
