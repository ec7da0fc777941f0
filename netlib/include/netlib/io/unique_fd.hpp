#pragma once
// The one owner of a file descriptor in the project: the disk root's files, the servers' sockets
// and lab-dc's sockets in its fabric's namespaces all close through it. Header-only, so a program
// that owns a descriptor but uses none of netlib::io's drivers (lab-dc) pulls in nothing else.
#include <unistd.h>

#include <utility>

namespace netlib::io {

// Closes its descriptor when it goes out of scope (or is reset or assigned another).
class unique_fd {
 public:
  unique_fd() noexcept = default;
  explicit unique_fd(int fd) noexcept : fd_(fd) {}
  ~unique_fd() { reset(); }
  unique_fd(unique_fd&& other) noexcept : fd_(other.release()) {}
  unique_fd& operator=(unique_fd&& other) noexcept {
    if (this != &other) reset(other.release());
    return *this;
  }
  unique_fd(const unique_fd&) = delete;
  unique_fd& operator=(const unique_fd&) = delete;

  [[nodiscard]] int get() const noexcept { return fd_; }
  [[nodiscard]] explicit operator bool() const noexcept { return fd_ >= 0; }
  int release() noexcept { return std::exchange(fd_, -1); }
  void reset(int fd = -1) noexcept {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
  }

 private:
  int fd_ = -1;
};

}  // namespace netlib::io
