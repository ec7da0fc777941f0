// send_file_on: see send_file.hpp. Without the turn before the first chunk, 1 MiB keep-alive
// HTTP under wrk fell from 3,800 to 2,200 requests/s: the kernel's sending work moved to the
// client's side (docs/performance.md).
#include "netlib/io/send_file.hpp"

#include <sys/sendfile.h>

#include <algorithm>
#include <cerrno>

namespace netlib::io {

awaitable<send_file_result> send_file_on(tcp::socket& socket, int fd, std::uint64_t offset, std::uint64_t length,
                                         const std::function<void()>& progress) {
  constexpr std::uint64_t chunk = std::uint64_t{1} << 20;
  send_file_result r;
  boost::system::error_code ec;
  if (!socket.non_blocking()) socket.non_blocking(true, ec);  // once per socket: it is an ioctl
  if (ec) co_return send_file_result{0, true};
  off_t off = static_cast<off_t>(offset);
  std::uint64_t turn_left = 0;  // what this turn may still send
  while (r.sent < length) {
    if (turn_left == 0) {
      co_await asio::post(socket.get_executor(), use_awaitable);
      turn_left = chunk;
    }
    if (!socket.is_open()) {
      r.failed = true;
      break;
    }
    const std::uint64_t piece = std::min(length - r.sent, turn_left);
    const ssize_t n = ::sendfile(socket.native_handle(), fd, &off, piece);
    if (n > 0) {
      r.sent += static_cast<std::uint64_t>(n);
      turn_left -= static_cast<std::uint64_t>(n);
      if (progress) progress();
    } else if (n == 0) {
      break;  // the file ended
    } else if (errno == EAGAIN || errno == EWOULDBLOCK) {
      co_await socket.async_wait(tcp::socket::wait_write, asio::redirect_error(use_awaitable, ec));
      if (ec) {
        r.failed = true;
        break;
      }
      turn_left = chunk;  // the wait was a turn: the others ran meanwhile
    } else if (errno != EINTR) {
      r.failed = true;
      break;
    }
  }
  co_return r;
}

}  // namespace netlib::io
