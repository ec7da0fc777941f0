// HTTP replay. (1) Split the recorded client stream into requests with the request parser;
// (2) parse the recorded server stream with the response parser, telling it each request's method;
// (3) send each request on a new connection to the target, in order, and read its response;
// (4) compare status, then for 2xx the media type, Content-Range and the body (size and
// SHA-256), for 3xx the Location. Dates, ETags and server names differ between runs by design and
// are not compared; error bodies are free text and are not compared either.
#include "http_replay.hpp"

#include <fmt/format.h>

#include <thread>

#include "common/http_probe.hpp"
#include "netlib/core/sha256.hpp"
#include "netlib/http/request_parser.hpp"
#include "netlib/http/response_parser.hpp"
#include "netlib/http/status.hpp"

namespace netlab::replay {

namespace http = netlib::http;

bool conversation_result::matched() const {
  if (!skipped.empty() || !error.empty()) return false;
  for (const auto& e : exchanges) {
    if (!e.differences.empty()) return false;
  }
  return true;
}

std::string guess_protocol(const recorded_conversation& c) {
  if (c.server.starts_with("HTTP/")) return "http";
  if (c.server.starts_with("+OK") || c.server.starts_with("-ERR")) return "pop3";
  if (c.server.starts_with("220") || c.server.starts_with("421")) {
    const auto head = http::to_lower(std::string_view(c.client).substr(0, 5));
    return head == "ehlo " || head == "helo " ? "smtp" : "ftp";
  }
  return "unknown";
}

namespace http_replay_local {

struct request_span {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::string method;
  std::string target;
};

std::vector<request_span> split_requests(const std::string& client) {
  std::vector<request_span> out;
  http::request_parser parser;
  std::size_t offset = 0;
  request_span current;
  for (int round = 0; round < 1000000 && offset <= client.size(); ++round) {
    auto step = parser.next(netlib::as_bytes(std::string_view(client).substr(offset)));
    offset += step.consumed;
    if (std::holds_alternative<http::head_complete>(step.event)) {
      current.method = parser.head().method;
      current.target = parser.head().target;
    } else if (std::holds_alternative<http::message_complete>(step.event)) {
      current.end = offset;
      out.push_back(current);
      current = {offset, offset, {}, {}};
    } else if (!std::holds_alternative<http::body_data>(step.event)) {
      break;  // need_more at the end, or a request our parser refuses: stop there
    }
  }
  return out;
}

response_facts facts(const http::response_head& head, const std::string& body) {
  response_facts f;
  f.status = head.status;
  const auto type = head.fields.get("Content-Type").value_or("");
  f.content_type = http::to_lower(http::trim_ows(type.substr(0, type.find(';'))));
  f.content_range = std::string(head.fields.get("Content-Range").value_or(""));
  f.location = std::string(head.fields.get("Location").value_or(""));
  f.body_bytes = body.size();
  f.body_sha256 = netlib::sha256::hex(netlib::as_bytes(body));
  return f;
}

std::vector<response_facts> recorded_responses(const std::string& server, const std::vector<request_span>& requests) {
  http::response_parser parser;
  for (const auto& r : requests) parser.expect(r.method);
  std::vector<response_facts> out;
  std::string body;
  std::size_t offset = 0;
  bool eof_sent = false;
  for (int round = 0; round < 1000000 && out.size() < requests.size(); ++round) {
    auto step = parser.next(netlib::as_bytes(std::string_view(server).substr(offset)));
    offset += step.consumed;
    if (std::holds_alternative<http::need_more>(step.event)) {
      if (eof_sent) break;
      offset = server.size();  // anything unconsumed is a truncated last response
      step = parser.receive_eof();
      eof_sent = true;
    }
    if (const auto* b = std::get_if<http::body_data>(&step.event)) {
      body += netlib::as_chars(b->bytes);
    } else if (std::holds_alternative<http::message_complete>(step.event)) {
      if (!http::is_interim(parser.head().status)) out.push_back(facts(parser.head(), body));
      body.clear();
    } else if (std::holds_alternative<http::parse_error>(step.event)) {
      break;
    }
  }
  return out;
}

void compare(exchange_diff& e) {
  const auto& a = e.recorded;
  const auto& b = e.replayed;
  if (a.status != b.status) {
    e.differences.push_back(fmt::format("status: recorded {}, now {}", a.status, b.status));
    return;
  }
  if (a.status >= 200 && a.status < 300) {
    if (a.content_type != b.content_type) {
      e.differences.push_back(fmt::format("Content-Type: recorded '{}', now '{}'", a.content_type, b.content_type));
    }
    if (a.content_range != b.content_range) {
      e.differences.push_back(fmt::format("Content-Range: recorded '{}', now '{}'", a.content_range, b.content_range));
    }
    if (a.body_sha256 != b.body_sha256) {
      e.differences.push_back(fmt::format("body: recorded {} bytes sha256 {}, now {} bytes sha256 {}", a.body_bytes,
                                          a.body_sha256.substr(0, 16), b.body_bytes, b.body_sha256.substr(0, 16)));
    }
  }
  if (a.status >= 300 && a.status < 400 && a.location != b.location) {
    e.differences.push_back(fmt::format("Location: recorded '{}', now '{}'", a.location, b.location));
  }
}

}  // namespace http_replay_local

conversation_result replay_http(const recorded_conversation& c, const target_options& t) {
  using namespace http_replay_local;
  conversation_result result{c.id, c.client_endpoint, c.server_endpoint, "http", {}, {}, {}};
  const auto requests = split_requests(c.client);
  const auto recorded = recorded_responses(c.server, requests);
  if (requests.empty()) {
    result.skipped = "no complete HTTP request in the client stream";
    return result;
  }
  netlab::grade::http_probe probe(t.host, t.port, t.timeout);
  const auto started = std::chrono::steady_clock::now();
  const double first = c.time_at(requests.front().begin);
  for (std::size_t i = 0; i < requests.size(); ++i) {
    const auto& r = requests[i];
    if (t.pace) {
      const auto due = std::chrono::duration<double>(c.time_at(r.begin) - first);
      std::this_thread::sleep_until(started + std::chrono::duration_cast<std::chrono::nanoseconds>(due));
    }
    exchange_diff e{i + 1, r.method + " " + r.target, {}, {}, false, {}};
    if (i < recorded.size()) e.recorded = recorded[i];
    auto reply = probe.send(std::string_view(c.client).substr(r.begin, r.end - r.begin), {r.method})
                     ? probe.next_response()
                     : std::nullopt;
    if (!reply) {
      e.differences.push_back(fmt::format("no response now: {}", probe.error()));
      result.exchanges.push_back(std::move(e));
      break;
    }
    e.answered = true;
    e.replayed = facts(reply->head, reply->body);
    if (i >= recorded.size()) {
      e.differences.push_back("the recording has no response to this request");
    } else {
      compare(e);
    }
    result.exchanges.push_back(std::move(e));
  }
  return result;
}

}  // namespace netlab::replay
