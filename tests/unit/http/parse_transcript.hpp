#pragma once
// Feeds pieces to an HTTP parser exactly as a driver does (input_buffer, consume, repeat) and
// writes what came out as one transcript string, so a split-feed run compares with a whole feed.
#include <string>

#include "netlib/core/bytes.hpp"
#include "netlib/http/errc.hpp"
#include "netlib/http/request_parser.hpp"
#include "netlib/http/response_parser.hpp"
#include "support/split_feed.hpp"

namespace netlab::test {

inline std::string describe_fields(const auto& fields) {
  std::string s;
  for (const netlib::http::field_view f : fields.lines())
    s += " [" + std::string(f.name) + "=" + std::string(f.value) + "]";
  return s;
}
inline std::string describe(const netlib::http::request_view& h) {
  return "head " + std::string(h.method) + " " + std::string(h.target) + " " + std::to_string(h.version.major) + "." +
         std::to_string(h.version.minor) + describe_fields(h.fields);
}
inline std::string describe(const netlib::http::response_head& h) {
  return "head " + std::to_string(h.status) + " " + h.reason + describe_fields(h.fields);
}

// Runs parser `p` over the buffered input until need_more; appends to `out`. Returns false once an
// error was reported. Body bytes are merged into one "body:" entry per message.
template <class Parser>
bool drain(Parser& p, netlib::input_buffer& buf, std::string& out, std::string& body) {
  for (int guard = 0; guard < 100000; ++guard) {
    auto step = p.next(buf.data());
    // A request head is views of the buffer: what the step reports is read before it is consumed.
    struct consume_after {
      netlib::input_buffer& buf;
      std::size_t n;
      ~consume_after() { buf.consume(n); }
    } consumed{buf, step.consumed};
    if (std::holds_alternative<netlib::http::need_more>(step.event)) return true;
    if (std::holds_alternative<netlib::http::head_complete>(step.event)) out += describe(p.head()) + "\n";
    if (auto* d = std::get_if<netlib::http::body_data>(&step.event)) {
      if (d->bytes.empty()) {
        out += "EMPTY BODY EVENT\n";
        return false;
      }
      body += std::string(netlib::as_chars(d->bytes));
    }
    if (std::holds_alternative<netlib::http::message_complete>(step.event)) {
      out += "body:" + body + "\n";
      for (const netlib::http::field_view f : p.head().trailers.lines())
        out += "trailer [" + std::string(f.name) + "=" + std::string(f.value) + "]\n";
      out += "end\n";
      body.clear();
    }
    if (auto* e = std::get_if<netlib::http::parse_error>(&step.event)) {
      out += "error " + std::to_string(netlib::http::status_for(e->code)) + " " +
             netlib::http::make_error_code(e->code).message() + "\n";
      return false;
    }
  }
  out += "LOOP GUARD\n";
  return false;
}

inline std::string feed_requests(const pieces& in, netlib::http::parser_limits limits = {}) {
  netlib::http::request_parser p(limits);
  netlib::input_buffer buf;
  std::string out, body;
  for (auto piece : in) {
    buf.append(piece);
    if (!drain(p, buf, out, body)) break;
  }
  if (!buf.empty() && !p.error()) out += "left " + std::to_string(buf.size()) + "\n";
  return out;
}

// `methods` lists the request methods in order ("GET HEAD GET" as a string of words).
inline std::string feed_responses(const pieces& in, const std::vector<std::string>& methods, bool eof,
                                  netlib::http::parser_limits limits = {}) {
  netlib::http::response_parser p(limits);
  for (const auto& m : methods) p.expect(m);
  netlib::input_buffer buf;
  std::string out, body;
  bool ok = true;
  for (auto piece : in) {
    buf.append(piece);
    if (!(ok = drain(p, buf, out, body))) break;
  }
  if (ok && eof) {
    auto step = p.receive_eof();
    if (std::holds_alternative<netlib::http::message_complete>(step.event)) out += "body:" + body + "\nend(eof)\n";
    if (auto* e = std::get_if<netlib::http::parse_error>(&step.event))
      out += "eof error " + netlib::http::make_error_code(e->code).message() + "\n";
  }
  if (!buf.empty() && !p.error()) out += "left " + std::to_string(buf.size()) + "\n";
  return out;
}

}  // namespace netlab::test
