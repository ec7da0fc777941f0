// Theory of operation (session binding): a tag is an ex_data string on the SSL object. It is
// also the SSL's session id context, which OpenSSL compares before resuming a session from its
// session cache (TLS 1.2 session ids). Tickets carry no id context check in TLS 1.3, so the
// ticket callbacks do it: the generate callback stores the tag of the SSL that issues a ticket as
// the ticket's app data, and the decrypt callback refuses (a full handshake instead) a ticket
// whose app data is not the tag of the SSL that receives it, when that SSL is bound.
#include "netlib/io/tls.hpp"

#include <fcntl.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>

#include <fmt/format.h>

namespace netlib::io {

namespace {
int tag_index() {
  static const int index = SSL_get_ex_new_index(
      0, nullptr, nullptr, nullptr,
      [](void*, void* ptr, CRYPTO_EX_DATA*, int, long, void*) { delete static_cast<std::string*>(ptr); });
  return index;
}

const std::string* tag_of(SSL* ssl) {
  return static_cast<const std::string*>(SSL_get_ex_data(ssl, tag_index()));
}

int on_ticket_made(SSL* ssl, void*) {
  const std::string* tag = tag_of(ssl);
  if (tag == nullptr) return 1;
  return SSL_SESSION_set1_ticket_appdata(SSL_get0_session(ssl), tag->data(), tag->size());
}

SSL_TICKET_RETURN on_ticket_opened(SSL* ssl, SSL_SESSION* session, const unsigned char*, size_t,
                                   SSL_TICKET_STATUS status, void*) {
  const bool usable = status == SSL_TICKET_SUCCESS || status == SSL_TICKET_SUCCESS_RENEW;
  if (!usable) return SSL_TICKET_RETURN_IGNORE_RENEW;
  if (const std::string* tag = tag_of(ssl)) {
    void* data = nullptr;
    size_t size = 0;
    if (SSL_SESSION_get0_ticket_appdata(session, &data, &size) != 1 || size != tag->size() ||
        std::memcmp(data, tag->data(), size) != 0)
      return SSL_TICKET_RETURN_IGNORE_RENEW;  // another connection's session: a full handshake
  }
  return status == SSL_TICKET_SUCCESS ? SSL_TICKET_RETURN_USE : SSL_TICKET_RETURN_USE_RENEW;
}
}  // namespace

void check_tls_file(const std::string& what, const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    const int e = errno;
    if (e == ENOENT) throw io_error(fmt::format("{} '{}': no such file", what, path));
    throw io_error(fmt::format("cannot read {} '{}': {}", what, path, std::strerror(e)));
  }
  struct stat st {};
  const bool regular = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
  const bool folder = S_ISDIR(st.st_mode);
  ::close(fd);
  if (folder) throw io_error(fmt::format("{} '{}' is a folder, not a file", what, path));
  if (!regular) throw io_error(fmt::format("{} '{}' is not a regular file", what, path));
}

namespace {
// OpenSSL's reason for the failure Asio reports in `ec` ("no start line" for a file without a PEM
// block), without the library name; the queue's rest (the caller's "PEM lib") is dropped.
std::string openssl_reason(const boost::system::error_code& ec) {
  const char* reason = ec.category() == asio::error::get_ssl_category()
                           ? ERR_reason_error_string(static_cast<unsigned long>(ec.value()))
                           : nullptr;
  ERR_clear_error();
  return reason != nullptr ? reason : ec.message();
}
}  // namespace

std::string new_tls_session_tag() {
  static std::atomic<std::uint64_t> counter{0};
  return fmt::format("netlab-tls-{}", ++counter);
}

void bind_tls_sessions(SSL* ssl, std::string_view tag) {
  auto* copy = new std::string(tag);
  delete static_cast<std::string*>(SSL_get_ex_data(ssl, tag_index()));
  SSL_set_ex_data(ssl, tag_index(), copy);
  SSL_set_session_id_context(ssl, reinterpret_cast<const unsigned char*>(copy->data()),
                             static_cast<unsigned>(std::min<std::size_t>(copy->size(), SSL_MAX_SID_CTX_LENGTH)));
}

bool tls_session_resumed(SSL* ssl) {
  return SSL_session_reused(ssl) == 1;
}

std::shared_ptr<ssl::context> make_server_tls(const std::string& cert_file, const std::string& key_file) {
  auto ctx = std::make_shared<ssl::context>(ssl::context::tls_server);
  ctx->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3 |
                   ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1 | ssl::context::single_dh_use);
  check_tls_file("TLS certificate", cert_file);
  check_tls_file("TLS key", key_file);
  boost::system::error_code ec;
  ctx->use_certificate_chain_file(cert_file, ec);
  if (ec)
    throw io_error("cannot load TLS certificate '" + cert_file + "': " + openssl_reason(ec) +
                   " (expected a PEM certificate chain: -----BEGIN CERTIFICATE-----)");
  ctx->use_private_key_file(key_file, ssl::context::pem, ec);
  if (ec)
    throw io_error("cannot load TLS key '" + key_file + "': " + openssl_reason(ec) +
                   " (expected the PEM private key of the certificate: -----BEGIN PRIVATE KEY-----)");
  SSL_CTX_set_session_ticket_cb(ctx->native_handle(), on_ticket_made, on_ticket_opened, nullptr);
  return ctx;
}

std::shared_ptr<ssl::context> make_client_tls(bool verify, const std::string& ca_file) {
  auto ctx = std::make_shared<ssl::context>(ssl::context::tls_client);
  ctx->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3 |
                   ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1);
  boost::system::error_code ec;
  if (verify) {
    if (ca_file.empty()) {
      ctx->set_default_verify_paths(ec);
      if (ec) throw io_error("cannot load the system's CA certificates: " + openssl_reason(ec));
    } else {
      check_tls_file("CA certificate file", ca_file);
      ctx->load_verify_file(ca_file, ec);
      if (ec)
        throw io_error("cannot load CA certificates '" + ca_file + "': " + openssl_reason(ec) +
                       " (expected PEM certificates: -----BEGIN CERTIFICATE-----)");
    }
    ctx->set_verify_mode(ssl::verify_peer);
  } else {
    ctx->set_verify_mode(ssl::verify_none);
  }
  return ctx;
}

}  // namespace netlib::io
