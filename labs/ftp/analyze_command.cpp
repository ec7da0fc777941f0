// `lab-ftp analyze CAPTURE`: prints each FTP session's control dialogue and its transfers, or
// with --json the document {"capture", "packets", "sessions": [{"client", "server", "commands":
// [{"verb", "argument", "reply_code"}], "transfers": [{"command", "path", "bytes", "sha256",
// "mode", ...}]}], "truncated", "missing_bytes"}. A truncated capture or bytes missing from the
// streams are also one line on stderr.
#include "analyze_command.hpp"

#include <iostream>

#include <fmt/format.h>

#include "netlib/app/program.hpp"
#include "netlib/capture/packet_record.hpp"
#include "netlib/core/units.hpp"
#include "netlib/ftp_capture/ftp_sessions.hpp"

namespace lab_ftp {
namespace {

nlohmann::json to_json(const std::string& path, const netlib::capture::ftp_capture_report& r) {
  nlohmann::json doc{{"capture", path},
                     {"packets", r.packets},
                     {"tcp_conversations", r.conversations},
                     {"decode_errors", r.decode_errors},
                     {"sessions", nlohmann::json::array()},
                     {"truncated", r.stats.truncated_records > 0},
                     {"missing_bytes", r.stats.missing_bytes}};
  for (const auto& s : r.sessions) {
    nlohmann::json session{{"client", s.control.client.to_string()},
                           {"server", s.control.server.to_string()},
                           {"greeting", s.greeting ? nlohmann::json(s.greeting->code) : nlohmann::json(nullptr)},
                           {"commands", nlohmann::json::array()},
                           {"transfers", nlohmann::json::array()},
                           {"data_connections_not_captured", s.setups_without_data},
                           {"malformed_lines", s.malformed_lines}};
    for (const auto& c : s.commands) {
      session["commands"].push_back(
          {{"verb", c.verb},
           {"argument", c.argument},
           {"reply_code", c.reply_code ? nlohmann::json(*c.reply_code) : nlohmann::json(nullptr)}});
    }
    for (const auto& t : s.transfers) {
      session["transfers"].push_back(
          {{"command", t.command},
           {"path", t.path},
           {"bytes", t.bytes},
           {"sha256", t.sha256},
           {"mode", t.passive ? "passive" : "active"},
           {"setup", t.setup},
           {"direction", t.direction},
           {"reply_code", t.reply_code ? nlohmann::json(*t.reply_code) : nlohmann::json(nullptr)},
           {"gap_bytes", t.gap_bytes},
           {"duration_s", t.seconds},
           {"throughput_bps",
            t.seconds > 0 ? nlohmann::json(static_cast<double>(t.bytes) * 8 / t.seconds) : nlohmann::json(nullptr)},
           {"data_client", t.data_client},
           {"data_server", t.data_server}});
    }
    doc["sessions"].push_back(std::move(session));
  }
  return doc;
}

void print_text(const netlib::capture::ftp_capture_report& r) {
  std::cout << fmt::format("{} packets, {} TCP conversations, {} FTP sessions\n", r.packets, r.conversations,
                           r.sessions.size());
  for (const auto& s : r.sessions) {
    std::cout << fmt::format("\nsession {} -> {} (control connection)\n", s.control.client.to_string(),
                             s.control.server.to_string());
    if (s.greeting) std::cout << fmt::format("  < {}\n", *s.greeting);
    for (const auto& c : s.commands) {
      const std::string arg = c.verb == "PASS" ? "****" : c.argument;
      std::cout << fmt::format("  > {}{}{}\n", c.verb, arg.empty() ? "" : " ", arg);
      for (int p : c.preliminary_codes) std::cout << fmt::format("  < {}\n", p);
      std::cout << (c.reply_code ? fmt::format("  < {}\n", *c.reply_code) : std::string("  < (no reply captured)\n"));
    }
    for (const auto& t : s.transfers) {
      // One segment has no duration: no throughput then.
      const std::string rate = t.seconds > 0 ? netlib::units::format_bps(static_cast<double>(t.bytes) * 8 / t.seconds)
                                             : std::string("one segment");
      std::cout << fmt::format("  data: {} {} via {} ({}), {} {} B in {} ({}), sha256 {}{}\n", t.command, t.path,
                               t.setup, t.passive ? "passive" : "active", t.direction, t.bytes,
                               netlib::units::format_seconds(t.seconds), rate, t.sha256,
                               t.gap_bytes ? fmt::format(", {} B missing", t.gap_bytes) : "");
      std::cout << fmt::format("        {} -> {}\n", t.data_client, t.data_server);
    }
    if (s.setups_without_data) {
      std::cout << fmt::format("  {} data connection(s) announced but not in the capture\n", s.setups_without_data);
    }
  }
}

}  // namespace

void add_analyze_command(CLI::App& app) {
  auto path = std::make_shared<std::string>();
  auto json = std::make_shared<bool>(false);
  auto port = std::make_shared<unsigned>(21);
  auto* cmd = netlib::app::add_command(
      app, "analyze", "FTP sessions in a capture: control dialogue, data connections matched to their commands",
      "lab-ftp analyze captures/ftp/passive-active.pcap --json");
  cmd->add_option("CAPTURE", *path, "pcap or pcapng file")->required()->check(netlib::app::input_file());
  cmd->add_option("--control-port", *port, "TCP port of the control connection (a 220 greeting is also recognised)")
      ->capture_default_str();
  netlib::app::add_json_flag(*cmd, *json);
  netlib::app::set_action(*cmd, [path, json, port] {
    if (*port == 0 || *port > 65535) throw netlib::app::usage_error("--control-port must be 1..65535");
    netlib::capture::ftp_capture_report r;
    try {
      r = netlib::capture::find_ftp_sessions(*path, static_cast<std::uint16_t>(*port));
      netlib::capture::require_some_packet(*path, r.stats);
    } catch (const netlib::capture::capture_error& e) {
      throw netlib::app::failure(e.what());
    }
    if (const auto note = netlib::capture::damage_note(*path, r.stats))
      std::cerr << netlib::app::program_name() << ": warning: " << *note << '\n';
    if (*json)
      netlib::app::print_json(to_json(*path, r));
    else
      print_text(r);
    return netlib::app::exit_ok;
  });
}

}  // namespace lab_ftp
