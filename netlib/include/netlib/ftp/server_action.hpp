#pragma once
// What a server session asks its driver to do: the session contract's common actions (send,
// start_tls for AUTH TLS, close, wake_at; netlib/core/session.hpp) extended with FTP's data
// connections (docs/architecture.md, "The session contract"). The driver executes the actions
// in order and reports back with passive_opened()/passive_failed(), transfer_finished() and
// tls_established().
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "netlib/core/clock.hpp"
#include "netlib/core/session.hpp"
#include "netlib/ftp/data_address.hpp"
#include "netlib/ftp/file_system.hpp"
#include "netlib/ftp/reply.hpp"

namespace netlib::ftp {

enum class transfer_kind { send_file, send_listing, receive_file };

// How a transfer ended, as the driver reports it (the reply it leads to, RFC 959 §4.2).
enum class transfer_outcome {
  completed,        // 226
  connect_failed,   // 425: no data connection (none arrived, refused, or connect failed)
  connection_lost,  // 426: the data connection broke or timed out
  aborted,          // 426 then 226 (ABOR, RFC 959 §4.1.3)
  local_error,      // 451: reading or writing the file failed
  storage_error,    // 552: the upload could not be stored
  tls_not_resumed,  // 522: PROT P data connection without the control connection's TLS session
};

// Open a passive listener (on the control connection's local address); reply with
// passive_opened(host, port) or passive_failed(). A previous listener is replaced.
struct open_passive {
  bool extended = false;  // EPSV (RFC 2428 §3) rather than PASV
};
struct close_passive {};
struct start_transfer {
  transfer_kind kind = transfer_kind::send_file;
  std::string path;            // virtual path (send_file, receive_file)
  std::string listing;         // the bytes to send (send_listing)
  std::uint64_t offset = 0;    // REST (RFC 3659 §5)
  bool append = false;         // APPE
  bool ascii = false;          // TYPE A: LF <-> CRLF on the data connection only (RFC 959 §3.1.1.1)
  bool passive = true;         // accept on the passive listener; otherwise connect to active_target
  data_address active_target;  // PORT/EPRT target
  std::string expected_peer;   // RFC 2577 §3: a passive data connection must come from this address
  bool tls = false;            // PROT P (RFC 4217 §9): TLS on the data connection
  existing_file existing = existing_file::replace;  // receive_file: keep for anonymous uploads
};
struct abort_transfer {};

// wake_at: the login delay and the idle timeout; start_tls: AUTH TLS (RFC 4217 §4).
using server_action = session_action<open_passive, close_passive, start_transfer, abort_transfer>;
using server_actions = std::vector<server_action>;

}  // namespace netlib::ftp
