#pragma once
// The session contract (docs/architecture.md, "The session contract"): what every server core
// asks of its driver, in one set of types. A core's action type is the common alternatives plus
// its protocol's own, e.g. SMTP's
//
//   using action = netlib::session_action<deliver_message>;
//
// so send, start TLS, close and wake-at mean the same to every driver (the live one in
// netlib::io::run_session, the in-memory ones of the tests), and a protocol adds only what is
// its own (FTP's data connections, SMTP's delivery, HTTP's request for the application).
//
// A line-protocol server core (session_core below) takes:
//   start(now)            -> actions   the greeting; `now` starts its clocks
//   receive(input, now)   -> step      consumes what it acted on; the driver keeps the rest
//   tick(now)             -> actions   time passed (called at every wake_at time and before receive)
//   tls_established(ok)   -> actions   the handshake a start_tls asked for is done (or failed)
//   receive_eof()         -> actions   the peer closed
// and answers with actions executed in order.
#include <concepts>
#include <cstddef>
#include <string>
#include <variant>
#include <vector>

#include "netlib/core/bytes.hpp"
#include "netlib/core/clock.hpp"

namespace netlib {

// Write these bytes, in order with every other send.
struct send_bytes {
  std::string bytes;
};
// Switch the connection to TLS (STARTTLS, STLS, AUTH TLS) once what was sent before is written.
// Input received after the command and not consumed is discarded, never fed (RFC 3207 §5): the
// core stops consuming at the line that asked for TLS. Report with tls_established().
struct start_tls {};
// Close the connection once what was sent before is written.
struct close_connection {};
// Call tick() once `when` has come (a held reply, an idle timeout). A later wake_at replaces an
// earlier one: a core has one next deadline and asks again when it moves. After the wake the
// request is spent.
struct wake_at {
  time_point when;
};

template <class... Extra>
using session_action = std::variant<send_bytes, start_tls, close_connection, wake_at, Extra...>;

template <class Action>
struct session_step {
  std::size_t consumed = 0;     // bytes of the input the core acted on
  std::vector<Action> actions;  // in order; empty: the core needs more input (or is waiting)
};

// True for the alternatives every driver executes itself.
template <class A>
inline constexpr bool is_common_action = std::same_as<A, send_bytes> || std::same_as<A, start_tls> ||
                                         std::same_as<A, close_connection> || std::same_as<A, wake_at>;

// The client side of the contract (lab-smtp send, lab-pop3 fetch): a command, with the text a
// trace shows (credentials hidden); start_tls and close_connection as above. A client core has
// receive(input) -> step, tls_started() and receive_eof() -> actions, and finished().
struct send_command {
  std::string bytes;  // what goes on the wire
  std::string shown;  // the same for a trace, with credentials hidden
};
template <class... Extra>
using client_session_action = std::variant<send_command, start_tls, close_connection, Extra...>;

template <class Core>
concept session_core = requires(Core& core, byte_view input, const clock_reading& now, bool ok) {
  typename Core::action;
  { core.start(now) } -> std::same_as<std::vector<typename Core::action>>;
  { core.receive(input, now) } -> std::same_as<session_step<typename Core::action>>;
  { core.tick(now) } -> std::same_as<std::vector<typename Core::action>>;
  { core.tls_established(ok) } -> std::same_as<std::vector<typename Core::action>>;
  { core.receive_eof() } -> std::same_as<std::vector<typename Core::action>>;
};

}  // namespace netlib
