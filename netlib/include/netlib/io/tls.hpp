#pragma once
// TLS contexts on OpenSSL (asio::ssl). A server context is shared by all connections of a server;
// a runner switches a connection to TLS mid-stream for STARTTLS/STLS/AUTH TLS (connection::start_tls).
#include <memory>
#include <string>

#include "netlib/io/asio.hpp"

namespace netlib::io {

// Loads a PEM certificate chain and private key. Throws io_error naming the file that failed.
std::shared_ptr<ssl::context> make_server_tls(const std::string& cert_file, const std::string& key_file);
// A client context; with verify, peers are checked against the system store (or ca_file).
std::shared_ptr<ssl::context> make_client_tls(bool verify, const std::string& ca_file = {});

}  // namespace netlib::io
