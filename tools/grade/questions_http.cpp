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
// Memory: a conversation's parsers are made on its first byte (or gap) and freed when it is
// released; of the released conversations and exchanges only counts and the first `keep` (the
// questions ask about the first max_per_kind) are kept, in bounded heaps.
#include "questions_http.hpp"

#include <algorithm>
#include <memory>
#include <tuple>
#include <unordered_map>
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
  std::uint64_t server_received = 0;            // stream offset of the next server byte
  std::uint64_t server_consumed = 0;            // stream offset of server_in.data()
  std::vector<byte_range> segments;             // server bytes as delivered, in order
  std::optional<std::uint64_t> response_start;  // of the response being parsed
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
    if (std::holds_alternative<http::need_more>(s.event)) return f.client_in.consume(s.consumed);
    if (std::holds_alternative<http::parse_error>(s.event)) {
      f.client_stopped = true;
      f.not_http = f.not_http || f.exchanges.empty();
      f.client_in.clear();
      return;
    }
    // The head is views of client_in: read before the consumed bytes are dropped.
    if (std::holds_alternative<http::head_complete>(s.event)) on_request_head(f, connection, ts);
    f.client_in.consume(s.consumed);
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
  auto it =
      std::partition_point(segments.begin(), segments.end(), [&](const byte_range& s) { return s.end <= r.begin; });
  std::uint64_t n = 0;
  for (; it != segments.end() && it->begin < r.end; ++it) ++n;
  return n;
}

// The `keep` smallest items under `before`, from a stream of items in any order.
template <class T, class Before>
class first_n {
 public:
  first_n(std::size_t keep, Before before) : keep_(keep), before_(before) {}
  void add(T item) {
    if (keep_ == 0) return;
    if (heap_.size() < keep_) {
      heap_.push_back(std::move(item));
      std::push_heap(heap_.begin(), heap_.end(), before_);
    } else if (before_(item, heap_.front())) {  // the heap's front is the largest kept
      std::pop_heap(heap_.begin(), heap_.end(), before_);
      heap_.back() = std::move(item);
      std::push_heap(heap_.begin(), heap_.end(), before_);
    }
  }
  std::vector<T> take_sorted() {
    std::sort_heap(heap_.begin(), heap_.end(), before_);
    return std::move(heap_);
  }

 private:
  std::size_t keep_;
  Before before_;
  std::vector<T> heap_;
};

// The order lab-http analyze lists exchanges in: request time, then connection (then the order
// within a connection, for requests sent at the same instant).
struct request_order {
  bool operator()(const std::pair<http_exchange_facts, std::size_t>& a,
                  const std::pair<http_exchange_facts, std::size_t>& b) const {
    return std::tie(a.first.request_ts, a.first.connection, a.second) <
           std::tie(b.first.request_ts, b.first.connection, b.second);
  }
};
struct by_id {
  bool operator()(const tcp_conversation& a, const tcp_conversation& b) const { return a.id < b.id; }
};

struct collector final : netlib::packet::tcp_visitor {
  std::unordered_map<std::uint64_t, std::unique_ptr<http_flow>> flows;  // conversations with bytes
  std::uint64_t conversations = 0, exchanges = 0;
  first_n<tcp_conversation, by_id> first_conversations;
  first_n<std::pair<http_exchange_facts, std::size_t>, request_order> first_exchanges;
  std::optional<std::pair<http_exchange_facts, std::size_t>> first_answered;

  explicit collector(std::size_t keep) : first_conversations(keep, by_id{}), first_exchanges(keep, request_order{}) {}

  http_flow& flow_of(const tcp_conversation& c) {
    auto& f = flows[c.id];
    if (!f) f = std::make_unique<http_flow>();
    return *f;
  }

  void on_data(const tcp_conversation& c, tcp_direction d, netlib::byte_view b, netlib::time_point ts) override {
    http_flow& f = flow_of(c);
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
    http_flow& f = flow_of(c);
    if (d == tcp_direction::client_to_server) {
      f.client_stopped = true;
    } else {
      f.server_stopped = true;
      f.server_received += size;
    }
  }

  void on_end_of_stream(const tcp_conversation& c, tcp_direction d, netlib::time_point) override {
    const auto it = flows.find(c.id);
    if (it == flows.end()) return;  // no byte: nothing to end
    http_flow& f = *it->second;
    if (d != tcp_direction::server_to_client || f.not_http || f.server_stopped) return;
    const http::parse_step s = f.responses.receive_eof();  // ends a close-delimited body (RFC 9112 §6.3 rule 8)
    if (std::holds_alternative<http::message_complete>(s.event)) on_response_event(f, s.event);
  }

  void on_close(const tcp_conversation& c) override {
    ++conversations;
    first_conversations.add(c);
    const auto it = flows.find(c.id);
    if (it == flows.end()) return;
    http_flow& f = *it->second;
    if (!f.not_http) {
      for (std::size_t i = 0; i < f.exchanges.size(); ++i) {
        if (f.ranges[i]) f.exchanges[i].segments = count_segments(f.segments, *f.ranges[i]);
        ++exchanges;
        std::pair<http_exchange_facts, std::size_t> e{std::move(f.exchanges[i]), i};
        if (e.first.status && (!first_answered || request_order{}(e, *first_answered))) first_answered = e;
        first_exchanges.add(std::move(e));
      }
    }
    flows.erase(it);
  }
};

}  // namespace

tcp_capture_facts collect_tcp_facts(const std::string& capture, std::size_t keep) {
  collector c(keep);
  tcp_capture_facts f;
  f.stats = netlib::capture::replay_tcp(capture, c);
  f.conversation_count = c.conversations;
  f.conversations = c.first_conversations.take_sorted();
  f.http_count = c.exchanges;
  for (auto& [e, index] : c.first_exchanges.take_sorted()) f.http.push_back(std::move(e));
  if (c.first_answered) f.first_answered = std::move(c.first_answered->first);
  return f;
}

}  // namespace netlab::grade
