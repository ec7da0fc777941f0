// Theory of operation: the transfer parameter commands (RFC 959 §4.1.2: TYPE, MODE, STRU) and
// the RFC 4217 security commands (AUTH, PBSZ, PROT). Only what the server implements is accepted:
// TYPE A (non-print) and I (and L 8, the same as I), MODE S, STRU F; other valid values get 504,
// anything else 501.
#include <fmt/format.h>

#include "netlib/core/ascii.hpp"
#include "netlib/ftp/server_session.hpp"

namespace netlib::ftp {

namespace {
using ascii::to_upper;
}  // namespace

// RFC 959 §4.1.2 TYPE: A [N|T|C], E [..], I, L <byte size>.
void server_session::on_type(const std::string& arg) {
  const std::string t = to_upper(arg);
  if (t == "A" || t == "A N") {
    ascii_ = true;
    return reply(200, "Type set to A.");
  }
  if (t == "I" || t == "L 8") {
    ascii_ = false;
    return reply(200, "Type set to I.");
  }
  if (t == "E" || t == "E N" || t == "A T" || t == "A C" || t == "E T" || t == "E C" ||
      (t.size() > 2 && t[0] == 'L' && t[1] == ' ')) {
    return reply(504, fmt::format("Type {} not implemented.", arg));
  }
  reply(501, "TYPE needs A, I or L 8.");
}

// RFC 959 §4.1.2 MODE: S (stream), B (block), C (compressed).
void server_session::on_mode(const std::string& arg) {
  const std::string m = to_upper(arg);
  if (m == "S") return reply(200, "Mode set to S.");
  if (m == "B" || m == "C") return reply(504, fmt::format("Mode {} not implemented.", arg));
  reply(501, "MODE needs S.");
}

// RFC 959 §4.1.2 STRU: F (file), R (record), P (page).
void server_session::on_stru(const std::string& arg) {
  const std::string s = to_upper(arg);
  if (s == "F") return reply(200, "Structure set to F.");
  if (s == "R" || s == "P") return reply(504, fmt::format("Structure {} not implemented.", arg));
  reply(501, "STRU needs F.");
}

// RFC 4217 §4: AUTH TLS -> 234 and the handshake starts at once; 504 for other mechanisms; 502
// when the server has no certificate.
void server_session::on_auth(const std::string& arg) {
  if (!config_.tls_available) return reply(502, "AUTH not available: the server has no TLS certificate.");
  const std::string m = to_upper(arg);
  if (m != "TLS" && m != "TLS-C" && m != "SSL") return reply(504, "AUTH needs TLS.");
  if (tls_active_) return reply(503, "TLS already active.");
  reply(234, "AUTH TLS successful.");
  emit(start_tls{});
  state_ = server_state::awaiting_tls;
}

server_actions server_session::tls_established(bool ok) {
  if (state_ != server_state::awaiting_tls) return {};
  if (!ok) {
    state_ = server_state::closed;
    emit(close_connection{});
    return flush();
  }
  tls_active_ = true;
  // RFC 4217 §4: after AUTH the user must log in again.
  logged_in_ = false;
  user_given_ = false;
  state_ = server_state::awaiting_user;
  return flush();
}

// RFC 4217 §8/§9: PBSZ 0 after AUTH, then PROT C or P.
void server_session::on_pbsz(const std::string& arg) {
  if (!tls_active_) return reply(503, "PBSZ needs AUTH TLS first.");
  if (arg.empty()) return reply(501, "PBSZ needs a size.");
  pbsz_given_ = true;
  reply(200, "PBSZ=0");
}

void server_session::on_prot(const std::string& arg) {
  if (!tls_active_ || !pbsz_given_) return reply(503, "PROT needs AUTH TLS and PBSZ first.");
  const std::string p = to_upper(arg);
  if (p == "C") {
    protect_data_ = false;
    return reply(200, "Protection level set to C.");
  }
  if (p == "P") {
    protect_data_ = true;
    return reply(200, "Protection level set to P.");
  }
  if (p == "S" || p == "E") return reply(536, "Protection level not supported.");
  reply(504, "PROT needs C or P.");
}

}  // namespace netlib::ftp
