#pragma once
// HTTP transactions in one recorded TCP conversation (no I/O): the capture driver feeds each
// direction's reassembled bytes with their capture timestamps; the analyzer runs the request and
// response parsers and pairs responses with requests in order (pipelining included). A direction
// that does not start like HTTP is ignored; when the capture's "client" side speaks first with a
// status line, the directions are swapped; a parse error or a gap stops that direction (counted).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "netlib/core/bytes.hpp"
#include "netlib/core/clock.hpp"
#include "netlib/http/request_parser.hpp"
#include "netlib/http/response_parser.hpp"

namespace netlib::http {

struct http_transaction {
  std::uint64_t connection = 0;  // index of the TCP conversation (tshark's tcp.stream)
  std::string method, target;
  int version_minor = 1;
  std::optional<int> status;  // final status; nullopt when no response was captured
  std::vector<int> interim;   // 1xx statuses before it
  std::uint64_t request_header_bytes = 0, request_body_bytes = 0;
  std::uint64_t response_header_bytes = 0, response_body_bytes = 0;  // body after chunked framing
  time_point request_ts{}, response_ts{}, response_end_ts{};
  bool response_complete = false;
  bool conditional = false;                            // If-None-Match or If-Modified-Since sent
  std::vector<std::string> cookies_sent, cookies_set;  // cookie names
  std::string transfer;                                // "content-length", "chunked", "until-close", "none"
};

struct analyzer_counters {
  std::uint64_t malformed_requests = 0, malformed_responses = 0;
  std::uint64_t responses_without_request = 0;
  std::uint64_t gaps = 0;
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
};

}  // namespace netlib::http
