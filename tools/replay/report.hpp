#pragma once
// netlab-replay's report: a readable diff per conversation and a summary, or one JSON document.
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "http_replay.hpp"

namespace netlab::replay {

struct replay_report {
  std::string capture;
  std::string target;
  std::vector<conversation_result> conversations;
  std::size_t replayed = 0;
  std::size_t matched = 0;
  std::size_t skipped = 0;
  std::size_t encrypted_rest = 0;   // replayed conversations whose TLS rest (after STARTTLS, STLS) was not
  bool truncated = false;           // the capture's last record was cut short
  std::uint64_t missing_bytes = 0;  // recorded payload the capture never saw (gaps)
  // True when at least one conversation was replayed and every replayed one matched, and none was
  // skipped.
  [[nodiscard]] bool all_matched() const { return replayed > 0 && matched == replayed && skipped == 0; }
};

replay_report summarize(std::string capture, std::string target, std::vector<conversation_result> results);
std::string render_text(const replay_report& r);
nlohmann::json to_json(const replay_report& r);

}  // namespace netlab::replay
