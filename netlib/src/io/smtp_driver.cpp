// Theory of operation: serve_smtp keeps one input_buffer; after each read it hands the unconsumed
// bytes to the core and executes the actions in order. On start_tls it drops whatever is left in
// the buffer (plaintext pipelined after STARTTLS must not be executed, RFC 3207 §5), runs the
// handshake and tells the core. On deliver_message it waits (without reading) for the delivery
// queue, hands the result to the core, sends the reply, then feeds the buffer again before it
// reads: commands pipelined behind the message are answered after its 250 (RFC 2920 §3.1).
// smtp_send does the same with a blocking client.
#include "netlib/io/smtp_driver.hpp"

#include <array>

#include <fmt/format.h>

#include "netlib/io/tcp_client.hpp"

namespace netlib::io {
namespace {

std::chrono::sys_seconds wall_now() {
  return std::chrono::time_point_cast<std::chrono::seconds>(std::chrono::system_clock::now());
}

void trace_lines(const client_endpoint& server, std::string_view prefix, std::string_view text) {
  if (!server.trace) return;
  while (!text.empty()) {
    const auto eol = text.find("\r\n");
    server.trace(fmt::format("{}{}", prefix, text.substr(0, eol)));
    text = eol == std::string_view::npos ? std::string_view{} : text.substr(eol + 2);
  }
}

// The peer for the Received: header, and a session id that makes queue ids
// "<process start, hex>.<connection>.<message>" unique across restarts.
smtp::session_info smtp_session_info(connection& conn, std::uint64_t id) {
  static const auto started = std::chrono::duration_cast<std::chrono::seconds>(
      std::chrono::system_clock::now().time_since_epoch()).count();
  return {fmt::format("[{}]", conn.remote_endpoint().address().to_string()), fmt::format("{:x}.{}", started, id)};
}

}  // namespace

awaitable<void> serve_smtp(connection& conn, smtp_service& service) {
  smtp::server_config config = service.config;
  config.tls_available = conn.tls_available();
  smtp::server_session session(config, smtp_session_info(conn, service.next_session++), service.users);
  input_buffer buffer;
  std::array<std::byte, 16384> chunk{};
  // Executes actions; false when the connection is done.
  const auto execute = [&](std::vector<smtp::server_action> actions) -> awaitable<bool> {
    for (auto& a : actions) {
      if (auto* d = std::get_if<smtp::deliver_message>(&a)) {
        const auto result = co_await deliver_async(service.deliveries, std::move(*d));
        for (const auto& r : session.delivery_done(result))
          if (!co_await conn.write(std::get<smtp::send_reply>(r).bytes)) co_return false;
      } else if (const auto* r = std::get_if<smtp::send_reply>(&a)) {
        if (!co_await conn.write(r->bytes)) co_return false;
      } else if (std::holds_alternative<smtp::start_tls>(a)) {
        buffer.clear();  // discard pipelined plaintext
        if (!co_await conn.start_tls()) co_return false;
        session.tls_started();
      } else {
        conn.close();
        co_return false;
      }
    }
    co_return true;
  };
  if (!co_await execute(session.start())) co_return;
  for (;;) {
    auto step = session.receive(buffer.data(), wall_now());
    buffer.consume(step.consumed);
    const bool delivered = !step.actions.empty() && std::holds_alternative<smtp::deliver_message>(step.actions.back());
    if (!co_await execute(std::move(step.actions))) co_return;
    if (delivered) continue;  // lines pipelined behind the message may be waiting (bounded: it consumed its ".")
    const std::size_t n = co_await conn.read_some(chunk);
    if (n == 0) {
      (void)session.receive_eof();  // a message in progress is dropped
      conn.close();
      co_return;
    }
    buffer.append(byte_view(chunk.data(), n));
  }
}

smtp::client_result smtp_send(const client_endpoint& server, smtp::client_options options, smtp::envelope env,
                              std::string message) {
  smtp::client_session session(std::move(options), std::move(env), std::move(message));
  tcp_client client(server.timeout);
  client.connect(server.host, server.port);
  input_buffer buffer;
  std::array<std::byte, 16384> chunk{};
  const auto execute = [&](const std::vector<smtp::client_action>& actions) {
    for (const auto& a : actions) {
      if (const auto* c = std::get_if<smtp::send_command>(&a)) {
        trace_lines(server, "C: ", c->shown);
        client.write(c->bytes);
      } else if (std::holds_alternative<smtp::client_start_tls>(a)) {
        buffer.clear();
        if (!server.tls) throw io_error("STARTTLS needs a TLS client context");
        client.start_tls(server.tls, server.host);
        trace_lines(server, "", "-- TLS handshake done; the rest is encrypted --");
        const auto more = session.tls_started();
        for (const auto& m : more) {
          const auto& cmd = std::get<smtp::send_command>(m);
          trace_lines(server, "C: ", cmd.shown);
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
    const auto step = session.receive(buffer.data());
    buffer.consume(step.consumed);
    for (const auto& r : step.replies) trace_lines(server, "S: ", smtp::format_reply(r.code, r.lines));
    execute(step.actions);
  }
  return session.result();
}

}  // namespace netlib::io
