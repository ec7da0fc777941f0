#pragma once
// The POP3 cores on the live drivers (docs/architecture.md, "The live driver"): serve_pop3 runs one
// server connection on a tcp_server (run_session); pop3_fetch runs the client core over a blocking
// tcp_client (run_client_session) and hands each message over.
#include <functional>
#include <string>

#include "netlib/core/users_table.hpp"
#include "netlib/io/asio.hpp"
#include "netlib/io/client_driver.hpp"
#include "netlib/io/connection.hpp"
#include "netlib/mail/mail_store.hpp"
#include "netlib/pop3/client_session.hpp"
#include "netlib/pop3/server_session.hpp"

namespace netlib::io {

struct pop3_service {
  pop3::server_config config;  // tls_available and peer_address are taken from the connection
  mail::mail_store& store;
  const users_table& users;
};

awaitable<void> serve_pop3(connection& conn, pop3_service& service);

struct pop3_fetch_result {
  std::size_t retrieved = 0;
  std::size_t deleted = 0;
  std::string error;  // empty on success
};

// Throws io_error when the connection or the TLS handshake fails; on_message may throw to abort.
pop3_fetch_result pop3_fetch(const client_endpoint& server, pop3::client_options options,
                             const std::function<void(const pop3::fetched_message&)>& on_message);

}  // namespace netlib::io
