#pragma once
// Replaying one recorded HTTP conversation against a live server: the client's requests are
// re-sent one by one on one connection (keeping the recorded gaps with --pace), and each new
// response is compared with the recorded one at the protocol level.
#include <chrono>
#include <string>
#include <vector>

#include "recorded.hpp"

namespace netlab::replay {

struct response_facts {
  int status = 0;
  std::string status_text;   // when set, shown instead of status: "150 226" (FTP), "+OK" (POP3)
  std::string content_type;  // media type, lower case, without parameters
  std::string content_range;
  std::string location;
  std::string listing;  // POP3: the compared part of a STAT/LIST/UIDL reply ("messages 1 2 3")
  std::size_t body_bytes = 0;
  std::string body_sha256;
};

struct exchange_diff {
  std::size_t index = 0;  // 1-based request number in the conversation
  std::string request;    // "GET /numbers.txt"
  response_facts recorded;
  response_facts replayed;
  bool answered = false;                 // a complete response came back
  std::vector<std::string> differences;  // empty: matches
};

struct conversation_result {
  std::uint64_t id = 0;
  std::string client;
  std::string server;
  std::string protocol;  // "http", "smtp", "ftp", "pop3", or what it looks like when skipped
  std::string skipped;   // non-empty: why it was not replayed
  std::string error;     // a connection problem
  std::vector<exchange_diff> exchanges;
  // Set when the recording switched to TLS (SMTP STARTTLS answered 220, POP3 STLS answered +OK):
  // the exchanges stop there, and the encrypted rest (these many payload bytes each way) was not
  // replayed. The report says so beside "N of N match".
  std::string encrypted_after;  // "STARTTLS", "STLS"; empty: no switch to TLS
  std::uint64_t encrypted_client_bytes = 0;
  std::uint64_t encrypted_server_bytes = 0;
  [[nodiscard]] bool matched() const;
};

struct target_options {
  std::string host;
  unsigned short port = 0;
  std::chrono::milliseconds timeout{5000};
  bool pace = false;
};

// Guesses the protocol from the recorded bytes: "http", "smtp", "pop3", "ftp" or "unknown".
std::string guess_protocol(const recorded_conversation& c);
conversation_result replay_http(const recorded_conversation& c, const target_options& t);

}  // namespace netlab::replay
