// netlab-replay: re-send the client side of each recorded TCP conversation to a live server and
// compare the replies with the recorded ones at the protocol level. Exit 0 when everything
// replayed matches, 1 otherwise (a difference, a connection problem, nothing replayable), 2 on
// usage errors. HTTP, SMTP, FTP (with its data connections) and POP3 are replayed; an FTP data
// connection is replayed as part of its control conversation, not on its own.
#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <map>
#include <optional>

#include "ftp_replay.hpp"
#include "http_replay.hpp"
#include "netlib/app/program.hpp"
#include "pop3_replay.hpp"
#include "report.hpp"
#include "smtp_replay.hpp"

namespace {

using namespace netlab::replay;

constexpr const char* footer = R"(What is compared:
  HTTP  status; for 2xx Content-Type, Content-Range, body size and SHA-256; for 3xx Location.
  SMTP  the reply code of the greeting and of every command (a DATA message is one unit).
  FTP   the final reply code of every command and whether a 1yz preliminary came (125 = 150);
        RETR/LIST/NLST/MLSD data by size and SHA-256, LIST with each line's date columns removed
        and MLSD without modify= facts (modification times differ between runs). STOR/APPE/STOU
        re-send the recorded upload bytes; the final reply is compared. Passive data connections
        go to the new server's PASV/EPSV address; PORT/EPRT naming the recording client's own
        host are rewritten to a local listener, any other PORT/EPRT (a bounce) is sent verbatim.
  POP3  +OK/-ERR of every reply; the message count of STAT; the message numbers of LIST and
        UIDL (sizes include the server's trace fields and unique-ids are server-chosen);
        RETR/TOP bodies by size and SHA-256 with the trace fields (Received:, Return-Path:,
        Delivered-To:) removed.
Reply texts are never compared.)";

// FTP control conversations with their recorded sessions, and which conversations are their
// data connections (replayed with the control conversation, not alone).
struct ftp_index {
  std::map<std::uint64_t, ftp_dialogue> sessions;
  std::map<std::uint64_t, std::uint64_t> data_of;  // data conversation -> control conversation
};

ftp_index index_ftp(const std::vector<recorded_conversation>& all) {
  ftp_index x;
  for (const auto& c : all) {
    if (guess_protocol(c) != "ftp" || x.data_of.contains(c.id)) continue;
    auto d = read_ftp_dialogue(c, all);
    for (const auto id : d.data_conversations) x.data_of[id] = c.id;
    x.sessions.emplace(c.id, std::move(d));
  }
  for (const auto& [data, control] : x.data_of) x.sessions.erase(data);
  return x;
}

conversation_result replay_one(const recorded_conversation& c, const ftp_index& ftp, const target_options& t) {
  const auto protocol = guess_protocol(c);
  if (protocol == "http") return replay_http(c, t);
  if (protocol == "smtp") return replay_smtp(c, t);
  if (protocol == "pop3") return replay_pop3(c, t);
  if (const auto it = ftp.sessions.find(c.id); it != ftp.sessions.end()) return replay_ftp(c, it->second, t);
  return {c.id,
          c.client_endpoint,
          c.server_endpoint,
          protocol,
          "not recognised as HTTP, SMTP, FTP or POP3 (nor as an FTP data connection)",
          {},
          {}};
}

std::vector<conversation_result> replay_all(const std::string& capture, std::optional<std::uint64_t> only,
                                            const target_options& t, netlib::capture::replay_stats& stats) {
  const auto recorded = load_conversations(capture, &stats);
  netlib::capture::require_some_packet(capture, stats);
  // The recorded side is what the capture holds: say when that is not the whole conversation.
  if (const auto note = netlib::capture::damage_note(capture, stats))
    std::cerr << netlib::app::program_name() << ": warning: " << *note << '\n';
  const auto ftp = index_ftp(recorded);
  if (only && std::none_of(recorded.begin(), recorded.end(), [&](const auto& c) { return c.id == *only; })) {
    throw netlib::app::failure(fmt::format("{}: no conversation {} (it has {})", capture, *only, recorded.size()));
  }
  if (only && ftp.data_of.contains(*only)) {
    throw netlib::app::failure(fmt::format(
        "conversation {} is a data connection of FTP conversation {}: replay that one", *only, ftp.data_of.at(*only)));
  }
  std::vector<conversation_result> results;
  for (const auto& c : recorded) {
    if ((only && c.id != *only) || ftp.data_of.contains(c.id)) continue;
    results.push_back(replay_one(c, ftp, t));
  }
  return results;
}

}  // namespace

int main(int argc, char** argv) {
  auto app = netlib::app::make_app(
      "netlab-replay",
      "Re-send a capture's client side to a live server and compare the replies (HTTP, SMTP, FTP, POP3)",
      "netlab-replay captures/ftp/ftp-sessions.pcapng --target 127.0.0.1:2121 --conversation 0");
  app->footer(app->get_footer() + "\n\n" + footer);
  std::string capture;
  std::string target;
  std::optional<std::uint64_t> conversation;
  bool pace = false;
  bool json = false;
  double timeout_s = 5;
  app->add_option("capture", capture, "Capture file (.pcap or .pcapng)")->required()->check(netlib::app::input_file());
  app->add_option("--target", target, "The live server, HOST:PORT")->required();
  app->add_option("--conversation,-c", conversation, "Replay only this conversation (id as netlab-ladder lists it)");
  app->add_flag("--pace", pace, "Keep the recorded gaps between requests (capture timestamps)");
  netlib::app::add_duration(*app, "--timeout", timeout_s, "Time to wait for each reply (default 5s)", 0.1, 120);
  netlib::app::add_json_flag(*app, json);
  return netlib::app::run(*app, argc, argv, [&]() -> int {
    const auto hp = netlib::app::parse_host_port(target);
    if (hp.port == 0) throw netlib::app::usage_error("--target needs a port: HOST:PORT");
    const target_options t{hp.host, hp.port, std::chrono::milliseconds(static_cast<long>(timeout_s * 1000)), pace};
    netlib::capture::replay_stats stats;
    auto report = summarize(capture, target, replay_all(capture, conversation, t, stats));
    report.truncated = stats.truncated_records > 0;
    report.missing_bytes = stats.missing_bytes;
    if (json) {
      netlib::app::print_json(to_json(report));
    } else {
      std::cout << render_text(report);
    }
    return report.all_matched() ? netlib::app::exit_ok : netlib::app::exit_failure;
  });
}
