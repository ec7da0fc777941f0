// lab-pop3 analyze CAPTURE: every POP3 conversation of a capture, reassembled (netlib::capture)
// and read by the passive session_analyzer on the one capture feed: the dialogue with +OK/-ERR,
// the sizes of multi-line answers (messages retrieved), and where STLS made the rest encrypted.
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "commands.hpp"
#include "netlib/app/program.hpp"
#include "netlib/app/session_report.hpp"
#include "netlib/capture/session_feed.hpp"
#include "netlib/pop3/session_analyzer.hpp"

namespace lab_pop3 {
namespace {

using found_session = netlib::capture::captured_session<netlib::pop3::session_analyzer>;

// Without --port: port 110 or 1110, or a +OK greeting.
bool looks_like_pop3(const found_session& f) {
  const auto port = f.conversation.server.port;
  return port == 110 || port == 1110 || (f.session.greeting && f.session.greeting->rfind("+OK", 0) == 0);
}

nlohmann::json to_json(const found_session& f) {
  using netlib::app::optional_json;
  const auto& s = f.session;
  nlohmann::json commands = nlohmann::json::array();
  nlohmann::json messages = nlohmann::json::array();
  for (const auto& c : s.commands) {
    commands.push_back({{"verb", c.verb},
                        {"argument", c.argument},
                        {"status", optional_json(c.status)},
                        {"text", c.text},
                        {"body_bytes", optional_json(c.body_bytes)}});
    if (c.verb == "RETR" && c.status == "+OK" && c.body_bytes)
      messages.push_back({{"number", c.argument}, {"bytes", *c.body_bytes}});
  }
  nlohmann::json j = netlib::app::session_json(f);
  j["greeting"] = optional_json(s.greeting);
  j["commands"] = commands;
  j["messages"] = messages;
  j["garbage_lines"] = s.garbage_lines;
  return j;
}

void print_text(const found_session& f) {
  const auto& s = f.session;
  netlib::app::print_session_head(f, s.greeting.value_or("none"));
  for (const auto& c : s.commands) {
    std::string answer = c.status ? *c.status + (c.text.empty() ? "" : " " + c.text) : "(no response captured)";
    if (c.body_bytes) answer += fmt::format(" [{} bytes follow]", *c.body_bytes);
    std::cout << fmt::format("  C: {:<30} S: {}\n", c.argument.empty() ? c.verb : c.verb + " " + c.argument, answer);
  }
  if (s.garbage_lines > 0) std::cout << fmt::format("  {} server line(s) were not POP3 responses\n", s.garbage_lines);
  netlib::app::print_session_tail(f, "STLS");
}

}  // namespace

void add_analyze(CLI::App& app) {
  netlib::app::add_sessions_command(
      app,
      {"Show every POP3 session of a capture: dialogue, answers, sizes",
       "lab-pop3 analyze captures/mail/pop3-session.pcap --json",
       "Server port(s) to treat as POP3 (default: 110, 1110 and any +OK greeting)", "POP3"},
      netlib::capture::sessions_of<netlib::pop3::session_analyzer>, looks_like_pop3, to_json, print_text);
}

}  // namespace lab_pop3
