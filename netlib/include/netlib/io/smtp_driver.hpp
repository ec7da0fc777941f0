#pragma once
// The SMTP cores on the live drivers (docs/architecture.md, "The live driver"): serve_smtp runs one
// server connection on a tcp_server (run_session), its deliveries going through the service's
// smtp_delivery_queue (group commit); smtp_send runs the client core over a blocking tcp_client
// (run_client_session).
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "netlib/core/users_table.hpp"
#include "netlib/io/asio.hpp"
#include "netlib/io/client_driver.hpp"
#include "netlib/io/connection.hpp"
#include "netlib/io/smtp_delivery_queue.hpp"
#include "netlib/smtp/client_session.hpp"
#include "netlib/smtp/server_session.hpp"

namespace netlib::io {

struct smtp_service {
  smtp::server_config config;  // tls_available is taken from the connection
  smtp_delivery_queue& deliveries;
  const users_table& users;
  std::atomic<std::uint64_t> next_session{1};
};

awaitable<void> serve_smtp(connection& conn, smtp_service& service);

// Connects, runs the dialogue, returns the core's result. Throws io_error when the connection or
// the TLS handshake fails.
smtp::client_result smtp_send(const client_endpoint& server, smtp::client_options options, smtp::envelope env,
                              std::string message);

}  // namespace netlib::io
