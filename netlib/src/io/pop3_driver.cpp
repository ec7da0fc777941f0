// Theory of operation: POP3 has no actions of its own, so serve_pop3 is the core on the one live
// driver (run_session, docs/architecture.md "The live driver"): STLS discards the buffered
// plaintext before the handshake (RFC 2595 §4), held PASS answers wait for their wake_at, and a
// connection that ends without QUIT is reported to the core, which unlocks the maildrop without
// deleting anything. pop3_fetch drives the client core over a blocking client.
#include "netlib/io/pop3_driver.hpp"

#include "netlib/io/client_driver.hpp"
#include "netlib/io/session_driver.hpp"

namespace netlib::io {

awaitable<void> serve_pop3(connection& conn, pop3_service& service) {
  pop3::server_config config = service.config;
  config.tls_available = conn.tls_available();
  config.peer_address = conn.remote_endpoint().address().to_string();
  co_await run_session(conn, pop3::server_session(config, service.store, service.users));
}

pop3_fetch_result pop3_fetch(const client_endpoint& server, pop3::client_options options,
                             const std::function<void(const pop3::fetched_message&)>& on_message) {
  pop3::client_session session(std::move(options));
  run_client_session(server, session, "STLS", [&](const pop3::client_step& step) {
    for (const auto& r : step.responses) trace_lines(server, "S: ", r);
    for (const auto& m : step.messages) on_message(m);
  });
  return {session.retrieved(), session.deleted(), session.error()};
}

}  // namespace netlib::io
