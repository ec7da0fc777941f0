// FTP replay. The recorded session (ftp_recorded.cpp) is re-sent command by command on one new
// control connection, keeping the recorded gaps with --pace:
//   - PASV/EPSV are sent as recorded; the NEW server's 227/229 reply names the address that the
//     next transfer's data connection goes to (the recorded address is irrelevant).
//   - PORT/EPRT whose recorded address was the recording client's own host are rewritten: we
//     listen on our control connection's local address (port 0) and announce that (RFC 959
//     §4.1.2 PORT, RFC 2428 §2 EPRT). A PORT/EPRT naming any other host (a bounce attempt, RFC
//     2577) is re-sent verbatim, so the server's refusal is compared.
//   - A transfer command: passive, we connect before sending it; after a 1yz reply we read the
//     server's bytes (RETR/LIST/NLST/MLSD) or send the recorded upload bytes and close
//     (STOR/STOU/APPE), then read the final reply.
// Compared per command: the final reply code, and whether a 1yz preliminary came (125 and 150
// are equivalent); per download: size and SHA-256 of the bytes (LIST/MLSD with dates normalised
// away). Reply texts are not compared.
#include "ftp_replay.hpp"

#include <fmt/format.h>

#include <sstream>
#include <thread>

#include "ftp_link.hpp"
#include "netlib/core/sha256.hpp"
#include "netlib/ftp/data_address.hpp"

namespace netlab::replay {

namespace ftp = netlib::ftp;

std::string normalise_listing(std::string_view verb, const std::string& data) {
  if (verb != "LIST" && verb != "MLSD") return data;
  std::string out;
  std::istringstream in(data);
  std::string line;
  for (int n = 0; n < 1000000 && std::getline(in, line); ++n) {
    if (verb == "MLSD") {
      const auto at = line.find("modify=");
      if (at != std::string::npos) line.erase(at, line.find(';', at) + 1 - at);
      out += line + "\n";
      continue;
    }
    std::istringstream words(line);
    std::vector<std::string> w;
    for (std::string x; w.size() < 9 && words >> x;) w.push_back(x);
    if (w.size() < 9 || (w[0].front() != '-' && w[0].front() != 'd' && w[0].front() != 'l')) {
      out += line + "\n";
      continue;
    }
    std::string rest;
    std::getline(words, rest);
    out += fmt::format("{} {} {} {} {} {}{}\n", w[0], w[1], w[2], w[3], w[4], w[8], rest);
  }
  return out;
}

namespace ftp_replay_local {

struct live_state {
  ftp_control control;
  std::optional<ftp::data_address> passive;  // from the new server's last 227/229
  std::unique_ptr<ftp_data> active;          // listening after a rewritten PORT/EPRT
  const target_options& t;
  live_state(const target_options& opts) : control(opts.host, opts.port, opts.timeout), t(opts) {}
};

std::string label(const ftp_step& s) {
  if (s.verb == "PASS") return "PASS ****";
  return s.argument.empty() ? s.verb : s.verb + " " + s.argument;
}

std::string codes_text(const std::vector<int>& codes) {
  std::string out;
  for (const auto c : codes) out += (out.empty() ? "" : " ") + std::to_string(c);
  return out.empty() ? "-" : out;
}

// The line to send: recorded, or with our own data address when an active set-up is rewritten.
std::string line_to_send(const recorded_conversation& c, const ftp_dialogue& d, const ftp_step& s, live_state& st,
                         std::string& problem) {
  const std::string recorded = c.client.substr(s.begin, s.end - s.begin);
  if (s.verb != "PORT" && s.verb != "EPRT") return recorded;
  const auto a = s.verb == "PORT" ? ftp::parse_port_argument(s.argument) : ftp::parse_eprt_argument(s.argument);
  if (!a || endpoint_key(a->host, 1) != endpoint_key(d.client_host, 1)) return recorded;  // verbatim
  st.active = std::make_unique<ftp_data>(st.t.timeout);
  const auto host = st.control.local_host();
  const auto port = st.active->listen(host);
  if (!port) {
    problem = st.active->error();
    return recorded;
  }
  ftp::data_address ours{host.find(':') == std::string::npos ? 1 : 2, host, *port};
  if (s.verb == "PORT" && ours.family == 1) return "PORT " + ftp::format_port_argument(ours) + "\r\n";
  return "EPRT " + ftp::format_eprt_argument(ours) + "\r\n";
}

// Opens (passive) or takes (active) the data connection for a transfer command.
std::unique_ptr<ftp_data> take_data(live_state& st, std::string& problem) {
  if (st.active) return std::move(st.active);
  if (!st.passive) return nullptr;
  auto data = std::make_unique<ftp_data>(st.t.timeout);
  const auto host = st.passive->host.empty() ? st.t.host : st.passive->host;
  if (!data->connect(host, st.passive->port)) problem = data->error();
  st.passive.reset();
  return data;
}

void note_setup(const ftp_step& s, const ftp::reply& r, live_state& st) {
  if (s.verb == "PASV" && r.code == 227) st.passive = ftp::parse_pasv_reply(r.text());
  if (s.verb == "EPSV" && r.code == 229) st.passive = ftp::parse_epsv_reply(r.text());
}

struct transfer_now {
  bool done = false;
  std::string data;
};

// Sends one step and reads its replies, moving the data in between for a transfer.
std::vector<int> run_step(const std::string& line, const ftp_step& s, live_state& st, transfer_now& moved,
                          std::vector<std::string>& problems) {
  std::string problem;
  auto data = s.transfer ? take_data(st, problem) : nullptr;
  if (!problem.empty()) problems.push_back(problem);
  std::vector<int> codes;
  if (!st.control.send(line)) {
    problems.push_back("cannot send: " + st.control.error());
    return codes;
  }
  for (int round = 0; round < 16; ++round) {
    auto r = st.control.read_reply();
    if (!r) {
      problems.push_back("no reply now: " + st.control.error());
      break;
    }
    codes.push_back(r->code);
    note_setup(s, *r, st);
    if (!r->preliminary()) break;
    if (!data || moved.done) continue;
    moved.done = true;
    if (s.transfer->upload) {
      if (!data->write_all(s.transfer->data)) problems.push_back(data->error());
    } else if (auto bytes = data->read_all()) {
      moved.data = std::move(*bytes);
    } else {
      problems.push_back(data->error());
    }
  }
  if (data) data->close();
  return codes;
}

void compare(const ftp_step& s, const std::vector<int>& now, const transfer_now& moved, exchange_diff& e) {
  const auto final_of = [](const std::vector<int>& v) { return v.empty() ? 0 : v.back(); };
  if (!now.empty() && final_of(s.codes) != final_of(now)) {
    e.differences.push_back(fmt::format("reply code: recorded {}, now {}", final_of(s.codes), final_of(now)));
  }
  const bool had_prelim = s.codes.size() > 1;
  if (!now.empty() && had_prelim != (now.size() > 1)) {
    e.differences.push_back(fmt::format("preliminary reply: recorded {}, now {}", had_prelim ? "one" : "none",
                                        now.size() > 1 ? "one" : "none"));
  }
  if (!s.transfer || !s.transfer->found || s.transfer->upload) return;
  const auto a = normalise_listing(s.verb, s.transfer->data);
  const auto b = normalise_listing(s.verb, moved.data);
  e.recorded.body_bytes = a.size();
  e.recorded.body_sha256 = netlib::sha256::hex(netlib::as_bytes(a));
  e.replayed.body_bytes = b.size();
  e.replayed.body_sha256 = netlib::sha256::hex(netlib::as_bytes(b));
  if (e.recorded.body_sha256 != e.replayed.body_sha256) {
    e.differences.push_back(fmt::format("data{}: recorded {} bytes sha256 {}, now {} bytes sha256 {}",
                                        s.verb == "LIST" || s.verb == "MLSD" ? " (dates normalised)" : "", a.size(),
                                        e.recorded.body_sha256.substr(0, 16), b.size(),
                                        e.replayed.body_sha256.substr(0, 16)));
  }
}

exchange_diff greeting_diff(const ftp_dialogue& d, live_state& st) {
  exchange_diff e{0, "(greeting)", {}, {}, false, {}};
  e.recorded.status = d.greeting.value_or(0);
  std::optional<ftp::reply> r;
  for (int round = 0; round < 4; ++round) {
    r = st.control.read_reply();
    if (!r || !r->preliminary()) break;
  }
  if (!r) {
    e.differences.push_back("no reply now: " + st.control.error());
    return e;
  }
  e.answered = true;
  e.replayed.status = r->code;
  if (r->code != e.recorded.status) {
    e.differences.push_back(fmt::format("reply code: recorded {}, now {}", e.recorded.status, r->code));
  }
  return e;
}

}  // namespace ftp_replay_local

conversation_result replay_ftp(const recorded_conversation& c, const ftp_dialogue& d, const target_options& t) {
  using namespace ftp_replay_local;
  conversation_result result{c.id, c.client_endpoint, c.server_endpoint, "ftp", {}, {}, {}};
  if (!d.greeting) {
    result.skipped = "no FTP greeting in the server stream";
    return result;
  }
  live_state st(t);
  result.exchanges.push_back(greeting_diff(d, st));
  if (!result.exchanges.back().answered) return result;
  const auto started = std::chrono::steady_clock::now();
  const double first = d.steps.empty() ? 0 : c.time_at(d.steps.front().begin);
  for (std::size_t i = 0; i < d.steps.size(); ++i) {
    const auto& s = d.steps[i];
    if (s.codes.empty()) break;  // the recording ends before this command was answered
    if (t.pace) {
      const auto due = std::chrono::duration<double>(c.time_at(s.begin) - first);
      std::this_thread::sleep_until(started + std::chrono::duration_cast<std::chrono::nanoseconds>(due));
    }
    exchange_diff e{i + 1, label(s), {}, {}, false, {}};
    std::string problem;
    const auto line = line_to_send(c, d, s, st, problem);
    if (!problem.empty()) e.differences.push_back(problem);
    if (line != std::string_view(c.client).substr(s.begin, s.end - s.begin)) {
      e.request += " (sent as " + line.substr(0, line.find('\r')) + ")";
    }
    transfer_now moved;
    const auto now = run_step(line, s, st, moved, e.differences);
    e.recorded.status = s.codes.back();
    e.recorded.status_text = codes_text(s.codes);
    e.answered = !now.empty();
    e.replayed.status = now.empty() ? 0 : now.back();
    e.replayed.status_text = codes_text(now);
    compare(s, now, moved, e);
    const bool lost = now.empty() || (now.back() == 421);
    result.exchanges.push_back(std::move(e));
    if (lost) break;
  }
  return result;
}

}  // namespace netlab::replay
