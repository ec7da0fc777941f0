// Theory of operation: each direction has a mode (unknown until its first bytes show whether it
// is HTTP, then http or ignored) and a parser. Client bytes run the request parser: each
// head_complete opens a transaction (and tells the response parser the method, so HEAD answers
// carry no body); body_data adds to its size. Server bytes run the response parser: a 1xx head is
// noted as interim; a final head belongs to transactions_[next_response_], whose body sizes and
// end time follow; message_complete moves next_response_ on. A parse error or a gap stops that
// direction for good (the byte stream can no longer be trusted to be in step).
#include "netlib/http/transaction_analyzer.hpp"

#include "netlib/http/cookie.hpp"
#include "netlib/http/head_syntax.hpp"
#include "netlib/http/status.hpp"

namespace netlib::http {
namespace {

parser_limits analysis_limits() {
  parser_limits l;
  l.max_request_line = 64 * 1024;
  l.max_head_bytes = 256 * 1024;
  l.max_fields = 1000;
  l.max_body = UINT64_C(1) << 50;  // bodies are counted, not kept
  l.max_trailer_bytes = 64 * 1024;
  return l;
}

// RFC 9110 §9.1: a method token followed by SP.
bool starts_like_request(std::string_view s, bool& decided) {
  const std::size_t sp = s.find(' ');
  if (sp == std::string_view::npos) {
    decided = s.size() >= 24 || !is_token(s);
    return false;
  }
  decided = true;
  return sp > 0 && is_token(s.substr(0, sp));
}

}  // namespace

transaction_analyzer::transaction_analyzer(std::uint64_t connection)
    : connection_(connection), limits_(analysis_limits()), requests_(limits_), responses_(limits_) {}

void transaction_analyzer::client_bytes(byte_view bytes, time_point ts) {
  if (!swapped_ && !bytes.empty()) swapped_ = as_chars(bytes).substr(0, 5) == "HTTP/";
  *swapped_ ? on_server(bytes, ts) : on_client(bytes, ts);
}

void transaction_analyzer::server_bytes(byte_view bytes, time_point ts) {
  if (!swapped_ && !bytes.empty())
    swapped_ = as_chars(bytes).substr(0, 5) != "HTTP/" && as_chars(bytes).find(" HTTP/1.") != std::string_view::npos;
  *swapped_ ? on_client(bytes, ts) : on_server(bytes, ts);
}

void transaction_analyzer::on_client(byte_view bytes, time_point ts) {
  if (client_mode_ == mode::ignored) return;
  client_buf_.append(bytes);
  if (client_mode_ == mode::unknown) {
    bool decided = false;
    const bool http = starts_like_request(as_chars(client_buf_.data()), decided);
    if (!decided) return;
    client_mode_ = http ? mode::http : mode::ignored;
    if (!http) return client_buf_.clear();
  }
  drain_requests(ts);
}

void transaction_analyzer::drain_requests(time_point ts) {
  for (int guard = 0; guard < 1'000'000; ++guard) {
    const parse_step s = requests_.next(client_buf_.data());
    if (std::holds_alternative<need_more>(s.event)) return client_buf_.consume(s.consumed);
    if (std::holds_alternative<parse_error>(s.event)) {
      ++counters_.malformed_requests;
      client_mode_ = mode::ignored;
      client_buf_.clear();
      return;
    }
    if (std::holds_alternative<head_complete>(s.event)) {
      const request_view& h = requests_.head();  // views of client_buf_: read before consuming
      http_transaction t;
      t.connection = connection_;
      t.method = h.method;
      t.target = h.target;
      t.version_minor = h.version.minor;
      t.request_header_bytes = s.consumed;
      t.request_ts = ts;
      t.conditional = h.fields.contains("If-None-Match") || h.fields.contains("If-Modified-Since");
      if (const auto c = h.fields.combined("Cookie"))
        for (auto& [name, value] : parse_cookie_header(*c)) t.cookies_sent.push_back(name);
      transactions_.push_back(std::move(t));
      responses_.expect(h.method);
    } else if (const auto* d = std::get_if<body_data>(&s.event)) {
      transactions_.back().request_body_bytes += d->bytes.size();
    }
    client_buf_.consume(s.consumed);
  }
}

void transaction_analyzer::on_server(byte_view bytes, time_point ts) {
  if (server_mode_ == mode::ignored) return;
  server_buf_.append(bytes);
  if (server_mode_ == mode::unknown) {
    const std::string_view s = as_chars(server_buf_.data());
    if (s.size() < 5 && std::string_view("HTTP/").substr(0, s.size()) == s) return;
    server_mode_ = s.substr(0, 5) == "HTTP/" ? mode::http : mode::ignored;
    if (server_mode_ == mode::ignored) return server_buf_.clear();
  }
  drain_responses(ts);
}

http_transaction* transaction_analyzer::current_response() {
  if (next_response_ < transactions_.size()) return &transactions_[next_response_];
  return orphan_ ? &*orphan_ : nullptr;
}

void transaction_analyzer::on_response_head(std::size_t head_bytes, time_point ts) {
  const response_head& h = responses_.head();
  if (next_response_ >= transactions_.size() && !orphan_) {
    ++counters_.responses_without_request;
    orphan_.emplace();
  }
  http_transaction* current = current_response();
  if (!current) return;  // not reached: an orphan was made above
  http_transaction& t = *current;
  t.response_header_bytes += head_bytes;
  if (is_interim(h.status) && h.status != 101) {
    t.interim.push_back(h.status);
    return;
  }
  t.status = h.status;
  t.response_ts = ts;
  for (const auto& f : h.fields.lines())
    if (iequals(f.name, "Set-Cookie"))
      t.cookies_set.emplace_back(trim_ows(std::string_view(f.value).substr(0, f.value.find('='))));
  switch (responses_.framing().how) {
    case body_framing::kind::none:
      t.transfer = "none";
      break;
    case body_framing::kind::length:
      t.transfer = "content-length";
      break;
    case body_framing::kind::chunked:
      t.transfer = "chunked";
      break;
    case body_framing::kind::until_close:
      t.transfer = "until-close";
      break;
  }
}

void transaction_analyzer::on_response_end(time_point ts) {
  if (http_transaction* t = current_response()) {
    t->response_end_ts = ts;
    t->response_complete = true;
  }
  if (next_response_ < transactions_.size())
    ++next_response_;
  else
    orphan_.reset();
}

void transaction_analyzer::drain_responses(time_point ts) {
  for (int guard = 0; guard < 1'000'000; ++guard) {
    const parse_step s = responses_.next(server_buf_.data());
    server_buf_.consume(s.consumed);
    if (std::holds_alternative<need_more>(s.event)) return;
    if (std::holds_alternative<parse_error>(s.event)) {
      ++counters_.malformed_responses;
      server_mode_ = mode::ignored;
      server_buf_.clear();
      return;
    }
    if (std::holds_alternative<head_complete>(s.event))
      on_response_head(s.consumed, ts);
    else if (const auto* d = std::get_if<body_data>(&s.event)) {
      if (http_transaction* t = current_response()) t->response_body_bytes += d->bytes.size();
    } else if (std::holds_alternative<message_complete>(s.event)) {
      on_response_end(ts);
    }
  }
}

void transaction_analyzer::client_gap() {
  if (swapped_.value_or(false)) return on_server_gap();
  on_client_gap();
}

void transaction_analyzer::server_gap() {
  if (swapped_.value_or(false)) return on_client_gap();
  on_server_gap();
}

void transaction_analyzer::on_client_gap() {
  ++counters_.gaps;
  client_mode_ = mode::ignored;
  client_buf_.clear();
}

void transaction_analyzer::on_server_gap() {
  ++counters_.gaps;
  server_mode_ = mode::ignored;
  server_buf_.clear();
}

void transaction_analyzer::server_end_of_stream(time_point ts) {
  if (!swapped_.value_or(false)) on_server_eof(ts);
}

void transaction_analyzer::client_end_of_stream(time_point ts) {
  if (swapped_.value_or(false)) on_server_eof(ts);
}

void transaction_analyzer::on_server_eof(time_point ts) {
  if (server_mode_ != mode::http) return;
  drain_responses(ts);
  const parse_step s = responses_.receive_eof();
  if (std::holds_alternative<message_complete>(s.event)) on_response_end(ts);
}

}  // namespace netlib::http
