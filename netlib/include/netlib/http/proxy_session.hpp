#pragma once
// One client connection of a forward caching proxy (no I/O): it parses the client's requests
// (through a server_session), decides from the shared store and the time whether to answer
// locally, from the store, or from the origin, parses the origin's response, and says what to
// send to the client, piece by piece. docs/architecture.md, "Proxy core".
//
// Driver loop (every call returns at once; the driver does the waiting):
//   step = session.next(client_buffer.data(), now); client_buffer.consume(step.consumed);
//   read_client       -> read more from the client (end of stream: client_gone(), then next());
//                        with a deadline while part of a request head is buffered: close the
//                        client connection when it passes (slowloris)
//   send_client       -> write `bytes`, then `body` (a stored body, kept alive by `stored`)
//   connect_origin    -> open a connection to host:port and write `request`, all before
//                        `deadline`; a failure: origin_error(); the deadline: origin_deadline()
//   read_origin       -> read from the origin until `deadline`; bytes: origin_data() (it takes
//                        them all), end of stream: origin_eof(), failure: origin_error(),
//                        the deadline: origin_deadline()
//   close_origin      -> close the origin connection (the exchange is over, or abandoned)
//   close_client      -> close the client connection; the session is over
// While an origin exchange runs, the driver keeps watching the client: if it leaves, call
// client_gone(), which abandons the exchange (next() then says close_origin, close_client).
//
// The store (proxy_shared) is shared by every connection and is not locked here: a driver that
// runs sessions on several threads holds one mutex around every call into any proxy_session.
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "netlib/core/bytes.hpp"
#include "netlib/core/clock.hpp"
#include "netlib/http/message.hpp"
#include "netlib/http/response_cache.hpp"
#include "netlib/http/response_parser.hpp"
#include "netlib/http/server_session.hpp"
#include "netlib/http/url.hpp"

namespace netlib::http {

struct proxy_counters {
  std::uint64_t hits = 0;         // answered from the store
  std::uint64_t misses = 0;       // answered from the origin (stored or not)
  std::uint64_t revalidated = 0;  // the origin's 304 freshened the stored response
  std::uint64_t errors = 0;       // 502 and 504, and exchanges that broke mid-body
};

// What the sessions of one proxy share.
struct proxy_shared {
  proxy_shared(std::size_t cache_bytes, std::size_t max_object_bytes) : cache(cache_bytes, max_object_bytes) {}
  response_cache cache;
  proxy_counters counters;
};

struct port_range {
  std::uint16_t first = 0, last = 0;
};

struct proxy_options {
  std::string name = "netlab-proxy";  // in Via (RFC 9110 §7.6.3) and as Server of local replies
  // The total deadline of an origin exchange up to the end of the response head (connect, send,
  // wait, head): 504 when it passes. While the body streams, the longest the origin may stay
  // silent (a 504 can no longer be sent then: the exchange is abandoned).
  duration origin_timeout = std::chrono::seconds(10);
  // The longest a client may take to send a whole request head, however slowly it trickles.
  duration head_timeout = std::chrono::seconds(10);
  // The origin ports the proxy connects to (like Squid's Safe_ports); others get 403.
  std::vector<port_range> allowed_ports{{80, 80}, {1025, 65535}};
  parser_limits client_limits;  // the client's requests (server_session)
  // The origin's response heads; its bodies stream, whatever their length (max_body is not
  // applied: the session lifts it, a streamed body has no limit but the client's).
  parser_limits origin_limits;
  // The client's address, for the Forwarded element added to every forwarded request (RFC 7239):
  // the driver sets it per connection; empty: none added.
  std::string client;
};

// The origin ports list of `--allow-ports`: "80,1025-65535". nullopt when malformed.
std::optional<std::vector<port_range>> parse_port_ranges(std::string_view text);

// Actions (see the driver loop above).
struct proxy_read_client {
  std::optional<time_point> deadline;  // set while a request head is incomplete
};
struct proxy_send_client {
  std::string bytes;
  std::shared_ptr<const cached_response> stored;  // keeps `body` alive
  std::string_view body;
};
struct proxy_connect_origin {
  std::string host;
  std::uint16_t port = 0;
  std::string request;
  time_point deadline;
};
struct proxy_read_origin {
  time_point deadline;
};
struct proxy_close_origin {};
struct proxy_close_client {};
using proxy_action = std::variant<proxy_read_client, proxy_send_client, proxy_connect_origin, proxy_read_origin,
                                  proxy_close_origin, proxy_close_client>;

struct proxy_step {
  proxy_action action;
  std::size_t consumed = 0;  // client bytes taken from the input given to next()
};

class proxy_session {
 public:
  proxy_session(proxy_shared& shared, proxy_options options);
  ~proxy_session();  // gives back room reserved in the store for a response not completed
  proxy_session(const proxy_session&) = delete;
  proxy_session& operator=(const proxy_session&) = delete;

  proxy_step next(byte_view client_input, const clock_reading& now);
  // Origin input, in answer to connect_origin / read_origin.
  void origin_data(byte_view bytes, const clock_reading& now);
  void origin_eof(const clock_reading& now);
  void origin_error(std::string_view what, const clock_reading& now);
  void origin_deadline(const clock_reading& now);
  // The client closed its connection (or a write to it failed).
  void client_gone();

  // True while an origin exchange is open (connect_origin given, close_origin not yet).
  [[nodiscard]] bool origin_open() const noexcept {
    return phase_ == phase::awaiting_head || phase_ == phase::streaming;
  }

 private:
  enum class phase { idle, awaiting_head, streaming, closing, closed };
  struct exchange {
    request_head request;  // the client's
    url origin;
    std::string key;  // the store's key: the absolute URL
    bool head_only = false;
    std::shared_ptr<const cached_response> stored;  // a stale entry being revalidated, or null
    bool conditional = false;                       // we added validators to the forwarded request
    time_point deadline;
    std::chrono::sys_seconds request_time{};
    bool head_sent = false;       // the response head is in the outbox (or gone to the client)
    bool head_delivered = false;  // the driver took it: too late for a status of our own
    bool revalidated = false;     // the origin answered 304: the stored response was served
    bool chunked_out = false;     // the body goes to the client in chunks
    bool keep_client = true;
    // Gathering the body for the store (only under the per-object cap, in reserved room).
    bool gathering = false;
    std::size_t reserved = 0;   // room reserved in the store
    std::size_t base_cost = 0;  // the entry's cost without its body
    cached_response gathered;
  };

  void on_request(request_head request, const clock_reading& now);
  void answer_local(const request_head& request, int status, std::string_view text, const clock_reading& now,
                    std::string_view content_type = "text/plain; charset=utf-8");
  bool serve_stored(const request_head& request, response_head head, std::shared_ptr<const cached_response> stored,
                    std::string_view x_cache, const clock_reading& now);
  bool finish_head(response_head& head, const request_head& request, std::string_view x_cache,
                   const clock_reading& now);
  void on_origin_head(const clock_reading& now);
  void on_origin_body(byte_view piece);
  void send_body_bytes(std::string_view bytes);
  void on_origin_complete(const clock_reading& now);
  void fail_origin(int status, std::string_view text, const clock_reading& now);
  void stop_gathering();
  std::string stats_json() const;

  proxy_shared& shared_;
  proxy_options options_;
  server_session server_;
  server_step step_;  // the server session's step, its memory reused
  response_parser parser_;
  input_buffer origin_buffer_;              // an incomplete response head
  std::optional<time_point> head_started_;  // when the first byte of the current request head came
  phase phase_ = phase::idle;
  std::optional<exchange> ex_;
  std::deque<proxy_action> out_;
};

}  // namespace netlib::http
