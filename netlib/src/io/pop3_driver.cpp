// Theory of operation: the same thin loop as the SMTP driver: read into an input_buffer, feed the
// core, execute its actions; on STLS the buffered plaintext is dropped before the handshake
// (RFC 2595 §4). A connection that ends without QUIT is reported to the core, which unlocks the
// maildrop without deleting anything.
#include "netlib/io/pop3_driver.hpp"

#include <array>

#include <fmt/format.h>

#include "netlib/io/tcp_client.hpp"

namespace netlib::io {

awaitable<void> serve_pop3(connection& conn, pop3_service& service) {
  pop3::server_config config = service.config;
  config.tls_available = conn.tls_available();
  pop3::server_session session(config, service.store, service.users);
  input_buffer buffer;
  std::array<std::byte, 4096> chunk{};
  const auto execute = [&](const std::vector<pop3::server_action>& actions) -> awaitable<bool> {
    for (const auto& a : actions) {
      if (const auto* r = std::get_if<pop3::send_reply>(&a)) {
        if (!co_await conn.write(r->bytes)) co_return false;
      } else if (std::holds_alternative<pop3::start_tls>(a)) {
        buffer.clear();
        if (!co_await conn.start_tls()) co_return false;
        session.tls_started();
      } else {
        conn.close();
        co_return false;
      }
    }
    co_return true;
  };
  if (!co_await execute(session.start())) {
    (void)session.receive_eof();
    co_return;
  }
  for (;;) {
    const std::size_t n = co_await conn.read_some(chunk);
    if (n == 0) break;
    buffer.append(byte_view(chunk.data(), n));
    const auto step = session.receive(buffer.data());
    buffer.consume(step.consumed);
    if (!co_await execute(step.actions)) break;
  }
  (void)session.receive_eof();  // no-op after QUIT; otherwise unlock without UPDATE
  conn.close();
}

pop3_fetch_result pop3_fetch(const client_endpoint& server, pop3::client_options options,
                             const std::function<void(const pop3::fetched_message&)>& on_message) {
  pop3::client_session session(std::move(options));
  tcp_client client(server.timeout);
  client.connect(server.host, server.port);
  input_buffer buffer;
  std::array<std::byte, 65536> chunk{};
  const auto trace = [&](std::string_view prefix, std::string_view text) {
    if (server.trace) server.trace(fmt::format("{}{}", prefix, text));
  };
  const auto execute = [&](const std::vector<pop3::client_action>& actions) {
    for (const auto& a : actions) {
      if (const auto* c = std::get_if<pop3::send_command>(&a)) {
        trace("C: ", c->shown);
        client.write(c->bytes);
      } else if (std::holds_alternative<pop3::client_start_tls>(a)) {
        buffer.clear();
        if (!server.tls) throw io_error("STLS needs a TLS client context");
        client.start_tls(server.tls, server.host);
        trace("", "-- TLS handshake done; the rest is encrypted --");
        for (const auto& m : session.tls_started()) {
          const auto& cmd = std::get<pop3::send_command>(m);
          trace("C: ", cmd.shown);
          client.write(cmd.bytes);
        }
      } else {
        client.close();
      }
    }
  };
  while (!session.finished()) {
    const std::size_t n = client.read_some(chunk);
    if (n == 0) {
      execute(session.receive_eof());
      break;
    }
    buffer.append(byte_view(chunk.data(), n));
    auto step = session.receive(buffer.data());
    buffer.consume(step.consumed);
    for (const auto& r : step.responses) trace("S: ", r);
    for (const auto& m : step.messages) on_message(m);
    execute(step.actions);
  }
  return {session.retrieved(), session.deleted(), session.error()};
}

}  // namespace netlib::io
