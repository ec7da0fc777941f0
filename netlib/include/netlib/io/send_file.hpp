#pragma once
// Sending part of an open file on a plain TCP socket with sendfile(2): the kernel moves the bytes
// from the page cache to the socket, nothing is copied through user space. Shared by
// connection::send_file (HTTP bodies) and the FTP data connection (binary RETR without TLS).
#include <cstdint>
#include <functional>

#include "netlib/io/asio.hpp"

namespace netlib::io {

struct send_file_result {
  std::uint64_t sent = 0;  // bytes the kernel took
  bool failed = false;     // the socket failed or was closed (not: the file ended early)
};

// Sends up to `length` bytes of `fd` from `offset` on `socket` (made non-blocking). Fairness, as
// nginx's sendfile_max_chunk: at most 1 MiB per turn of the event loop, and the other
// connections' ready events run before each chunk (the first one included). When the kernel
// takes nothing (EAGAIN) it waits for writability, which is a turn too. `progress` runs after every
// piece the kernel took (a caller refreshes its idle deadline there). It stops early, not failed,
// when the file ends before `length` (sent < length then). sendfile has no MSG_NOSIGNAL: the
// program ignores SIGPIPE.
awaitable<send_file_result> send_file_on(tcp::socket& socket, int fd, std::uint64_t offset, std::uint64_t length,
                                         const std::function<void()>& progress);

}  // namespace netlib::io
