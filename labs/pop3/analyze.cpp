// lab-pop3 analyze CAPTURE: every POP3 conversation of a capture, reassembled (netlib::capture)
// and read by the passive session_analyzer: the dialogue with +OK/-ERR, the sizes of multi-line
// answers (messages retrieved), and where STLS made the rest encrypted.
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "commands.hpp"
#include "netlib/app/program.hpp"
#include "netlib/capture/session_feed.hpp"
#include "netlib/pop3/session_analyzer.hpp"

namespace lab_pop3 {
namespace {

struct analyze_options {
  std::string capture;
  std::vector<int> ports;
  bool json = false;
};

using found_session = netlib::capture::captured_session<netlib::pop3::session_analyzer>;
using feed = netlib::capture::session_feed<netlib::pop3::session_analyzer>;

bool is_pop3(const found_session& f, const analyze_options& o) {
  const auto port = f.conversation.server.port;
  if (!o.ports.empty()) return std::find(o.ports.begin(), o.ports.end(), port) != o.ports.end();
  return port == 110 || port == 1110 || (f.session.greeting && f.session.greeting->rfind("+OK", 0) == 0);
}

nlohmann::json opt(const auto& v) { return v ? nlohmann::json(*v) : nlohmann::json(); }

nlohmann::json to_json(const found_session& f) {
  const auto& s = f.session;
  nlohmann::json commands = nlohmann::json::array();
  nlohmann::json messages = nlohmann::json::array();
  for (const auto& c : s.commands) {
    commands.push_back({{"verb", c.verb}, {"argument", c.argument}, {"status", opt(c.status)}, {"text", c.text},
                        {"body_bytes", opt(c.body_bytes)}});
    if (c.verb == "RETR" && c.status == "+OK" && c.body_bytes)
      messages.push_back({{"number", c.argument}, {"bytes", *c.body_bytes}});
  }
  return {{"conversation", f.conversation.id},
          {"client", f.conversation.client.to_string()},
          {"server", f.conversation.server.to_string()},
          {"greeting", opt(s.greeting)},
          {"commands", commands},
          {"messages", messages},
          {"garbage_lines", s.garbage_lines},
          {"encrypted", s.encrypted},
          {"encrypted_client_bytes", s.encrypted_client_bytes},
          {"encrypted_server_bytes", s.encrypted_server_bytes},
          {"gap_bytes", s.gap_bytes},
          {"problem", s.problem}};
}

void print_text(const found_session& f) {
  const auto& s = f.session;
  std::cout << fmt::format("session {}: {} -> {}, greeting {}\n", f.conversation.id, f.conversation.client.to_string(),
                           f.conversation.server.to_string(), s.greeting.value_or("none"));
  for (const auto& c : s.commands) {
    std::string answer = c.status ? *c.status + (c.text.empty() ? "" : " " + c.text) : "(no response captured)";
    if (c.body_bytes) answer += fmt::format(" [{} bytes follow]", *c.body_bytes);
    std::cout << fmt::format("  C: {:<30} S: {}\n", c.argument.empty() ? c.verb : c.verb + " " + c.argument, answer);
  }
  if (s.garbage_lines > 0) std::cout << fmt::format("  {} server line(s) were not POP3 responses\n", s.garbage_lines);
  if (s.encrypted)
    std::cout << fmt::format("  STLS: the rest is encrypted ({} bytes from the client, {} from the server)\n",
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
  std::vector<const found_session*> pop3;
  for (const auto& f : found)
    if (is_pop3(f, o)) pop3.push_back(&f);
  if (o.json) {
    nlohmann::json sessions = nlohmann::json::array();
    for (const auto* f : pop3) sessions.push_back(to_json(*f));
    netlib::app::print_json({{"capture", o.capture}, {"packets", stats.packets}, {"sessions", sessions},
                             {"truncated", stats.truncated_records > 0}, {"missing_bytes", stats.missing_bytes}});
    return netlib::app::exit_ok;
  }
  std::cout << fmt::format("{}: {} packets, {} POP3 session(s)\n", o.capture, stats.packets, pop3.size());
  for (const auto* f : pop3) print_text(*f);
  return netlib::app::exit_ok;
}

}  // namespace

void add_analyze(CLI::App& app) {
  auto o = std::make_shared<analyze_options>();
  auto* cmd = netlib::app::add_command(app, "analyze", "Show every POP3 session of a capture: dialogue, answers, sizes",
                                       "lab-pop3 analyze captures/mail/pop3-session.pcap --json", [o] { return analyze(*o); });
  cmd->add_option("capture", o->capture, "pcap or pcapng file")->required()->check(netlib::app::input_file());
  cmd->add_option("--port", o->ports, "Server port(s) to treat as POP3 (default: 110, 1110 and any +OK greeting)");
  netlib::app::add_json_flag(*cmd, o->json);
}

}  // namespace lab_pop3
