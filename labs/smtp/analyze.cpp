// lab-smtp analyze CAPTURE: every SMTP conversation of a capture, reassembled (netlib::capture)
// and read by the passive session_analyzer on the one capture feed: the dialogue with reply
// codes, the envelope, message sizes, and where STARTTLS made the rest encrypted.
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "commands.hpp"
#include "netlib/app/program.hpp"
#include "netlib/app/session_report.hpp"
#include "netlib/capture/session_feed.hpp"
#include "netlib/smtp/labels.hpp"
#include "netlib/smtp/session_analyzer.hpp"

namespace lab_smtp {
namespace {

using found_session = netlib::capture::captured_session<netlib::smtp::session_analyzer>;

// Without --port, an SMTP session is on an SMTP port, or greeted with 220 and then EHLO/HELO (FTP
// greets with 220 too).
bool looks_like_smtp(const found_session& f) {
  if (netlib::smtp::is_smtp_port(f.conversation.server.port)) return true;
  const auto& s = f.session;
  return s.greeting_code == 220 && !s.commands.empty() &&
         (s.commands[0].verb == "EHLO" || s.commands[0].verb == "HELO");
}

nlohmann::json to_json(const found_session& f) {
  const auto& s = f.session;
  nlohmann::json commands = nlohmann::json::array();
  for (const auto& c : s.commands)
    commands.push_back({{"verb", c.verb},
                        {"argument", c.argument},
                        {"reply_code", netlib::app::optional_json(c.reply_code)},
                        {"reply_text", c.reply_text}});
  nlohmann::json messages = nlohmann::json::array();
  for (const auto& m : s.messages)
    messages.push_back(
        {{"from", m.from}, {"to", m.to}, {"bytes", m.bytes}, {"reply_code", netlib::app::optional_json(m.reply_code)}});
  nlohmann::json j = netlib::app::session_json(f);
  j["greeting_code"] = netlib::app::optional_json(s.greeting_code);
  j["commands"] = commands;
  j["messages"] = messages;
  return j;
}

void print_text(const found_session& f) {
  const auto& s = f.session;
  netlib::app::print_session_head(f, s.greeting_code ? std::to_string(*s.greeting_code) : "none");
  for (const auto& c : s.commands)
    std::cout << fmt::format("  C: {:<44} S: {}\n", c.argument.empty() ? c.verb : c.verb + " " + c.argument,
                             c.reply_code ? fmt::format("{} {}", *c.reply_code, c.reply_text) : "(no reply captured)");
  for (const auto& m : s.messages) {
    std::string to;
    for (const auto& r : m.to) to += (to.empty() ? "<" : ", <") + r + ">";
    std::cout << fmt::format("  message from <{}> to {}: {} bytes, reply {}\n", m.from, to.empty() ? "nobody" : to,
                             m.bytes, m.reply_code ? std::to_string(*m.reply_code) : "none");
  }
  netlib::app::print_session_tail(f, "STARTTLS");
}

}  // namespace

void add_analyze(CLI::App& app) {
  netlib::app::add_sessions_command(
      app,
      {"Show every SMTP session of a capture: dialogue, reply codes, envelopes, sizes",
       "lab-smtp analyze captures/mail/smtp-starttls.pcap --json",
       "Server port(s) to treat as SMTP (default: 25, 587, 2525 and any 220+EHLO dialogue)", "SMTP"},
      netlib::capture::sessions_of<netlib::smtp::session_analyzer>, looks_like_smtp, to_json, print_text);
}

}  // namespace lab_smtp
