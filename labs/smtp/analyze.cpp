// lab-smtp analyze CAPTURE: every SMTP conversation of a capture, reassembled (netlib::capture)
// and read by the passive session_analyzer: the dialogue with reply codes, the envelope, message
// sizes, and where STARTTLS made the rest encrypted.
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "commands.hpp"
#include "netlib/app/program.hpp"
#include "netlib/capture/session_feed.hpp"
#include "netlib/smtp/labels.hpp"
#include "netlib/smtp/session_analyzer.hpp"

namespace lab_smtp {
namespace {

struct analyze_options {
  std::string capture;
  std::vector<int> ports;
  bool json = false;
};

using found_session = netlib::capture::captured_session<netlib::smtp::session_analyzer>;
using feed = netlib::capture::session_feed<netlib::smtp::session_analyzer>;

// An SMTP session: on a chosen port, or greeted with 220 and then EHLO/HELO (FTP greets with 220 too).
bool is_smtp(const found_session& f, const analyze_options& o) {
  const auto port = f.conversation.server.port;
  if (!o.ports.empty()) return std::find(o.ports.begin(), o.ports.end(), port) != o.ports.end();
  if (netlib::smtp::is_smtp_port(port)) return true;
  const auto& s = f.session;
  return s.greeting_code == 220 && !s.commands.empty() && (s.commands[0].verb == "EHLO" || s.commands[0].verb == "HELO");
}

nlohmann::json to_json(const found_session& f) {
  const auto& s = f.session;
  nlohmann::json commands = nlohmann::json::array();
  for (const auto& c : s.commands)
    commands.push_back({{"verb", c.verb}, {"argument", c.argument},
                        {"reply_code", c.reply_code ? nlohmann::json(*c.reply_code) : nlohmann::json()},
                        {"reply_text", c.reply_text}});
  nlohmann::json messages = nlohmann::json::array();
  for (const auto& m : s.messages)
    messages.push_back({{"from", m.from}, {"to", m.to}, {"bytes", m.bytes},
                        {"reply_code", m.reply_code ? nlohmann::json(*m.reply_code) : nlohmann::json()}});
  return {{"conversation", f.conversation.id},
          {"client", f.conversation.client.to_string()},
          {"server", f.conversation.server.to_string()},
          {"greeting_code", s.greeting_code ? nlohmann::json(*s.greeting_code) : nlohmann::json()},
          {"commands", commands},
          {"messages", messages},
          {"encrypted", s.encrypted},
          {"encrypted_client_bytes", s.encrypted_client_bytes},
          {"encrypted_server_bytes", s.encrypted_server_bytes},
          {"gap_bytes", s.gap_bytes},
          {"problem", s.problem}};
}

void print_text(const found_session& f) {
  const auto& s = f.session;
  std::cout << fmt::format("session {}: {} -> {}, greeting {}\n", f.conversation.id, f.conversation.client.to_string(),
                           f.conversation.server.to_string(), s.greeting_code ? std::to_string(*s.greeting_code) : "none");
  for (const auto& c : s.commands)
    std::cout << fmt::format("  C: {:<44} S: {}\n", c.argument.empty() ? c.verb : c.verb + " " + c.argument,
                             c.reply_code ? fmt::format("{} {}", *c.reply_code, c.reply_text) : "(no reply captured)");
  for (const auto& m : s.messages) {
    std::string to;
    for (const auto& r : m.to) to += (to.empty() ? "<" : ", <") + r + ">";
    std::cout << fmt::format("  message from <{}> to {}: {} bytes, reply {}\n", m.from, to.empty() ? "nobody" : to,
                             m.bytes, m.reply_code ? std::to_string(*m.reply_code) : "none");
  }
  if (s.encrypted)
    std::cout << fmt::format("  STARTTLS: the rest is encrypted ({} bytes from the client, {} from the server)\n",
                             s.encrypted_client_bytes, s.encrypted_server_bytes);
  if (!s.problem.empty()) std::cout << "  note: " << s.problem << '\n';
}

int analyze(const analyze_options& o) {
  std::vector<found_session> found;
  netlib::capture::replay_stats stats;
  try {
    stats = netlib::capture::replay_conversations(
        o.capture, [&found](const netlib::packet::tcp_conversation&) { return std::make_unique<feed>(found); });
    netlib::capture::require_some_packet(o.capture, stats);
  } catch (const std::exception& e) {
    throw netlib::app::failure(e.what());
  }
  if (const auto note = netlib::capture::damage_note(o.capture, stats))
    std::cerr << netlib::app::program_name() << ": warning: " << *note << '\n';
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.conversation.id < b.conversation.id; });
  std::vector<const found_session*> smtp;
  for (const auto& f : found)
    if (is_smtp(f, o)) smtp.push_back(&f);
  if (o.json) {
    nlohmann::json sessions = nlohmann::json::array();
    for (const auto* f : smtp) sessions.push_back(to_json(*f));
    netlib::app::print_json({{"capture", o.capture}, {"packets", stats.packets}, {"sessions", sessions},
                             {"truncated", stats.truncated_records > 0}, {"missing_bytes", stats.missing_bytes}});
    return netlib::app::exit_ok;
  }
  std::cout << fmt::format("{}: {} packets, {} SMTP session(s)\n", o.capture, stats.packets, smtp.size());
  for (const auto* f : smtp) print_text(*f);
  return netlib::app::exit_ok;
}

}  // namespace

void add_analyze(CLI::App& app) {
  auto o = std::make_shared<analyze_options>();
  auto* cmd = netlib::app::add_command(app, "analyze",
                                       "Show every SMTP session of a capture: dialogue, reply codes, envelopes, sizes",
                                       "lab-smtp analyze captures/mail/smtp-starttls.pcap --json", [o] { return analyze(*o); });
  cmd->add_option("capture", o->capture, "pcap or pcapng file")->required()->check(netlib::app::input_file());
  cmd->add_option("--port", o->ports, "Server port(s) to treat as SMTP (default: 25, 587, 2525 and any 220+EHLO dialogue)");
  netlib::app::add_json_flag(*cmd, o->json);
}

}  // namespace lab_smtp
