// POP3 replay. (1) Split the recorded client stream into command lines; (2) parse the recorded
// server stream with the POP3 response parser: the greeting, then one response per command,
// multi-line when +OK answers RETR, TOP, CAPA, or LIST/UIDL/AUTH without an argument
// (netlib::pop3::multiline_response, the rule of lab-pop3 analyze and the client); (3) re-send each line on a new
// connection and parse the new response the same way. Compared: +OK/-ERR of every response; the message count of STAT's
// "+OK nn mm" (RFC 1939 §5: the octet count includes the delivering server's Received: header, so it is not compared);
// the message numbers of LIST/UIDL listings (sizes and server-chosen unique-ids are not compared); RETR/TOP bodies by
// size and SHA-256 after removing the delivering server's trace fields (Received:, Return-Path:, Delivered-To:). Texts
// are not compared. AUTH/APOP challenges are outside this replay (the dialogue stops differing at the first such
// command's response, which is then compared as any other). An STLS the recording answered +OK ends the replay after
// that exchange: what follows is TLS (RFC 2595 §4), which is not replayed; the result says so and how many bytes that
// leaves out.
#include "pop3_replay.hpp"

#include <fmt/format.h>

#include <sstream>
#include <thread>

#include "common/tcp_probe.hpp"
#include "netlib/core/command_line.hpp"
#include "netlib/core/sha256.hpp"
#include "netlib/http/fields.hpp"
#include "netlib/pop3/response.hpp"

namespace netlab::replay {

namespace pop3 = netlib::pop3;

std::string without_trace_fields(const std::string& message) {
  std::string out;
  bool in_header = true;
  bool dropping = false;
  std::size_t at = 0;
  while (at < message.size()) {
    const auto lf = message.find('\n', at);
    const auto end = lf == std::string::npos ? message.size() : lf + 1;
    const std::string_view line(message.data() + at, end - at);
    at = end;
    if (in_header && (line == "\r\n" || line == "\n")) in_header = false;
    if (in_header && dropping && (line.front() == ' ' || line.front() == '\t')) continue;
    dropping = in_header && (netlib::http::iequals(line.substr(0, 9), "received:") ||
                             netlib::http::iequals(line.substr(0, 12), "return-path:") ||
                             netlib::http::iequals(line.substr(0, 13), "delivered-to:"));
    if (!dropping) out += line;
  }
  return out;
}

namespace pop3_replay_local {

struct command_line {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::string verb;  // upper case
  std::string argument;
};

std::vector<command_line> split_commands(const std::string& client) {
  std::vector<command_line> out;
  for (auto& c : netlib::recorded_commands(client))
    out.push_back(command_line{c.begin, c.end, std::move(c.command.verb), std::move(c.command.argument)});
  return out;
}

bool multiline(const command_line& c) {
  return pop3::multiline_response(c.verb, c.argument);
}

// The first word of each listing line ("1 266" -> "1").
std::string message_numbers(const std::string& body) {
  std::istringstream in(body);
  std::string out;
  for (std::string line; out.size() < 1000000 && std::getline(in, line);) {
    out += (out.empty() ? "" : " ") + line.substr(0, line.find(' '));
  }
  return out;
}

std::string first_word(const std::string& text) {
  return text.substr(0, text.find(' '));
}

// What is compared of a response, besides +OK/-ERR, as one text; body size and hash separately.
response_facts facts(const command_line& c, const pop3::response& r) {
  response_facts f;
  f.status = r.ok ? 1 : 0;
  f.status_text = r.ok ? "+OK" : "-ERR";
  if (!r.ok) return f;
  if (c.verb == "STAT") f.listing = "messages " + first_word(r.text);
  if ((c.verb == "LIST" || c.verb == "UIDL") && !c.argument.empty()) f.listing = "message " + first_word(r.text);
  if ((c.verb == "LIST" || c.verb == "UIDL") && c.argument.empty()) f.listing = "messages " + message_numbers(r.body);
  if (c.verb == "RETR" || c.verb == "TOP") {
    const auto body = without_trace_fields(r.body);
    f.body_bytes = body.size();
    f.body_sha256 = netlib::sha256::hex(netlib::as_bytes(body));
  }
  return f;
}

std::optional<pop3::response> next_recorded(pop3::response_parser& parser, const std::string& server, std::size_t& at,
                                            bool multi) {
  auto r = parser.next(netlib::as_bytes(std::string_view(server).substr(at)), multi);
  at += r.consumed;
  if (r.status != pop3::response_status::response) return std::nullopt;
  return r.value;
}

std::optional<pop3::response> next_live(pop3::response_parser& parser, netlab::grade::tcp_probe& probe, bool multi) {
  for (int round = 0; round < 100000; ++round) {
    auto r = parser.next(probe.buffer().data(), multi);
    probe.buffer().consume(r.consumed);
    if (r.status == pop3::response_status::response) return r.value;
    if (r.status == pop3::response_status::malformed) {
      probe.set_error("malformed response");
      return std::nullopt;
    }
    if (!probe.read_more()) return std::nullopt;
  }
  return std::nullopt;
}

void compare(exchange_diff& e) {
  const auto& a = e.recorded;
  const auto& b = e.replayed;
  if (a.status_text != b.status_text) {
    e.differences.push_back(fmt::format("status: recorded {}, now {}", a.status_text, b.status_text));
    return;
  }
  if (a.listing != b.listing) {
    e.differences.push_back(fmt::format("listing: recorded '{}', now '{}'", a.listing, b.listing));
  }
  if (a.body_sha256 != b.body_sha256) {
    e.differences.push_back(
        fmt::format("message (trace fields removed): recorded {} bytes sha256 {}, now {} bytes sha256 {}", a.body_bytes,
                    a.body_sha256.substr(0, 16), b.body_bytes, b.body_sha256.substr(0, 16)));
  }
}

}  // namespace pop3_replay_local

conversation_result replay_pop3(const recorded_conversation& c, const target_options& t) {
  using namespace pop3_replay_local;
  conversation_result result{c.id, c.client_endpoint, c.server_endpoint, "pop3", {}, {}, {}};
  pop3::response_parser recorded_parser;
  std::size_t at = 0;
  const command_line greeting_line{0, 0, "(greeting)", ""};
  const auto greeting = next_recorded(recorded_parser, c.server, at, false);
  if (!greeting) {
    result.skipped = "no POP3 greeting in the server stream";
    return result;
  }
  netlab::grade::tcp_probe probe(t.host, t.port, t.timeout);
  pop3::response_parser live_parser;
  const auto commands = split_commands(c.client);
  const auto started = std::chrono::steady_clock::now();
  const double first = commands.empty() ? 0 : c.time_at(commands.front().begin);
  for (std::size_t i = 0; i <= commands.size(); ++i) {
    const auto& cmd = i == 0 ? greeting_line : commands[i - 1];
    const auto recorded = i == 0 ? greeting : next_recorded(recorded_parser, c.server, at, multiline(cmd));
    if (!recorded) break;  // the recording ends before this command was answered
    if (t.pace && i > 0) {
      const auto due = std::chrono::duration<double>(c.time_at(cmd.begin) - first);
      std::this_thread::sleep_until(started + std::chrono::duration_cast<std::chrono::nanoseconds>(due));
    }
    exchange_diff e{
        i,
        cmd.verb == "PASS" ? "PASS ****" : (cmd.argument.empty() ? cmd.verb : cmd.verb + " " + cmd.argument),
        facts(cmd, *recorded),
        {},
        false,
        {}};
    const bool sent = i == 0 || probe.send(std::string_view(c.client).substr(cmd.begin, cmd.end - cmd.begin));
    const auto now = sent ? next_live(live_parser, probe, multiline(cmd)) : std::nullopt;
    if (!now) {
      e.differences.push_back("no response now: " + probe.error());
      result.exchanges.push_back(std::move(e));
      break;
    }
    e.answered = true;
    e.replayed = facts(cmd, *now);
    compare(e);
    result.exchanges.push_back(std::move(e));
    if (i > 0 && cmd.verb == "STLS" && recorded->ok) {
      result.encrypted_after = "STLS";
      result.encrypted_client_bytes = c.client.size() - cmd.end;
      result.encrypted_server_bytes = c.server.size() - at;
      break;
    }
  }
  return result;
}

}  // namespace netlab::replay
