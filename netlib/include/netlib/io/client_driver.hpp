#pragma once
// The blocking driver of the line-protocol client cores (lab-smtp send, lab-pop3 fetch):
// connect, read, feed the core, execute its actions (the client side of the session contract,
// netlib/core/session.hpp), until the core is finished.
//
//   smtp::client_session core(...);
//   run_client_session(server, core, "STARTTLS", [&](auto& step) { ... trace step.replies ... });
#include <array>
#include <chrono>
#include <cstddef>
#include <functional>
#include <iostream>
#include <memory>
#include <string>
#include <string_view>
#include <variant>

#include <fmt/format.h>

#include "netlib/core/bytes.hpp"
#include "netlib/core/session.hpp"
#include "netlib/io/asio.hpp"
#include "netlib/io/tcp_client.hpp"
#include "netlib/io/tls.hpp"

namespace netlib::io {

struct client_endpoint {
  std::string host = "127.0.0.1";
  unsigned short port = 25;
  std::chrono::milliseconds timeout{std::chrono::seconds(30)};
  std::shared_ptr<ssl::context> tls;            // for STARTTLS/STLS
  std::function<void(std::string_view)> trace;  // "C: ..." / "S: ..." lines, when set
};

// What a lab client's command line says of its server (lab-smtp send, lab-pop3 fetch): HOST and
// PORT, --timeout in seconds, whether it starts TLS (STARTTLS, STLS) and how it checks the
// server's certificate (--insecure, --ca-file), and --trace (the dialogue on stderr).
struct client_flags {
  std::string host;
  unsigned short port = 0;
  double timeout_s = 30;
  bool start_tls = false;
  bool insecure = false;
  std::string ca_file;
  bool trace = false;
};
inline client_endpoint make_client_endpoint(const client_flags& f) {
  client_endpoint ep;
  ep.host = f.host;
  ep.port = f.port;
  ep.timeout = std::chrono::milliseconds(static_cast<long long>(f.timeout_s * 1000));
  if (f.start_tls) ep.tls = make_client_tls(!f.insecure, f.ca_file);
  if (f.trace) ep.trace = [](std::string_view line) { std::cerr << line << '\n'; };
  return ep;
}

// One trace line per line of `text`, each after `prefix`.
inline void trace_lines(const client_endpoint& server, std::string_view prefix, std::string_view text) {
  if (!server.trace) return;
  while (!text.empty()) {
    const auto eol = text.find("\r\n");
    server.trace(fmt::format("{}{}", prefix, text.substr(0, eol)));
    text = eol == std::string_view::npos ? std::string_view{} : text.substr(eol + 2);
  }
}

// Runs `session` against `server` until it is finished. `tls_command` names the command that asks
// for TLS (for the error when no client TLS context was given); `on_step` sees every step before
// its actions run (replies for the trace, retrieved messages). Throws io_error when the
// connection or the TLS handshake fails.
template <class Core, class OnStep>
void run_client_session(const client_endpoint& server, Core& session, std::string_view tls_command, OnStep on_step) {
  tcp_client client(server.timeout);
  client.connect(server.host, server.port);
  input_buffer buffer;
  std::array<std::byte, 65536> chunk{};
  const auto execute = [&](const auto& actions, const auto& self) -> void {
    for (const auto& a : actions) {
      if (const auto* c = std::get_if<send_command>(&a)) {
        trace_lines(server, "C: ", c->shown);
        client.write(c->bytes);
      } else if (std::holds_alternative<start_tls>(a)) {
        buffer.clear();  // nothing the server sent before the handshake is read after it
        if (!server.tls) throw io_error(fmt::format("{} needs a TLS client context", tls_command));
        client.start_tls(server.tls, server.host);
        trace_lines(server, "", "-- TLS handshake done; the rest is encrypted --");
        self(session.tls_started(), self);
      } else {
        client.close();
      }
    }
  };
  while (!session.finished()) {
    const std::size_t n = client.read_some(chunk);
    if (n == 0) {
      execute(session.receive_eof(), execute);
      break;
    }
    buffer.append(byte_view(chunk.data(), n));
    auto step = session.receive(buffer.data());
    buffer.consume(step.consumed);
    on_step(step);
    execute(step.actions, execute);
  }
}

}  // namespace netlib::io
