// Theory of operation. The capture feed (netlib::capture::replay_sessions) runs the project's
// HTTP analyzer, netlib::http::transaction_analyzer (the one lab-http analyze runs), on every TCP
// conversation: requests read from the client's bytes, each telling the response parser its
// method (RFC 9112 §6.3: a HEAD response has no body), responses paired with requests in order
// (pipelining, RFC 9112 §9.3.2), a gap stopping the parsing of its direction. Each transaction
// carries what the questions ask: the request's version and validators, the final status line's
// version, the body size and the number of TCP segments whose bytes overlap the response's range
// in the server's stream (Wireshark's reassembled segments). A conversation whose server sent a
// byte before the first request was read (a server speaking first: FTP, SMTP, POP3...; a capture
// starting mid-response) is not counted as HTTP.
// Memory: the feed makes a conversation's analyzer on its first byte (or gap) and frees it when
// the conversation is released; at the close this file keeps, of the conversations and
// exchanges, only counts and the first `keep` (the questions ask about the first max_per_kind),
// in bounded heaps.
#include "questions_http.hpp"

#include <algorithm>
#include <tuple>
#include <utility>

#include "netlib/capture/session_feed.hpp"
#include "netlib/http/transaction_analyzer.hpp"

namespace netlab::grade {

namespace {

namespace http = netlib::http;
using netlib::packet::tcp_conversation;

std::string version_text(int major, int minor) {
  return std::to_string(major) + "." + std::to_string(minor);
}

http_exchange_facts facts_of(http::http_transaction&& t) {
  http_exchange_facts e;
  e.connection = t.connection;
  e.request_ts = t.request_ts;
  e.method = std::move(t.method);
  e.target = std::move(t.target);
  e.request_version = version_text(t.version_major, t.version_minor);
  e.if_modified_since = std::move(t.if_modified_since);  // RFC 9110 §13.1.3
  e.if_none_match = std::move(t.if_none_match);          // RFC 9110 §13.1.2
  e.status = t.status;
  if (t.status) e.response_version = version_text(t.response_version.major, t.response_version.minor);
  e.body_bytes = t.response_body_bytes;
  e.complete = t.response_complete;
  if (t.response_complete) e.segments = t.response_segments;
  return e;
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

// What the sink keeps of the closed conversations.
struct collector {
  std::uint64_t conversations = 0, exchanges = 0;
  first_n<tcp_conversation, by_id> first_conversations;
  first_n<std::pair<http_exchange_facts, std::size_t>, request_order> first_exchanges;
  std::optional<std::pair<http_exchange_facts, std::size_t>> first_answered;

  explicit collector(std::size_t keep) : first_conversations(keep, by_id{}), first_exchanges(keep, request_order{}) {}

  void add(netlib::capture::captured_session<http::transaction_analyzer>&& found) {
    ++conversations;
    first_conversations.add(found.conversation);
    if (found.session.server_spoke_first) return;
    auto& transactions = found.session.transactions;
    for (std::size_t i = 0; i < transactions.size(); ++i) {
      ++exchanges;
      std::pair<http_exchange_facts, std::size_t> e{facts_of(std::move(transactions[i])), i};
      if (e.first.status && (!first_answered || request_order{}(e, *first_answered))) first_answered = e;
      first_exchanges.add(std::move(e));
    }
  }
};

}  // namespace

tcp_capture_facts collect_tcp_facts(const std::string& capture, std::size_t keep) {
  collector c(keep);
  tcp_capture_facts f;
  f.stats = netlib::capture::replay_sessions<http::transaction_analyzer>(
      capture,
      [&c](netlib::capture::captured_session<http::transaction_analyzer>&& found) { c.add(std::move(found)); });
  f.conversation_count = c.conversations;
  f.conversations = c.first_conversations.take_sorted();
  f.http_count = c.exchanges;
  for (auto& [e, index] : c.first_exchanges.take_sorted()) f.http.push_back(std::move(e));
  if (c.first_answered) f.first_answered = std::move(c.first_answered->first);
  return f;
}

}  // namespace netlab::grade
