// Theory of operation: receive() feeds the buffered bytes to the response parser until it reports
// message_complete; need_more reads from the socket; end of stream goes to receive_eof() (which
// completes a close-delimited body or reports a truncated message). 1xx heads are skipped.
// Bytes of the next pipelined response stay in the buffer.
#include "origin_connection.hpp"

#include <array>

#include "netlib/app/program.hpp"
#include "netlib/http/serializer.hpp"
#include "netlib/http/status.hpp"
#include "netlib/io/tls.hpp"

namespace lab_http {

namespace http = netlib::http;

origin_connection::origin_connection(const http::url& origin, std::chrono::milliseconds timeout, bool verify_tls,
                                     const std::string& ca_file)
    : origin_(origin), verify_tls_(verify_tls), ca_file_(ca_file), client_(timeout) {}

connect_timing origin_connection::connect() {
  const auto t0 = std::chrono::steady_clock::now();
  try {
    client_.connect(origin_.host, origin_.port);
  } catch (const netlib::io::io_error& e) {
    throw netlib::app::failure(e.what());
  }
  connect_timing timing;
  timing.connect_call_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (const auto rtt = client_.kernel_rtt()) timing.handshake_rtt_s = std::chrono::duration<double>(*rtt).count();
  if (origin_.secure()) client_.start_tls(netlib::io::make_client_tls(verify_tls_, ca_file_), origin_.host);
  open_ = true;
  return timing;
}

void origin_connection::send(const http::request_head& request) {
  client_.write(http::serialize(request));
  parser_.expect(request.method);
}

void origin_connection::send_all(const std::vector<http::request_head>& requests) {
  std::string bytes;
  for (const auto& r : requests) bytes += http::serialize(r);
  client_.write(bytes);
  for (const auto& r : requests) parser_.expect(r.method);
}

received_response origin_connection::receive() {
  received_response out;
  std::array<std::byte, 65536> chunk;
  for (int rounds = 0; rounds < 10'000'000; ++rounds) {
    http::parse_step step = buffer_.empty() && peer_closed_ ? parser_.receive_eof() : parser_.next(buffer_.data());
    buffer_.consume(step.consumed);
    if (auto* e = std::get_if<http::parse_error>(&step.event))
      throw netlib::app::failure("bad response from " + origin_.authority() + ": " +
                                 http::make_error_code(e->code).message());
    if (std::holds_alternative<http::head_complete>(step.event)) {
      if (http::is_interim(parser_.head().status)) continue;
    } else if (auto* d = std::get_if<http::body_data>(&step.event)) {
      if (out.body.size() + d->bytes.size() > (std::size_t{256} << 20))
        throw netlib::app::failure("response body over 256 MiB");
      out.body.append(netlib::as_chars(d->bytes));
    } else if (std::holds_alternative<http::message_complete>(step.event)) {
      out.head = parser_.head();
      out.connection_closes =
          !http::wants_keep_alive(out.head) || parser_.framing().how == http::body_framing::kind::until_close;
      if (out.connection_closes) close();
      return out;
    } else if (peer_closed_) {
      throw netlib::app::failure("connection to " + origin_.authority() + " closed before a response");
    } else {
      const std::size_t n = client_.read_some(chunk);
      if (n == 0) peer_closed_ = true;
      buffer_.append(netlib::byte_view(chunk.data(), n));
    }
  }
  throw netlib::app::failure("response from " + origin_.authority() + " never ended");
}

void origin_connection::close() {
  if (open_) client_.close();
  open_ = false;
}

}  // namespace lab_http
