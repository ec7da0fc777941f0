// lab-pop3 fetch: downloads every message of a maildrop into DIR/<uid>.eml, optionally deleting
// them on the server (applied when the server reaches the UPDATE state at QUIT).
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "commands.hpp"
#include "netlib/app/program.hpp"
#include "netlib/io/pop3_driver.hpp"
#include "netlib/io/tls.hpp"

namespace lab_pop3 {
namespace {
namespace fs = std::filesystem;

struct fetch_options {
  std::string server = "127.0.0.1:110";
  std::string user;
  std::string password;
  bool remove = false;
  std::string out;
  bool stls = false;
  bool insecure = false;
  std::string ca_file;
  bool trace = false;
  double timeout_s = 30;
  bool json = false;
};

// A file name from a UID: characters outside [A-Za-z0-9._-] become '_'.
std::string file_name_of(const netlib::pop3::fetched_message& m) {
  std::string name = m.uid.empty() ? fmt::format("message-{}", m.number) : m.uid;
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-' && c != '_') c = '_';
  if (name.front() == '.') name.front() = '_';
  return name + ".eml";
}

int fetch(const fetch_options& o) {
  // Options that would be ignored or that contradict each other are usage errors (docs/conventions.md).
  if (!o.stls && (o.insecure || !o.ca_file.empty()))
    throw netlib::app::usage_error("--insecure and --ca-file are used only with --stls");
  if (o.insecure && !o.ca_file.empty())
    throw netlib::app::usage_error("--insecure verifies nothing, so --ca-file would not be used: give one of them");
  const auto hp = netlib::app::parse_host_port(o.server, 110);
  std::error_code ec;
  fs::create_directories(o.out, ec);
  if (ec || !fs::is_directory(o.out)) throw netlib::app::failure("cannot create the output folder '" + o.out + "'");
  const auto ep =
      netlib::io::make_client_endpoint({hp.host, hp.port, o.timeout_s, o.stls, o.insecure, o.ca_file, o.trace});
  nlohmann::json saved = nlohmann::json::array();
  std::size_t bytes = 0;
  const auto r = netlib::io::pop3_fetch(ep, {o.user, o.password, o.stls, o.remove}, [&](const auto& m) {
    const fs::path path = fs::path(o.out) / file_name_of(m);
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(m.bytes.data(), static_cast<std::streamsize>(m.bytes.size()));
    if (!f.flush()) throw netlib::app::failure("cannot write '" + path.string() + "'");
    bytes += m.bytes.size();
    saved.push_back({{"number", m.number}, {"uid", m.uid}, {"size_bytes", m.bytes.size()}, {"file", path.string()}});
  });
  if (o.json)
    netlib::app::print_json({{"messages", saved}, {"deleted", r.deleted}, {"total_bytes", bytes}, {"error", r.error}});
  else if (r.error.empty() || r.retrieved > 0)  // a failed login saved nothing: only the error is said
    std::cout << fmt::format("saved {} message(s), {} bytes, to {}{}\n", r.retrieved, bytes, o.out,
                             o.remove ? fmt::format(" ({} deleted on the server)", r.deleted) : "");
  if (!r.error.empty()) throw netlib::app::failure(r.error);
  return netlib::app::exit_ok;
}

}  // namespace

void add_fetch(CLI::App& app) {
  auto o = std::make_shared<fetch_options>();
  auto* cmd = netlib::app::add_command(
      app, "fetch", "Download every message of a POP3 maildrop into DIR/<uid>.eml",
      "lab-pop3 fetch --server 127.0.0.1:1110 --user alice --password secret --out inbox --trace",
      [o] { return fetch(*o); });
  cmd->add_option("--server", o->server, "POP3 server HOST:PORT")->capture_default_str();
  cmd->add_option("--user", o->user, "User name (USER)")->required();
  cmd->add_option("--password", o->password, "Password (PASS)")->required();
  cmd->add_flag("--delete", o->remove, "Delete the messages on the server after downloading (DELE, applied at QUIT)");
  cmd->add_option("--out", o->out, "Folder for the downloaded messages")->required();
  cmd->add_flag("--stls", o->stls, "Switch to TLS with STLS before logging in (RFC 2595)");
  cmd->add_flag("--insecure", o->insecure, "With --stls: do not verify the server certificate");
  cmd->add_option("--ca-file", o->ca_file, "With --stls: verify the server against this PEM CA file")
      ->check(netlib::app::input_file());
  cmd->add_flag("--trace", o->trace, "Show the POP3 dialogue on stderr (C: client, S: server)");
  netlib::app::add_duration(*cmd, "--timeout", o->timeout_s, "Time to wait for each response (default 30s)", 0.001,
                            3600);
  netlib::app::add_json_flag(*cmd, o->json);
}

}  // namespace lab_pop3
