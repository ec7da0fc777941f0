#pragma once
// A plain blocking TCP client for the attacks of the security suites: connect from a chosen
// loopback address (127.0.0.0/8 is all local, so every test can be many "clients"), send, read a
// line or whatever comes, and wait, bounded, for the server to close. Every wait has a deadline.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cctype>
#include <chrono>
#include <string>
#include <utility>

namespace security_test {

class raw_client {
 public:
  using clock = std::chrono::steady_clock;

  // Connects to 127.0.0.1:port from `source` (port chosen by the kernel). ok() tells.
  raw_client(int port, const std::string& source = "127.0.0.1") {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd_ < 0) return;
    sockaddr_in from{};
    from.sin_family = AF_INET;
    ::inet_pton(AF_INET, source.c_str(), &from.sin_addr);
    sockaddr_in to{};
    to.sin_family = AF_INET;
    to.sin_port = htons(static_cast<std::uint16_t>(port));
    ::inet_pton(AF_INET, "127.0.0.1", &to.sin_addr);
    if (::bind(fd_, reinterpret_cast<sockaddr*>(&from), sizeof from) != 0 ||
        ::connect(fd_, reinterpret_cast<sockaddr*>(&to), sizeof to) != 0) {
      ::close(fd_);
      fd_ = -1;
    }
  }
  ~raw_client() {
    if (fd_ >= 0) ::close(fd_);
  }
  raw_client(const raw_client&) = delete;
  raw_client& operator=(const raw_client&) = delete;
  raw_client(raw_client&& o) noexcept : fd_(o.fd_), buffer_(std::move(o.buffer_)) { o.fd_ = -1; }

  [[nodiscard]] bool ok() const { return fd_ >= 0; }
  [[nodiscard]] int fd() const { return fd_; }

  bool send(const std::string& bytes) {
    std::size_t done = 0;
    while (fd_ >= 0 && done < bytes.size()) {
      const ssize_t n = ::send(fd_, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL);
      if (n <= 0) return false;
      done += static_cast<std::size_t>(n);
    }
    return fd_ >= 0;
  }

  // One line (without its CRLF), or "" at the deadline or the end of the stream.
  std::string line(std::chrono::milliseconds deadline = std::chrono::seconds(10)) {
    const auto until = clock::now() + deadline;
    for (;;) {
      const auto lf = buffer_.find('\n');
      if (lf != std::string::npos) {
        std::string l = buffer_.substr(0, lf);
        buffer_.erase(0, lf + 1);
        if (!l.empty() && l.back() == '\r') l.pop_back();
        return l;
      }
      if (!fill(until)) return {};
    }
  }

  // One reply, joined with '\n': FTP/SMTP lines until one starts with "DDD " (the last line of a
  // reply), or one POP3 status line ("+OK ...", "-ERR ...").
  std::string reply(std::chrono::milliseconds deadline = std::chrono::seconds(10)) {
    std::string all;
    for (int i = 0; i < 10000; ++i) {
      const std::string l = line(deadline);
      all += l + "\n";
      const bool pop3 = !l.empty() && (l[0] == '+' || l[0] == '-');
      if (pop3 || l.size() < 4 || (l[3] == ' ' && std::isdigit(static_cast<unsigned char>(l[0])))) return all;
    }
    return all;
  }

  // Everything until the server closes or the deadline passes.
  std::string until_closed(std::chrono::milliseconds deadline) {
    const auto until = clock::now() + deadline;
    while (fill(until)) {
    }
    return std::exchange(buffer_, {});
  }

  // Waits (at most `deadline`) for the server to close the connection, discarding what comes;
  // returns the seconds it took, or a negative number when it was still open at the deadline.
  double seconds_until_closed(std::chrono::milliseconds deadline) {
    const auto start = clock::now();
    const auto until = start + deadline;
    for (;;) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - clock::now()).count();
      if (left <= 0) return -1;
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, static_cast<int>(left)) <= 0) continue;
      char sink[4096];
      const ssize_t n = ::recv(fd_, sink, sizeof sink, 0);
      if (n <= 0) return std::chrono::duration<double>(clock::now() - start).count();
    }
  }

 private:
  // Reads what is there (waiting at most until `until`); false at the deadline or end of stream.
  bool fill(clock::time_point until) {
    if (fd_ < 0) return false;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - clock::now()).count();
    if (left <= 0) return false;
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(left)) <= 0) return false;
    char chunk[16384];
    const ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
    if (n <= 0) return false;
    buffer_.append(chunk, static_cast<std::size_t>(n));
    return true;
  }

  int fd_ = -1;
  std::string buffer_;
};

}  // namespace security_test
