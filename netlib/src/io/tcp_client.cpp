// Theory of operation: each blocking call starts one asynchronous operation on the client's
// private io_context and runs that context for at most the timeout (the "blocking client with
// deadlines" pattern). If the operation has not completed by then, the socket is closed, which
// completes it with operation_aborted, and the call throws io_error naming what timed out.
#include "netlib/io/tcp_client.hpp"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <sys/socket.h>

#include <algorithm>
#include <string_view>
#include <vector>

#include <fmt/format.h>

namespace netlib::io {
namespace {

std::string seconds_text(std::chrono::milliseconds t) {
  return fmt::format("{:g} s", t.count() / 1000.0);
}

// What the certificate names: "CN=localhost, DNS:localhost, IP:127.0.0.1" (subject common name,
// then the subjectAltName entries of type DNS and IP, RFC 5280 §4.2.1.6).
std::string certificate_names(X509* cert) {
  std::vector<std::string> names;
  char cn[256] = {};
  if (X509_NAME_get_text_by_NID(X509_get_subject_name(cert), NID_commonName, cn, sizeof cn) > 0)
    names.push_back(fmt::format("CN={}", cn));
  auto* alt = static_cast<GENERAL_NAMES*>(X509_get_ext_d2i(cert, NID_subject_alt_name, nullptr, nullptr));
  for (int i = 0; alt != nullptr && i < sk_GENERAL_NAME_num(alt); ++i) {
    const GENERAL_NAME* n = sk_GENERAL_NAME_value(alt, i);
    if (n->type == GEN_DNS) {
      const auto* text = reinterpret_cast<const char*>(ASN1_STRING_get0_data(n->d.dNSName));
      names.push_back(
          fmt::format("DNS:{}", std::string_view(text, static_cast<std::size_t>(ASN1_STRING_length(n->d.dNSName)))));
    } else if (n->type == GEN_IPADD) {
      const unsigned char* b = ASN1_STRING_get0_data(n->d.iPAddress);
      const int len = ASN1_STRING_length(n->d.iPAddress);
      if (len == 4) {
        names.push_back(fmt::format("IP:{}.{}.{}.{}", b[0], b[1], b[2], b[3]));
      } else if (len == 16) {
        asio::ip::address_v6::bytes_type bytes{};
        std::copy(b, b + 16, bytes.begin());
        names.push_back("IP:" + asio::ip::address_v6(bytes).to_string());
      }
    }
  }
  if (alt != nullptr) GENERAL_NAMES_free(alt);
  if (names.empty()) return "no name";
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// Why the server's certificate was refused, for an error line a person can act on.
struct verify_outcome {
  std::string names;  // set when the chain was trusted but the name did not match
  int chain_error = X509_V_OK;
};

}  // namespace

struct tcp_client::impl {
  asio::io_context ctx{1};
  tcp::socket socket{ctx};
  std::unique_ptr<ssl::stream<tcp::socket&>> tls;
  std::shared_ptr<ssl::context> tls_ctx;
  std::chrono::milliseconds timeout;
  std::string peer = "(not connected)";

  explicit impl(std::chrono::milliseconds t) : timeout(t) {}

  // Runs the context until `done` or the deadline; on the deadline closes the socket and throws.
  void wait(const bool& done, const std::string& what) {
    ctx.restart();
    ctx.run_for(timeout);
    if (!done) {
      boost::system::error_code ec;
      socket.close(ec);
      ctx.restart();
      ctx.run();
      throw io_error("timed out after " + seconds_text(timeout) + " " + what);
    }
  }

  template <class Stream>
  std::size_t read_some(Stream& stream, std::span<std::byte> buffer) {
    bool done = false;
    boost::system::error_code result;
    std::size_t n = 0;
    stream.async_read_some(asio::buffer(buffer.data(), buffer.size()), [&](auto ec, std::size_t got) {
      result = ec;
      n = got;
      done = true;
    });
    wait(done, "waiting for data from " + peer);
    if (result == asio::error::eof || result == ssl::error::stream_truncated) return n;
    if (result) throw io_error("reading from " + peer + " failed: " + result.message());
    return n;
  }

  template <class Stream>
  void write(Stream& stream, byte_view data) {
    bool done = false;
    boost::system::error_code result;
    asio::async_write(stream, asio::buffer(data.data(), data.size()), [&](auto ec, std::size_t) {
      result = ec;
      done = true;
    });
    wait(done, "sending to " + peer);
    if (result) throw io_error("sending to " + peer + " failed: " + result.message());
  }
};

tcp_client::tcp_client(std::chrono::milliseconds timeout) : impl_(std::make_unique<impl>(timeout)) {}
tcp_client::~tcp_client() = default;
tcp_client::tcp_client(tcp_client&&) noexcept = default;
tcp_client& tcp_client::operator=(tcp_client&&) noexcept = default;

void tcp_client::connect(const std::string& host, unsigned short port) {
  auto& m = *impl_;
  m.peer = (host.find(':') != std::string::npos ? "[" + host + "]" : host) + ":" + std::to_string(port);
  bool done = false;
  boost::system::error_code result;
  // A numeric address is connected to as it is. Asio's resolver runs getaddrinfo on a thread it
  // starts for its io_context, and each client has its own context: resolving "127.0.0.1" cost a
  // thread per connection (milliseconds on a loaded machine, against a loopback round trip of
  // microseconds, which blurred lab-http get's persistent vs non-persistent comparison).
  boost::system::error_code not_numeric;
  const auto address = asio::ip::make_address(host, not_numeric);
  if (!not_numeric) {
    m.socket.async_connect(tcp::endpoint(address, port), [&](auto ec) {
      result = ec;
      done = true;
    });
  } else {
    tcp::resolver resolver(m.ctx);
    tcp::resolver::results_type endpoints;
    resolver.async_resolve(host, std::to_string(port), [&](auto ec, tcp::resolver::results_type r) {
      result = ec;
      endpoints = std::move(r);
      done = true;
    });
    m.wait(done, "resolving " + host);
    if (result) throw io_error("cannot resolve '" + host + "': " + result.message());
    done = false;
    asio::async_connect(m.socket, endpoints, [&](auto ec, const tcp::endpoint&) {
      result = ec;
      done = true;
    });
  }
  m.wait(done, "connecting to " + m.peer);
  if (result) throw io_error("cannot connect to " + m.peer + ": " + result.message());
  boost::system::error_code ec;
  m.socket.set_option(tcp::no_delay(true), ec);
}

void tcp_client::write(byte_view data) {
  if (impl_->tls)
    impl_->write(*impl_->tls, data);
  else
    impl_->write(impl_->socket, data);
}

std::size_t tcp_client::read_some(std::span<std::byte> buffer) {
  if (impl_->tls) return impl_->read_some(*impl_->tls, buffer);
  return impl_->read_some(impl_->socket, buffer);
}

std::string tcp_client::read_to_end(std::size_t limit) {
  std::string out;
  std::array<std::byte, 65536> buf{};
  for (;;) {
    const std::size_t n = read_some(buf);
    if (n == 0) return out;
    if (out.size() + n > limit) throw io_error("more than " + std::to_string(limit) + " bytes from " + impl_->peer);
    out.append(reinterpret_cast<const char*>(buf.data()), n);
  }
}

void tcp_client::start_tls(std::shared_ptr<ssl::context> tls, const std::string& server_name) {
  auto& m = *impl_;
  m.tls_ctx = std::move(tls);
  m.tls = std::make_unique<ssl::stream<tcp::socket&>>(m.socket, *m.tls_ctx);
  auto outcome = std::make_shared<verify_outcome>();
  if (!server_name.empty()) {
    SSL_set_tlsext_host_name(m.tls->native_handle(), server_name.c_str());
    // RFC 6125 name check (asio's host_name_verification), remembering what failed and why.
    m.tls->set_verify_callback([check = ssl::host_name_verification(server_name), outcome](
                                   bool preverified, ssl::verify_context& ctx) mutable {
      X509_STORE_CTX* store = ctx.native_handle();
      if (!preverified) {
        if (outcome->chain_error == X509_V_OK) outcome->chain_error = X509_STORE_CTX_get_error(store);
        return false;
      }
      const bool ok = check(preverified, ctx);
      if (!ok && X509_STORE_CTX_get_error_depth(store) == 0)
        outcome->names = certificate_names(X509_STORE_CTX_get_current_cert(store));
      return ok;
    });
  }
  bool done = false;
  boost::system::error_code result;
  m.tls->async_handshake(ssl::stream_base::client, [&](auto ec) {
    result = ec;
    done = true;
  });
  m.wait(done, "in the TLS handshake with " + m.peer);
  if (!result) return;
  if (!outcome->names.empty())
    throw io_error(fmt::format("TLS handshake with {} failed: the certificate does not name '{}': it holds {}", m.peer,
                               server_name, outcome->names));
  if (outcome->chain_error != X509_V_OK)
    throw io_error(fmt::format("TLS handshake with {} failed: certificate verify failed ({})", m.peer,
                               X509_verify_cert_error_string(outcome->chain_error)));
  throw io_error("TLS handshake with " + m.peer + " failed: " + result.message());
}

void tcp_client::shutdown_send() {
  boost::system::error_code ec;
  impl_->socket.shutdown(tcp::socket::shutdown_send, ec);
}
void tcp_client::close() {
  boost::system::error_code ec;
  impl_->socket.close(ec);
}
void tcp_client::set_timeout(std::chrono::milliseconds timeout) {
  impl_->timeout = timeout;
}
bool tcp_client::tls_active() const noexcept {
  return impl_->tls != nullptr;
}
tcp::endpoint tcp_client::local_endpoint() const {
  boost::system::error_code ec;
  return impl_->socket.local_endpoint(ec);
}
tcp::endpoint tcp_client::remote_endpoint() const {
  boost::system::error_code ec;
  return impl_->socket.remote_endpoint(ec);
}

std::optional<std::chrono::microseconds> tcp_client::kernel_rtt() const {
  tcp_info info{};
  socklen_t len = sizeof info;
  if (::getsockopt(impl_->socket.native_handle(), IPPROTO_TCP, TCP_INFO, &info, &len) != 0 || info.tcpi_rtt == 0)
    return std::nullopt;
  return std::chrono::microseconds(info.tcpi_rtt);
}

struct tcp_listener::impl {
  asio::io_context ctx{1};
  tcp::acceptor acceptor{ctx};
  std::chrono::milliseconds timeout;
};

tcp_listener::tcp_listener(const std::string& host, unsigned short port, std::chrono::milliseconds timeout)
    : impl_(std::make_unique<impl>()) {
  impl_->timeout = timeout;
  boost::system::error_code ec;
  const auto addr = asio::ip::make_address(host, ec);
  if (ec) throw io_error("cannot listen on '" + host + "': not an IP address");
  const tcp::endpoint ep(addr, port);
  impl_->acceptor.open(ep.protocol(), ec);
  if (!ec) impl_->acceptor.bind(ep, ec);
  if (!ec) impl_->acceptor.listen(1, ec);
  if (ec) throw io_error("cannot listen on " + to_string(ep) + ": " + ec.message());
}
tcp_listener::~tcp_listener() = default;

tcp::endpoint tcp_listener::local_endpoint() const {
  boost::system::error_code ec;
  return impl_->acceptor.local_endpoint(ec);
}

tcp_client tcp_listener::accept() {
  tcp_client client(impl_->timeout);
  bool done = false;
  boost::system::error_code result;
  impl_->acceptor.async_accept(client.impl_->socket, [&](auto ec) {
    result = ec;
    done = true;
  });
  impl_->ctx.restart();
  impl_->ctx.run_for(impl_->timeout);
  if (!done) {
    boost::system::error_code ec;
    impl_->acceptor.close(ec);
    impl_->ctx.restart();
    impl_->ctx.run();
    throw io_error("timed out after " + seconds_text(impl_->timeout) + " waiting for a connection on " +
                   to_string(local_endpoint()));
  }
  if (result) throw io_error("accepting a connection failed: " + result.message());
  client.impl_->peer = to_string(client.remote_endpoint());
  return client;
}

}  // namespace netlib::io
