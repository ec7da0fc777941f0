// SMTP replay. (1) Read the recorded dialogue with netlib::smtp::session_analyzer, the reader of
// `lab-smtp analyze` and of netlab-grade's SMTP questions (one rule for the three): it pairs each
// command with its reply, pipelined commands too (RFC 2920), and takes the message text after a
// DATA answered 354 up to <CRLF>.<CRLF> as one unit answered by one reply (RFC 5321 §4.1.1.4);
// (2) re-send the units one by one, in the order the client sent them, each as the bytes it was
// recorded as, and compare each reply code with the recorded one. Reply texts (host names, queue
// ids) are not compared. The replay stops at the first unit the recording holds no reply for.
// A STARTTLS the recording answered 220 ends the replay after that exchange: what follows is TLS
// (RFC 3207 §4.2), which is not replayed; the result says so and how many bytes that leaves out.
#include "smtp_replay.hpp"

#include <fmt/format.h>

#include <optional>
#include <string_view>
#include <thread>

#include "common/smtp_probe.hpp"
#include "netlib/smtp/session_analyzer.hpp"

namespace netlab::replay {

namespace smtp_replay_local {

struct unit {
  std::size_t begin = 0;  // the bytes of the client's stream that make the unit
  std::size_t end = 0;
  std::string label;
  std::optional<int> recorded;  // the recorded reply's code
};

// The analyzer's units, labelled for the report: a command as sent (without its line end), a
// message's text by its size.
std::vector<unit> units_of(const netlib::smtp::observed_session& s, const std::string& client) {
  std::vector<unit> out;
  for (const auto& u : netlib::smtp::units_in_client_order(s)) {
    std::string_view line = std::string_view(client).substr(u.begin, u.end - u.begin);
    while (!u.message && !line.empty() && (line.back() == '\n' || line.back() == '\r')) line.remove_suffix(1);
    out.push_back({u.begin, u.end, u.message ? fmt::format("<message, {} bytes>", u.end - u.begin) : std::string(line),
                   u.reply_code});
  }
  return out;
}

exchange_diff code_diff(std::size_t index, std::string label, int recorded, std::optional<int> now,
                        const std::string& error) {
  exchange_diff e{index, std::move(label), {}, {}, now.has_value(), {}};
  e.recorded.status = recorded;
  if (!now) {
    e.differences.push_back("no reply now: " + error);
    return e;
  }
  e.replayed.status = *now;
  if (*now != recorded) e.differences.push_back(fmt::format("reply code: recorded {}, now {}", recorded, *now));
  return e;
}

}  // namespace smtp_replay_local

conversation_result replay_smtp(const recorded_conversation& c, const target_options& t) {
  using namespace smtp_replay_local;
  conversation_result result{c.id, c.client_endpoint, c.server_endpoint, "smtp", {}, {}, {}};
  netlib::smtp::session_analyzer analyzer;
  feed_pieces(c, analyzer);
  const auto& recorded = analyzer.session();
  if (recorded.encrypted) {
    result.encrypted_after = "STARTTLS";
    result.encrypted_client_bytes = recorded.encrypted_client_bytes;
    result.encrypted_server_bytes = recorded.encrypted_server_bytes;
  }
  if (!recorded.greeting_code) {
    result.skipped = "no SMTP reply in the server stream";
    return result;
  }
  const auto units = units_of(recorded, c.client);
  netlab::grade::smtp_probe probe(t.host, t.port, t.timeout);
  auto greeting = probe.read_reply();
  result.exchanges.push_back(code_diff(0, "(greeting)", *recorded.greeting_code,
                                       greeting ? std::optional<int>(greeting->code) : std::nullopt, probe.error()));
  if (!greeting) return result;
  const auto started = std::chrono::steady_clock::now();
  const double first = units.empty() ? 0 : c.time_at(units.front().begin);
  for (std::size_t i = 0; i < units.size() && units[i].recorded; ++i) {
    if (t.pace) {
      const auto due = std::chrono::duration<double>(c.time_at(units[i].begin) - first);
      std::this_thread::sleep_until(started + std::chrono::duration_cast<std::chrono::nanoseconds>(due));
    }
    const auto sent = probe.send(std::string_view(c.client).substr(units[i].begin, units[i].end - units[i].begin));
    auto reply = sent ? probe.read_reply() : std::nullopt;
    result.exchanges.push_back(code_diff(i + 1, units[i].label, *units[i].recorded,
                                         reply ? std::optional<int>(reply->code) : std::nullopt, probe.error()));
    if (!reply) break;
  }
  return result;
}

}  // namespace netlab::replay
