// Theory of operation. The capture driver (netlib::capture::replay_tcp) reassembles every TCP
// conversation and hands its in-order bytes to this visitor, one call per delivered segment.
// Each conversation runs the project's HTTP parsers (netlib::http::request_parser and
// response_parser, as transaction_analyzer does): requests are read from the client's bytes, each
// request tells the response parser its method (RFC 9112 §6.3: a HEAD response has no body), and
// responses are paired with requests in order (pipelining, RFC 9112 §9.3.2). A conversation whose
// first client bytes are not a request, or whose server speaks first, is not HTTP. The response
// parser's consumed counts give each response's byte range in the server's stream; the segments
// whose bytes overlap that range are the ones "carrying" it (Wireshark's reassembled segments).
// A gap in a direction stops the parsing of that direction (what follows cannot be framed).
#include "questions_http.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <utility>
#include <variant>

#include "netlib/capture/tcp_replay.hpp"
#include "netlib/http/request_parser.hpp"
#include "netlib/http/response_parser.hpp"

namespace netlab::grade {

namespace {

namespace http = netlib::http;
using netlib::packet::tcp_conversation;
using netlib::packet::tcp_direction;

constexpr int max_events_per_call = 1'000'000;

struct byte_range {
  std::uint64_t begin = 0, end = 0;
};

struct http_flow {
  http::request_parser requests;
  http::response_parser responses;
  netlib::input_buffer client_in, server_in;
  bool client_stopped = false, server_stopped = false, not_http = false;
  std::uint64_t server_received = 0;             // stream offset of the next server byte
  std::uint64_t server_consumed = 0;             // stream offset of server_in.data()
  std::vector<byte_range> segments;              // server bytes as delivered, in order
  std::optional<std::uint64_t> response_start;   // of the response being parsed
  std::vector<http_exchange_facts> exchanges;
  std::vector<std::optional<byte_range>> ranges;  // per exchange, once its response is complete
  std::size_t next_response = 0;
};

void on_request_head(http_flow& f, std::uint64_t connection, netlib::time_point ts) {
  const auto& h = f.requests.head();
  http_exchange_facts e;
  e.connection = connection;
  e.request_ts = ts;
  e.method = h.method;
  e.target = h.target;
  e.request_version = std::to_string(h.version.major) + "." + std::to_string(h.version.minor);
  if (const auto v = h.fields.get("If-Modified-Since")) e.if_modified_since = std::string(*v);  // RFC 9110 §13.1.3
  if (const auto v = h.fields.combined("If-None-Match")) e.if_none_match = *v;                  // RFC 9110 §13.1.2
  f.exchanges.push_back(std::move(e));
  f.ranges.emplace_back();
  f.responses.expect(h.method);  // RFC 9112 §6.3 rule 1: HEAD responses carry no body
}

void drain_client(http_flow& f, std::uint64_t connection, netlib::time_point ts) {
  for (int guard = 0; guard < max_events_per_call && !f.client_stopped; ++guard) {
    const http::parse_step s = f.requests.next(f.client_in.data());
    f.client_in.consume(s.consumed);
    if (std::holds_alternative<http::need_more>(s.event)) return;
    if (std::holds_alternative<http::parse_error>(s.event)) {
      f.client_stopped = true;
      f.not_http = f.not_http || f.exchanges.empty();
      f.client_in.clear();
      return;
    }
    if (std::holds_alternative<http::head_complete>(s.event)) on_request_head(f, connection, ts);
  }
}

void on_response_event(http_flow& f, const http::parse_event& event) {
  http_exchange_facts* e = f.next_response < f.exchanges.size() ? &f.exchanges[f.next_response] : nullptr;
  if (std::holds_alternative<http::head_complete>(event)) {
    const auto& h = f.responses.head();
    if (h.status >= 100 && h.status < 200) {  // RFC 9110 §15.2: interim; the final response follows
      f.response_start.reset();
      return;
    }
    if (e) {
      e->status = h.status;
      e->response_version = std::to_string(h.version.major) + "." + std::to_string(h.version.minor);
    }
  } else if (const auto* d = std::get_if<http::body_data>(&event)) {
    if (e) e->body_bytes += d->bytes.size();
  } else if (std::holds_alternative<http::message_complete>(event)) {
    if (e) {
      e->complete = true;
      f.ranges[f.next_response] = byte_range{f.response_start.value_or(f.server_consumed), f.server_consumed};
      ++f.next_response;
    }
    f.response_start.reset();
  }
}

void drain_server(http_flow& f) {
  for (int guard = 0; guard < max_events_per_call && !f.server_stopped; ++guard) {
    if (f.responses.idle() && !f.response_start && !f.server_in.empty()) f.response_start = f.server_consumed;
    const http::parse_step s = f.responses.next(f.server_in.data());
    f.server_in.consume(s.consumed);
    f.server_consumed += s.consumed;
    if (std::holds_alternative<http::need_more>(s.event)) return;
    if (std::holds_alternative<http::parse_error>(s.event)) {
      f.server_stopped = true;
      f.server_in.clear();
      return;
    }
    on_response_event(f, s.event);
  }
}

std::uint64_t count_segments(const std::vector<byte_range>& segments, byte_range r) {
  // Segments are in stream order: the first that ends after r.begin, up to the first at r.end.
  auto it = std::partition_point(segments.begin(), segments.end(), [&](const byte_range& s) { return s.end <= r.begin; });
  std::uint64_t n = 0;
  for (; it != segments.end() && it->begin < r.end; ++it) ++n;
  return n;
}

struct collector final : netlib::packet::tcp_visitor {
  std::map<std::uint64_t, std::unique_ptr<http_flow>> flows;
  tcp_capture_facts facts;

  void on_open(const tcp_conversation& c) override { flows[c.id] = std::make_unique<http_flow>(); }

  void on_data(const tcp_conversation& c, tcp_direction d, netlib::byte_view b, netlib::time_point ts) override {
    http_flow& f = *flows[c.id];
    if (f.not_http) return;
    if (d == tcp_direction::client_to_server) {
      f.client_in.append(b);
      drain_client(f, c.id, ts);
      return;
    }
    if (f.exchanges.empty()) {  // the server spoke first: FTP, SMTP, POP3... not HTTP
      f.not_http = true;
      return;
    }
    f.segments.push_back({f.server_received, f.server_received + b.size()});
    f.server_received += b.size();
    f.server_in.append(b);
    drain_server(f);
  }

  void on_gap(const tcp_conversation& c, tcp_direction d, std::uint64_t size, netlib::time_point) override {
    http_flow& f = *flows[c.id];
    if (d == tcp_direction::client_to_server) {
      f.client_stopped = true;
    } else {
      f.server_stopped = true;
      f.server_received += size;
    }
  }

  void on_end_of_stream(const tcp_conversation& c, tcp_direction d, netlib::time_point) override {
    http_flow& f = *flows[c.id];
    if (d != tcp_direction::server_to_client || f.not_http || f.server_stopped) return;
    const http::parse_step s = f.responses.receive_eof();  // ends a close-delimited body (RFC 9112 §6.3 rule 8)
    if (std::holds_alternative<http::message_complete>(s.event)) on_response_event(f, s.event);
  }

  void on_close(const tcp_conversation& c) override {
    facts.conversations.push_back(c);
    const auto it = flows.find(c.id);
    if (it == flows.end()) return;
    http_flow& f = *it->second;
    if (!f.not_http) {
      for (std::size_t i = 0; i < f.exchanges.size(); ++i) {
        if (f.ranges[i]) f.exchanges[i].segments = count_segments(f.segments, *f.ranges[i]);
        facts.http.push_back(std::move(f.exchanges[i]));
      }
    }
    flows.erase(it);
  }
};

}  // namespace

tcp_capture_facts collect_tcp_facts(const std::string& capture) {
  collector c;
  netlib::capture::replay_tcp(capture, c);
  auto& f = c.facts;
  std::sort(f.conversations.begin(), f.conversations.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
  // The order the requests were sent, as lab-http analyze lists them.
  std::stable_sort(f.http.begin(), f.http.end(), [](const auto& a, const auto& b) {
    return a.request_ts != b.request_ts ? a.request_ts < b.request_ts : a.connection < b.connection;
  });
  return std::move(c.facts);
}

}  // namespace netlab::grade
