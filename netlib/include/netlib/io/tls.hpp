#pragma once
// TLS contexts on OpenSSL (asio::ssl). A server context is shared by all connections of a server;
// a runner switches a connection to TLS mid-stream for STARTTLS/STLS/AUTH TLS (connection::start_tls).
#include <memory>
#include <string>
#include <string_view>

#include "netlib/io/asio.hpp"

namespace netlib::io {

// Every file a program is given for TLS (--tls-cert, --tls-key, --cacert, --ca-file) is checked
// here before OpenSSL reads it, so that every server and client says the same thing: io_error
// "WHAT 'PATH': no such file", "cannot read WHAT 'PATH': Permission denied" (the errno text), "...
// is a folder, not a file". A missing file is refused earlier still, as a usage error (exit 2), by
// the flag's app::input_file() check (docs/conventions.md); this check covers the rest (exit 1)
// and callers that are not command lines.
void check_tls_file(const std::string& what, const std::string& path);

// Loads a PEM certificate chain and private key. Throws io_error naming the file that failed.
std::shared_ptr<ssl::context> make_server_tls(const std::string& cert_file, const std::string& key_file);
// A client context; with verify, peers are checked against the system store (or ca_file).
std::shared_ptr<ssl::context> make_client_tls(bool verify, const std::string& ca_file = {});

// Session binding (RFC 4217 data connections; vsftpd's require_ssl_reuse): the TLS sessions made
// on one FTP control connection carry a tag of their own, in the session id context (TLS 1.2
// session ids) and in the tickets (ticket app data, TLS 1.2 and 1.3), and a server handshake on
// an SSL object bound to a tag resumes only a session that carries the same tag. So a data
// connection can resume its control connection's session (or one made on an earlier data
// connection of the same control connection), and no other. make_server_tls installs what the
// tickets need; an unbound SSL object behaves as usual.
std::string new_tls_session_tag();                       // unique in this process
void bind_tls_sessions(SSL* ssl, std::string_view tag);  // before the handshake
// After a server handshake: whether it resumed a session (an abbreviated handshake).
bool tls_session_resumed(SSL* ssl);

}  // namespace netlib::io
