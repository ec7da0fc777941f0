// Text and JSON renderings of a replay.
#include "report.hpp"

#include <fmt/format.h>

namespace netlab::replay {

replay_report summarize(std::string capture, std::string target, std::vector<conversation_result> results) {
  replay_report r{std::move(capture), std::move(target), std::move(results)};
  for (const auto& c : r.conversations) {
    if (!c.skipped.empty()) {
      ++r.skipped;
      continue;
    }
    ++r.replayed;
    if (c.matched()) ++r.matched;
    if (!c.encrypted_after.empty()) ++r.encrypted_rest;
  }
  return r;
}

namespace {

std::string shown(const response_facts& f) {
  return f.status_text.empty() ? std::to_string(f.status) : f.status_text;
}

}  // namespace

std::string render_text(const replay_report& r) {
  std::string out = fmt::format("replaying {} against {}\n", r.capture, r.target);
  for (const auto& c : r.conversations) {
    out += fmt::format("\nconversation {} {} -> {} ({}): ", c.id, c.client, c.server, c.protocol);
    if (!c.skipped.empty()) {
      out += "skipped: " + c.skipped + "\n";
      continue;
    }
    std::size_t same = 0;
    for (const auto& e : c.exchanges) same += e.differences.empty() ? 1 : 0;
    out += fmt::format("{} of {} exchanges match", same, c.exchanges.size());
    if (!c.encrypted_after.empty()) {
      out += fmt::format(
          "; the rest, encrypted after {} ({} bytes from the client, {} from the server), was not "
          "replayed",
          c.encrypted_after, c.encrypted_client_bytes, c.encrypted_server_bytes);
    }
    out += '\n';
    for (const auto& e : c.exchanges) {
      const auto now = e.answered ? shown(e.replayed) : std::string("-");
      out += fmt::format("  {} #{} {}: recorded {}, now {}\n", e.differences.empty() ? "same" : "DIFF", e.index,
                         e.request, shown(e.recorded), now);
      for (const auto& d : e.differences) out += "      " + d + "\n";
    }
  }
  out += fmt::format("\n{} conversations replayed, {} match, {} differ, {} skipped", r.replayed, r.matched,
                     r.replayed - r.matched, r.skipped);
  if (r.encrypted_rest > 0) {
    out += fmt::format("; {} replayed only up to the switch to TLS (the encrypted rest cannot be replayed)",
                       r.encrypted_rest);
  }
  out += '\n';
  return out;
}

namespace {

nlohmann::json facts_json(const response_facts& f) {
  return {{"status", f.status},
          {"status_text", f.status_text},
          {"content_type", f.content_type},
          {"content_range", f.content_range},
          {"location", f.location},
          {"listing", f.listing},
          {"body_bytes", f.body_bytes},
          {"body_sha256", f.body_sha256}};
}

}  // namespace

nlohmann::json to_json(const replay_report& r) {
  nlohmann::json conversations = nlohmann::json::array();
  for (const auto& c : r.conversations) {
    nlohmann::json exchanges = nlohmann::json::array();
    for (const auto& e : c.exchanges) {
      exchanges.push_back({{"index", e.index},
                           {"request", e.request},
                           {"recorded", facts_json(e.recorded)},
                           {"replayed", e.answered ? facts_json(e.replayed) : nlohmann::json(nullptr)},
                           {"matched", e.differences.empty()},
                           {"differences", e.differences}});
    }
    conversations.push_back(
        {{"id", c.id},
         {"client", c.client},
         {"server", c.server},
         {"protocol", c.protocol},
         {"skipped", c.skipped.empty() ? nlohmann::json(nullptr) : nlohmann::json(c.skipped)},
         {"matched", c.matched()},
         {"exchanges", exchanges},
         {"encrypted_rest", c.encrypted_after.empty() ? nlohmann::json(nullptr)
                                                      : nlohmann::json{{"after", c.encrypted_after},
                                                                       {"client_bytes", c.encrypted_client_bytes},
                                                                       {"server_bytes", c.encrypted_server_bytes},
                                                                       {"replayed", false}}}});
  }
  return {{"capture", r.capture},
          {"target", r.target},
          {"conversations", conversations},
          {"summary",
           {{"replayed", r.replayed},
            {"matched", r.matched},
            {"differ", r.replayed - r.matched},
            {"skipped", r.skipped},
            {"encrypted_rest_not_replayed", r.encrypted_rest}}},
          {"all_matched", r.all_matched()},
          {"truncated", r.truncated},
          {"missing_bytes", r.missing_bytes}};
}

}  // namespace netlab::replay
