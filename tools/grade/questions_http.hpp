#pragma once
// HTTP exchanges and TCP conversations of a capture, with what the Wireshark labs ask about: the
// request's version and validators (If-Modified-Since, If-None-Match), the status line's version,
// the body size and the TCP segments that carried each response, all read by
// netlib::http::transaction_analyzer (the analyzer lab-http analyze runs) on the capture feed.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "netlib/capture/tcp_replay.hpp"
#include "netlib/core/clock.hpp"
#include "netlib/packet/tcp_conversation.hpp"

namespace netlab::grade {

struct http_exchange_facts {
  std::uint64_t connection = 0;  // tshark's tcp.stream
  netlib::time_point request_ts{};
  std::string method, target;
  std::string request_version;  // "1.1"
  std::optional<std::string> if_modified_since, if_none_match;
  std::optional<int> status;     // final status; nullopt when no response was captured
  std::string response_version;  // "1.1"
  std::uint64_t body_bytes = 0;  // after chunked framing
  bool complete = false;         // the whole response was captured
  std::uint64_t segments = 0;    // TCP segments carrying the response's bytes
};

// What the questions ask about, summarised in one pass: counts of everything, but only the first
// `keep` conversations and exchanges in full, so memory does not grow with the capture.
struct tcp_capture_facts {
  std::uint64_t conversation_count = 0;
  std::vector<netlib::packet::tcp_conversation> conversations;  // the first `keep`, by id
  std::uint64_t http_count = 0;
  std::vector<http_exchange_facts> http;              // the first `keep`, in the order the requests were sent
  std::optional<http_exchange_facts> first_answered;  // the first exchange (that order) with a status
  netlib::capture::replay_stats stats;
};

// Throws netlib::capture::capture_error for an unreadable capture.
tcp_capture_facts collect_tcp_facts(const std::string& capture, std::size_t keep);

}  // namespace netlab::grade
