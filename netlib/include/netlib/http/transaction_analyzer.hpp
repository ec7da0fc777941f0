#pragma once
// HTTP transactions in one recorded TCP conversation (no I/O): the capture driver feeds each
// direction's reassembled bytes with their capture timestamps; the analyzer runs the request and
// response parsers and pairs responses with requests in order (pipelining included). A direction
// that does not start like HTTP is ignored; when the capture's "client" side speaks first with a
// status line, the directions are swapped; a parse error or a gap stops that direction (counted).
// Each transaction also keeps where its response lies in the server's byte stream and how many
// delivered segments carried it (the Wireshark labs' "how many TCP segments"), counted as the
// bytes arrive: only the segments still holding unparsed bytes are remembered.
//
// It runs on the capture feed (netlib/capture/session_feed.hpp): made with the conversation's id,
// fed client_bytes/server_bytes with timestamps, gap() and end_of_stream() per direction, and
// session() at the close gives its transactions, counters and what the grader's filter needs.
//
//   auto read = netlib::capture::sessions_of<netlib::http::transaction_analyzer>(path);
#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "netlib/core/bytes.hpp"
#include "netlib/core/clock.hpp"
#include "netlib/http/request_parser.hpp"
#include "netlib/http/response_parser.hpp"

namespace netlib::http {

struct http_transaction {
  std::uint64_t connection = 0;  // index of the TCP conversation (tshark's tcp.stream)
  std::string method, target;
  int version_major = 1, version_minor = 1;  // the request line's HTTP-version
  std::optional<int> status;                 // final status; nullopt when no response was captured
  std::vector<int> interim;                  // 1xx statuses before it
  std::uint64_t request_header_bytes = 0, request_body_bytes = 0;
  std::uint64_t response_header_bytes = 0, response_body_bytes = 0;  // body after chunked framing
  time_point request_ts{}, response_ts{}, response_end_ts{};
  bool response_complete = false;
  bool conditional = false;                      // If-None-Match or If-Modified-Since sent
  std::optional<std::string> if_modified_since;  // its value (RFC 9110 §13.1.3), when one was sent
  std::optional<std::string> if_none_match;      // all its field lines combined (RFC 9110 §13.1.2)
  version response_version;                      // of the final status line (with status)
  // The final response's bytes in the server's stream (offsets from its first byte: [begin, end),
  // the status line to the body's end, interim responses excluded) and how many delivered
  // segments carried any of them; set when the response is complete.
  std::uint64_t response_begin = 0, response_end = 0, response_segments = 0;
  std::vector<std::string> cookies_sent, cookies_set;  // cookie names
  std::string transfer;                                // "content-length", "chunked", "until-close", "none"
};

struct analyzer_counters {
  std::uint64_t malformed_requests = 0, malformed_responses = 0;
  std::uint64_t responses_without_request = 0;
  std::uint64_t gaps = 0;
};

// What one conversation's analyzer observed (transaction_analyzer::session(), at the close).
struct http_session {
  std::vector<http_transaction> transactions;
  analyzer_counters counters;
  bool is_http = false;
  // The capture's server side sent a byte before the first request was read (a server speaking
  // first, a capture starting mid-connection, or swapped directions): netlab-grade does not count
  // such a conversation as HTTP.
  bool server_spoke_first = false;
};

class transaction_analyzer {
 public:
  explicit transaction_analyzer(std::uint64_t connection);
  void client_bytes(byte_view bytes, time_point ts);
  void server_bytes(byte_view bytes, time_point ts);
  void client_gap();
  void server_gap();
  void server_end_of_stream(time_point ts);  // ends a close-delimited body
  void client_end_of_stream(time_point ts);  // (matters when the directions were swapped)
  // The capture feed's calls (session_feed): a direction's gap or end of stream, the capture's
  // client side when from_client.
  void gap(bool from_client, std::size_t size);
  void end_of_stream(bool from_client, time_point ts);
  [[nodiscard]] http_session session() const;
  [[nodiscard]] const std::vector<http_transaction>& transactions() const noexcept { return transactions_; }
  [[nodiscard]] const analyzer_counters& counters() const noexcept { return counters_; }
  [[nodiscard]] bool is_http() const noexcept { return client_mode_ == mode::http || server_mode_ == mode::http; }

 private:
  enum class mode { unknown, http, ignored };
  void on_client(byte_view bytes, time_point ts);
  void on_server(byte_view bytes, time_point ts);
  void on_server_eof(time_point ts);
  void on_client_gap();
  void on_server_gap();
  void drain_requests(time_point ts);
  void drain_responses(time_point ts);
  void on_response_head(std::size_t head_bytes, time_point ts);
  void on_response_end(time_point ts);
  http_transaction* current_response();
  [[nodiscard]] std::uint64_t server_consumed() const noexcept { return server_received_ - server_buf_.size(); }
  [[nodiscard]] std::uint64_t segment_at(std::uint64_t offset) const;

  std::uint64_t connection_;
  parser_limits limits_;
  request_parser requests_;
  response_parser responses_;
  input_buffer client_buf_, server_buf_;
  mode client_mode_ = mode::unknown, server_mode_ = mode::unknown;
  std::vector<http_transaction> transactions_;
  std::size_t next_response_ = 0;           // transaction the next response belongs to
  std::optional<http_transaction> orphan_;  // a response captured without its request
  analyzer_counters counters_;
  // A capture that starts mid-connection may take the server for the client (the first packet
  // seen came from it): decided on the first bytes, then both directions trade places.
  std::optional<bool> swapped_;
  bool server_spoke_first_ = false;
  // The server's stream (the server's after any swap): bytes received, the number of segments
  // delivered, and the first byte and index of each segment that may hold a byte of the response
  // being parsed (from the one holding the last consumed byte on).
  std::uint64_t server_received_ = 0, server_segments_ = 0;
  std::deque<std::pair<std::uint64_t, std::uint64_t>> segment_starts_;
  // The response being parsed: its first byte's offset and that byte's segment.
  std::optional<std::pair<std::uint64_t, std::uint64_t>> response_begin_;
};

}  // namespace netlib::http
