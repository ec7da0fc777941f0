#include "netlib/io/tls.hpp"

namespace netlib::io {

std::shared_ptr<ssl::context> make_server_tls(const std::string& cert_file, const std::string& key_file) {
  auto ctx = std::make_shared<ssl::context>(ssl::context::tls_server);
  ctx->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3 |
                   ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1 | ssl::context::single_dh_use);
  boost::system::error_code ec;
  ctx->use_certificate_chain_file(cert_file, ec);
  if (ec) throw io_error("cannot load TLS certificate '" + cert_file + "': " + ec.message() + " (expected a PEM file)");
  ctx->use_private_key_file(key_file, ssl::context::pem, ec);
  if (ec) throw io_error("cannot load TLS key '" + key_file + "': " + ec.message() + " (expected a PEM private key)");
  return ctx;
}

std::shared_ptr<ssl::context> make_client_tls(bool verify, const std::string& ca_file) {
  auto ctx = std::make_shared<ssl::context>(ssl::context::tls_client);
  ctx->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3 |
                   ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1);
  boost::system::error_code ec;
  if (verify) {
    if (ca_file.empty()) ctx->set_default_verify_paths(ec);
    else ctx->load_verify_file(ca_file, ec);
    if (ec) throw io_error("cannot load CA certificates" + (ca_file.empty() ? std::string() : " '" + ca_file + "'") + ": " + ec.message());
    ctx->set_verify_mode(ssl::verify_peer);
  } else {
    ctx->set_verify_mode(ssl::verify_none);
  }
  return ctx;
}

}  // namespace netlib::io
