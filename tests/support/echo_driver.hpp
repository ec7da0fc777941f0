#pragma once
// The thin live driver for the line-echo test core: read, feed, execute actions, repeat. Used by
// the runner tests and the runner benchmark (link netlib::io).
#include <array>
#include <variant>

#include "netlib/core/bytes.hpp"
#include "netlib/io/connection.hpp"
#include "support/line_echo.hpp"

namespace netlab::test {

inline netlib::io::awaitable<void> echo_driver(netlib::io::connection& c) {
  line_echo core;
  netlib::input_buffer in;
  std::array<std::byte, 4096> buf{};
  if (!co_await c.write("hello\r\n")) co_return;
  for (;;) {
    const std::size_t n = co_await c.read_some(buf);
    if (n == 0) co_return;
    in.append(netlib::byte_view(buf.data(), n));
    auto result = core.receive(in.data());
    in.consume(result.consumed);
    for (auto& action : result.actions) {
      if (auto* reply = std::get_if<send_bytes>(&action)) {
        if (!co_await c.write(reply->bytes)) co_return;
      } else if (std::holds_alternative<start_tls>(action)) {
        in.clear();  // plaintext pipelined after STARTTLS is discarded, never processed
        if (!co_await c.start_tls()) co_return;
      } else if (std::holds_alternative<close_connection>(action)) {
        co_return;
      }
    }
  }
}

}  // namespace netlab::test
