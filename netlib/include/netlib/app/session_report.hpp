#pragma once
// The output every `analyze` subcommand of a line-protocol lab shares (docs/architecture.md, "The
// capture feed"): the sessions a capture feed observed, as one JSON document
// {"capture", "packets", "sessions": [...]} or as text, a header line and a block per session.
// Templates over the feed's captured_session (netlib/capture/session_feed.hpp), whose session has
// the observed_transport facts (netlib/core/dialogue_observer.hpp); the protocol gives its own
// fields and lines.
#include <algorithm>
#include <cstdint>
#include <iostream>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "netlib/app/program.hpp"

namespace netlib::app {

// What every analyze subcommand takes: CAPTURE, --port P... and --json.
struct analyze_options {
  std::string capture;
  std::vector<int> ports;  // the server ports to take; empty: the protocol's own test
  bool json = false;
};

inline void add_analyze_options(CLI::App& cmd, analyze_options& o, const std::string& port_help) {
  cmd.add_option("capture", o.capture, "pcap or pcapng file")->required()->check(input_file());
  cmd.add_option("--port", o.ports, port_help);
  add_json_flag(cmd, o.json);
}

// Whether `f` is a session of the protocol: its server port is one of --port's, or, without
// --port, `looks_like(f)`.
template <class Found, class Test>
bool is_session(const analyze_options& o, const Found& f, Test looks_like) {
  if (!o.ports.empty()) return std::find(o.ports.begin(), o.ports.end(), f.conversation.server.port) != o.ports.end();
  return looks_like(f);
}

// A value that may be missing, as JSON (null when missing).
template <class Optional>
nlohmann::json optional_json(const Optional& v) {
  return v ? nlohmann::json(*v) : nlohmann::json();
}

// The fields every observed session has: which conversation, and what kept it from being read.
template <class Found>
nlohmann::json session_json(const Found& f) {
  const auto& s = f.session;
  return {{"conversation", f.conversation.id},
          {"client", f.conversation.client.to_string()},
          {"server", f.conversation.server.to_string()},
          {"encrypted", s.encrypted},
          {"encrypted_client_bytes", s.encrypted_client_bytes},
          {"encrypted_server_bytes", s.encrypted_server_bytes},
          {"gap_bytes", s.gap_bytes},
          {"problem", s.problem}};
}

// "session 3: 10.0.0.1:5000 -> 10.0.0.2:25, greeting 220"
template <class Found>
void print_session_head(const Found& f, std::string_view greeting) {
  std::cout << fmt::format("session {}: {} -> {}, greeting {}\n", f.conversation.id, f.conversation.client.to_string(),
                           f.conversation.server.to_string(), greeting);
}

// The closing lines of a session's block: where TLS (`tls_command`) hid the rest, and a problem.
template <class Found>
void print_session_tail(const Found& f, std::string_view tls_command) {
  const auto& s = f.session;
  if (s.encrypted)
    std::cout << fmt::format("  {}: the rest is encrypted ({} bytes from the client, {} from the server)\n",
                             tls_command, s.encrypted_client_bytes, s.encrypted_server_bytes);
  if (!s.problem.empty()) std::cout << "  note: " << s.problem << '\n';
}

// The whole report of `read` (netlib::capture::sessions_read); `protocol` names the sessions in
// the text header ("SMTP").
template <class Read, class ToJson, class PrintText>
int report_sessions(const std::string& capture, const Read& read, bool json, std::string_view protocol, ToJson to_json,
                    PrintText print_text) {
  if (json) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& f : read.sessions) list.push_back(to_json(f));
    print_json({{"capture", capture},
                {"packets", read.packets},
                {"sessions", list},
                {"truncated", read.truncated},
                {"missing_bytes", read.missing_bytes}});
    return exit_ok;
  }
  std::cout << fmt::format("{}: {} packets, {} {} session(s)\n", capture, read.packets, read.sessions.size(), protocol);
  for (const auto& f : read.sessions) print_text(f);
  return exit_ok;
}

struct sessions_command {
  std::string description;  // for --help
  std::string example;
  std::string port_help;  // --port's help: which ports are taken without it
  std::string protocol;   // "SMTP", in the text report's header
};

// The whole analyze subcommand: `observe(path, keep)` returns a netlib::capture::sessions_read (the
// observed sessions `keep` accepts, in conversation order, the packets read, what the capture
// lost); a damaged
// capture is said so on stderr, and the sessions `looks_like` (or the --port ones) are reported
// with `to_json` or `print_text`.
template <class Observe, class Test, class ToJson, class PrintText>
void add_sessions_command(CLI::App& app, sessions_command what, Observe observe, Test looks_like, ToJson to_json,
                          PrintText print_text) {
  auto o = std::make_shared<analyze_options>();
  auto* cmd = add_command(app, "analyze", what.description, what.example,
                          [o, protocol = what.protocol, observe, looks_like, to_json, print_text] {
                            // The test is applied as each conversation closes: only the protocol's
                            // sessions are kept (unreadable: throws, exit 1).
                            auto read =
                                observe(o->capture, [&](const auto& f) { return is_session(*o, f, looks_like); });
                            if (read.damage) std::cerr << program_name() << ": warning: " << *read.damage << '\n';
                            return report_sessions(o->capture, read, o->json, protocol, to_json, print_text);
                          });
  add_analyze_options(*cmd, *o, what.port_help);
}

}  // namespace netlib::app
