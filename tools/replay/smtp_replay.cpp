// SMTP replay. (1) Parse the recorded replies with the SMTP reply parser: reply 0 is the
// greeting, reply i answers the i-th client unit (no PIPELINING assumed); (2) split the client
// stream into units: one command line each, except that after a DATA answered 354 the message up
// to <CRLF>.<CRLF> is one unit (RFC 5321 §4.1.1.4); (3) re-send the units one by one and compare
// each reply code with the recorded one. Reply texts (host names, queue ids) are not compared.
// A STARTTLS the recording answered 220 ends the replay after that exchange: what follows is TLS
// (RFC 3207 §4.2), which is not replayed; the result says so and how many bytes that leaves out.
#include "smtp_replay.hpp"

#include <fmt/format.h>

#include <thread>

#include "common/recorded_replies.hpp"
#include "common/smtp_probe.hpp"
#include "netlib/http/fields.hpp"

namespace netlab::replay {

namespace smtp_replay_local {

struct unit {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::string label;
};

std::vector<unit> split_units(const std::string& client, const std::vector<netlib::smtp::reply>& replies) {
  std::vector<unit> out;
  std::size_t at = 0;
  while (at < client.size() && out.size() < 100000) {
    const auto eol = client.find("\r\n", at);
    if (eol == std::string::npos) break;
    const std::string line = client.substr(at, eol - at);
    out.push_back({at, eol + 2, line});
    at = eol + 2;
    // After a STARTTLS answered 220 the client's bytes are TLS records, not commands.
    if (netlib::http::iequals(line, "STARTTLS") && out.size() < replies.size() && replies[out.size()].code == 220)
      break;
    const bool data = netlib::http::iequals(line, "DATA");
    if (data && out.size() < replies.size() && replies[out.size()].code == 354) {
      auto end = client.find("\r\n.\r\n", at - 2);
      if (end == std::string::npos) break;
      end += 5;
      out.push_back({at, end, fmt::format("<message, {} bytes>", end - at)});
      at = end;
    }
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
  std::vector<std::size_t> reply_ends;
  const auto replies = netlab::recorded_replies<netlib::smtp::reply_parser>(c.server, &reply_ends);
  const auto units = split_units(c.client, replies);
  // Unit i is answered by reply i + 1: a last unit STARTTLS answered 220 switched to TLS.
  if (!units.empty() && units.size() < replies.size() && netlib::http::iequals(units.back().label, "STARTTLS") &&
      replies[units.size()].code == 220) {
    result.encrypted_after = "STARTTLS";
    result.encrypted_client_bytes = c.client.size() - units.back().end;
    result.encrypted_server_bytes = c.server.size() - reply_ends[units.size()];
  }
  if (replies.empty()) {
    result.skipped = "no SMTP reply in the server stream";
    return result;
  }
  netlab::grade::smtp_probe probe(t.host, t.port, t.timeout);
  auto greeting = probe.read_reply();
  result.exchanges.push_back(code_diff(0, "(greeting)", replies[0].code,
                                       greeting ? std::optional<int>(greeting->code) : std::nullopt, probe.error()));
  if (!greeting) return result;
  const auto started = std::chrono::steady_clock::now();
  const double first = units.empty() ? 0 : c.time_at(units.front().begin);
  for (std::size_t i = 0; i < units.size() && i + 1 < replies.size(); ++i) {
    if (t.pace) {
      const auto due = std::chrono::duration<double>(c.time_at(units[i].begin) - first);
      std::this_thread::sleep_until(started + std::chrono::duration_cast<std::chrono::nanoseconds>(due));
    }
    const auto sent = probe.send(std::string_view(c.client).substr(units[i].begin, units[i].end - units[i].begin));
    auto reply = sent ? probe.read_reply() : std::nullopt;
    result.exchanges.push_back(code_diff(i + 1, units[i].label, replies[i + 1].code,
                                         reply ? std::optional<int>(reply->code) : std::nullopt, probe.error()));
    if (!reply) break;
  }
  return result;
}

}  // namespace netlab::replay
