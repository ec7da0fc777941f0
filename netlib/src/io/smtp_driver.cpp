// Theory of operation: serve_smtp runs the SMTP core on the one live driver (run_session,
// docs/architecture.md "The live driver"), which does the reading, the writing, STARTTLS (the
// plaintext pipelined after it is discarded, RFC 3207 §5) and the held AUTH answers (wake_at).
// SMTP's own action is deliver_message: its hook runs a task before anything more is read, which
// hands the message to the delivery queue (group commit) and gives the core the result; then the
// driver feeds the buffer again: commands pipelined behind the message are answered after its 250
// (RFC 2920 §3.1). smtp_send drives the client core
// over a blocking client (run_client_session).
#include "netlib/io/smtp_driver.hpp"

#include <fmt/format.h>

#include "netlib/io/client_driver.hpp"
#include "netlib/io/session_driver.hpp"

namespace netlib::io {
namespace {

// The peer for the Received: header, and a session id that makes queue ids
// "<process start, hex>.<connection>.<message>" unique across restarts.
smtp::session_info smtp_session_info(connection& conn, std::uint64_t id) {
  static const auto started =
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  return {fmt::format("[{}]", conn.remote_endpoint().address().to_string()), fmt::format("{:x}.{}", started, id)};
}

// deliver_message: SMTP's own action.
struct smtp_hooks {
  smtp_delivery_queue& deliveries;

  template <class Runner>
  void handle(Runner& r, smtp::deliver_message& d) {
    // Nothing is read while the message is stored; then the lines pipelined behind it are fed.
    r.run_task([&r, &queue = deliveries, message = std::move(d)]() mutable -> awaitable<void> {
      const auto result = co_await deliver_async(queue, std::move(message));
      r.execute(r.core().delivery_done(result));
    });
  }
};

}  // namespace

awaitable<void> serve_smtp(connection& conn, smtp_service& service) {
  smtp::server_config config = service.config;
  config.tls_available = conn.tls_available();
  co_await run_session(conn,
                       smtp::server_session(config, smtp_session_info(conn, service.next_session++), service.users),
                       smtp_hooks{service.deliveries});
}

smtp::client_result smtp_send(const client_endpoint& server, smtp::client_options options, smtp::envelope env,
                              std::string message) {
  smtp::client_session session(std::move(options), std::move(env), std::move(message));
  run_client_session(server, session, "STARTTLS", [&server](const smtp::client_step& step) {
    for (const auto& r : step.replies) trace_lines(server, "S: ", smtp::format_reply(r.code, r.lines));
  });
  return session.result();
}

}  // namespace netlib::io
