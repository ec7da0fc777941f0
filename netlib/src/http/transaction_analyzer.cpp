// Theory of operation: each direction has a mode (unknown until its first bytes show whether it
// is HTTP, then http or ignored) and a parser. Client bytes run the request parser: each
// head_complete opens a transaction (and tells the response parser the method, so HEAD answers
// carry no body); body_data adds to its size. Server bytes run the response parser: a 1xx head is
// noted as interim; a final head belongs to transactions_[next_response_], whose body sizes and
// end time follow; message_complete moves next_response_ on. A parse error or a gap stops that
// direction for good (the byte stream can no longer be trusted to be in step).
// Where a response lies: server_received_ counts the server's stream, so the offset of the first
// unparsed byte is server_received_ minus what the buffer holds. A response begins where the
// parser, idle, next has bytes (again after an interim response) and ends at the offset reached
// at its message_complete. Each delivered segment's first offset and index wait in segment_starts_
// until no byte of it can belong to a response still to end (it lies before the last consumed
// byte); the segments carrying [begin, end) are the indexes from begin's segment to end-1's, the
// first noted when the response begins. The session is what the capture feed keeps at the close.
#include "netlib/http/transaction_analyzer.hpp"

#include <algorithm>

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

// RFC 9110 §9.1: a method token followed by SP, within the first 24 bytes (a longer method is not
// taken for HTTP), so the answer is the same however the bytes were cut into segments.
bool starts_like_request(std::string_view s, bool& decided) {
  s = s.substr(0, 24);
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

// No bytes tell nothing: they decide neither the directions nor a direction's mode.
void transaction_analyzer::client_bytes(byte_view bytes, time_point ts) {
  if (bytes.empty()) return;
  if (!swapped_) swapped_ = as_chars(bytes).substr(0, 5) == "HTTP/";
  *swapped_ ? on_server(bytes, ts) : on_client(bytes, ts);
}

void transaction_analyzer::server_bytes(byte_view bytes, time_point ts) {
  if (bytes.empty()) return;
  if (transactions_.empty()) server_spoke_first_ = true;
  if (!swapped_)
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
      t.version_major = h.version.major;
      t.version_minor = h.version.minor;
      t.request_header_bytes = s.consumed;
      t.request_ts = ts;
      t.conditional = h.fields.contains("If-None-Match") || h.fields.contains("If-Modified-Since");
      if (const auto v = h.fields.get("If-Modified-Since")) t.if_modified_since = std::string(*v);
      t.if_none_match = h.fields.combined("If-None-Match");
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
  segment_starts_.emplace_back(server_received_, server_segments_++);  // bytes is never empty here
  server_received_ += bytes.size();
  server_buf_.append(bytes);
  if (server_mode_ == mode::unknown) {
    const std::string_view s = as_chars(server_buf_.data());
    if (s.size() < 5 && std::string_view("HTTP/").substr(0, s.size()) == s) return;
    server_mode_ = s.substr(0, 5) == "HTTP/" ? mode::http : mode::ignored;
    if (server_mode_ == mode::ignored) {
      segment_starts_.clear();
      return server_buf_.clear();
    }
  }
  drain_responses(ts);
  // Forget the segments that end before the last consumed byte: no response still to end has
  // a byte in them.
  const std::uint64_t consumed = server_consumed();
  while (segment_starts_.size() >= 2 && segment_starts_[1].first < consumed) segment_starts_.pop_front();
}

std::uint64_t transaction_analyzer::segment_at(std::uint64_t offset) const {
  // The last segment starting at or before offset (segment_starts_ is in stream order).
  const auto after = std::upper_bound(segment_starts_.begin(), segment_starts_.end(), offset,
                                      [](std::uint64_t o, const auto& seg) { return o < seg.first; });
  return after == segment_starts_.begin() ? 0 : std::prev(after)->second;
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
    response_begin_.reset();  // the final response begins after it
    return;
  }
  t.status = h.status;
  t.response_version = h.version;
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
  if (next_response_ < transactions_.size()) {
    http_transaction& t = transactions_[next_response_];
    t.response_end = server_consumed();
    t.response_begin = response_begin_ ? response_begin_->first : t.response_end;
    t.response_segments = t.response_end > t.response_begin && response_begin_
                              ? segment_at(t.response_end - 1) - response_begin_->second + 1
                              : 0;
    ++next_response_;
  } else {
    orphan_.reset();
  }
  response_begin_.reset();
}

void transaction_analyzer::drain_responses(time_point ts) {
  for (int guard = 0; guard < 1'000'000; ++guard) {
    if (responses_.idle() && !response_begin_ && !server_buf_.empty())
      response_begin_.emplace(server_consumed(), segment_at(server_consumed()));
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
  segment_starts_.clear();
}

void transaction_analyzer::gap(bool from_client, std::size_t) {
  from_client ? client_gap() : server_gap();
}

void transaction_analyzer::end_of_stream(bool from_client, time_point ts) {
  from_client ? client_end_of_stream(ts) : server_end_of_stream(ts);
}

http_session transaction_analyzer::session() const {
  return {transactions_, counters_, is_http(), server_spoke_first_};
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
