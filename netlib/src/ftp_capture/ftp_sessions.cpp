// See capture_sessions.hpp. Matching rules (RFC 959 §3.2, RFC 2428): a passive set-up names the
// endpoint the FTP server listens on (227 gives an address, which behind NAT may differ from the
// control server's, so the control server's address is accepted too; 229 gives only the port);
// an active set-up names the FTP client's listening endpoint. The data conversation whose
// listening side (its TCP server) is that endpoint and which began after the set-up, and was not
// used by an earlier set-up, is the one.
//
// Memory: a conversation gets its record (hashes, counters, a control analyzer) on its first byte,
// or at its start when its server port is the control port. When it is released the record is
// kept only if it may be needed at the end: a control connection with commands, or a conversation
// whose server port a data set-up had named by then (a set-up is read before its data connection
// can start, as the client learns the port from it). Everything else (a scan, a web page, a
// conversation that carried nothing) is dropped, so memory follows the FTP content, not the
// capture. A set-up whose reply reached the analyzer only after its data connection ended (the
// reply held behind a hole in the control stream) finds no data connection.
#include "netlib/ftp_capture/ftp_sessions.hpp"

#include <map>
#include <memory>
#include <set>
#include <unordered_map>

#include "netlib/capture/tcp_replay.hpp"
#include "netlib/core/sha256.hpp"

namespace netlib::capture {

namespace {
using netlib::packet::tcp_conversation;
using netlib::packet::tcp_direction;

struct flow {
  tcp_conversation conv;
  netlib::sha256 hash[2];  // [0] client->server, [1] server->client
  std::uint64_t bytes[2] = {0, 0};
  std::uint64_t gaps[2] = {0, 0};
  netlib::time_point first_data[2]{}, last_data[2]{};
  std::unique_ptr<netlib::ftp::control_analyzer> control;
  bool used = false;
};

int index(tcp_direction d) {
  return d == tcp_direction::client_to_server ? 0 : 1;
}

struct collector : netlib::packet::tcp_visitor {
  std::uint16_t control_port;
  std::unordered_map<std::uint64_t, std::unique_ptr<flow>> open;  // records of open conversations
  std::map<std::uint64_t, flow> flows;                            // kept records, by id
  std::set<std::uint16_t> setup_ports;                            // every port a data set-up has named so far
  explicit collector(std::uint16_t port) : control_port(port) {}

  flow& record(const tcp_conversation& c) {
    auto& f = open[c.id];
    if (!f) {
      f = std::make_unique<flow>();
      f->conv = c;
    }
    return *f;
  }
  void note_setups(const flow& f) {
    for (const auto& s : f.control->setups()) setup_ports.insert(s.where.port);
  }

  void on_open(const tcp_conversation& c) override {
    if (c.server.port == control_port) record(c).control = std::make_unique<netlib::ftp::control_analyzer>();
  }
  void on_data(const tcp_conversation& c, tcp_direction d, netlib::byte_view b, netlib::time_point t) override {
    flow& f = record(c);
    const int i = index(d);
    // A server that greets with "220" on another port is an FTP control connection too.
    if (!f.control && i == 1 && f.bytes[1] == 0 && f.bytes[0] == 0 && netlib::as_chars(b).starts_with("220")) {
      f.control = std::make_unique<netlib::ftp::control_analyzer>();
    }
    if (f.bytes[i] == 0) f.first_data[i] = t;
    f.last_data[i] = t;
    f.bytes[i] += b.size();
    f.hash[i].update(b);
    if (f.control) {
      const std::size_t before = f.control->setups().size();
      i == 0 ? f.control->client_bytes(b, t) : f.control->server_bytes(b, t);
      if (f.control->setups().size() != before) note_setups(f);
    }
  }
  void on_gap(const tcp_conversation& c, tcp_direction d, std::uint64_t size, netlib::time_point) override {
    flow& f = record(c);
    f.gaps[index(d)] += size;
    if (f.control) index(d) == 0 ? f.control->client_gap() : f.control->server_gap();
  }
  void on_close(const tcp_conversation& c) override {
    std::unique_ptr<flow> f;
    if (const auto it = open.find(c.id); it != open.end()) {
      f = std::move(it->second);
      open.erase(it);
    }
    const bool control = f && f->control && !f->control->commands().empty();
    if (!control && !setup_ports.contains(c.server.port)) return;  // neither control nor data
    if (!f) f = std::make_unique<flow>();  // a data connection that carried nothing (an empty file)
    f->conv = c;
    flows.emplace(c.id, std::move(*f));
  }
};

bool same_address(const netlib::packet::ip_address& a, const std::string& text) {
  const auto parsed = netlib::packet::ip_address::parse(text);
  return parsed && *parsed == a;
}

bool matches(const flow& data, const flow& control, const netlib::ftp::data_setup& s) {
  // (A data connection whose content happens to start with "220" was taken for a control
  // connection; without commands it is still data.)
  const bool is_control = data.control && !data.control->commands().empty();
  if (data.used || is_control || data.conv.server.port != s.where.port || data.conv.first_ts < s.at) return false;
  const auto& addr = data.conv.server.address;
  if (s.passive) return s.where.host.empty() || same_address(addr, s.where.host) || addr == control.conv.server.address;
  return same_address(addr, s.where.host) || addr == control.conv.client.address;
}

ftp_transfer describe(const flow& data, const netlib::ftp::command_record& setup_cmd, bool passive) {
  ftp_transfer t;
  t.passive = passive;
  t.setup = setup_cmd.verb;
  // The FTP server is the data connection's TCP server in passive mode and its TCP client in
  // active mode; pick the direction that carried the data.
  const int i = data.bytes[1] >= data.bytes[0] ? 1 : 0;
  const bool from_ftp_server = passive ? i == 1 : i == 0;
  t.direction = from_ftp_server ? "download" : "upload";
  t.bytes = data.bytes[i];
  t.sha256 = data.hash[i].hex_digest();
  t.gap_bytes = data.gaps[i];
  t.seconds = t.bytes ? netlib::to_seconds(data.last_data[i] - data.first_data[i]) : 0;
  t.data_client = data.conv.client.to_string();
  t.data_server = data.conv.server.to_string();
  return t;
}

ftp_session build_session(flow& control, std::map<std::uint64_t, flow>& flows) {
  ftp_session s;
  s.control = control.conv;
  s.greeting = control.control->greeting();
  s.commands = control.control->commands();
  s.malformed_lines = control.control->malformed_lines();
  const auto& setups = control.control->setups();
  for (std::size_t k = 0; k < setups.size(); ++k) {
    const auto& setup = setups[k];
    const std::size_t end = k + 1 < setups.size() ? setups[k + 1].command_index : s.commands.size();
    std::optional<std::size_t> transfer_cmd;
    for (std::size_t c = setup.command_index + 1; c < end && !transfer_cmd; ++c) {
      if (netlib::ftp::control_analyzer::is_transfer_verb(s.commands[c].verb)) transfer_cmd = c;
    }
    flow* data = nullptr;
    for (auto& [id, f] : flows) {
      if (matches(f, control, setup)) {
        data = &f;
        break;
      }
    }
    if (!data || !transfer_cmd) {
      if (transfer_cmd) ++s.setups_without_data;
      continue;
    }
    data->used = true;
    ftp_transfer t = describe(*data, s.commands[setup.command_index], setup.passive);
    t.command = s.commands[*transfer_cmd].verb;
    t.path = s.commands[*transfer_cmd].argument;
    t.reply_code = s.commands[*transfer_cmd].reply_code;
    s.transfers.push_back(std::move(t));
  }
  return s;
}
}  // namespace

ftp_capture_report find_ftp_sessions(const std::string& path, std::uint16_t control_port) {
  collector c(control_port);
  const auto stats = netlib::capture::replay_tcp(path, c);
  ftp_capture_report report;
  report.packets = stats.packets;
  report.conversations = stats.conversations;
  report.decode_errors = stats.decode_errors;
  report.stats = stats;
  for (auto& [id, f] : c.flows) {
    if (f.control && !f.control->commands().empty()) report.sessions.push_back(build_session(f, c.flows));
  }
  return report;
}

}  // namespace netlib::capture
