// The client side of the lab: one-shot get/put/ls and an interactive shell, all on ftp_client.
#include "client_commands.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include <fmt/format.h>

#include "ftp_client.hpp"
#include "ftp_url.hpp"
#include "netlib/app/program.hpp"
#include "netlib/core/units.hpp"

namespace lab_ftp {
namespace {

using netlib::app::failure;

struct common_options {
  bool active = false;
  bool trace = false;
  bool ascii = false;
  bool json = false;
  double timeout_s = 20;
};

void add_common(CLI::App& cmd, common_options& o) {
  cmd.add_flag("--active", o.active, "Active mode: EPRT, falling back to PORT (default passive: EPSV, then PASV)");
  cmd.add_flag("--trace", o.trace, "Show the control dialogue on stderr as it happens");
  cmd.add_flag("--ascii", o.ascii, "TYPE A (line ends converted) instead of TYPE I");
  netlib::app::add_duration(cmd, "--timeout", o.timeout_s, "Time any step may take (default 20s)", 0.001, 3600);
  netlib::app::add_json_flag(cmd, o.json);
}

std::unique_ptr<ftp_client> connect(const common_options& o, const ftp_url& u) {
  auto c = std::make_unique<ftp_client>(std::chrono::milliseconds(static_cast<long long>(o.timeout_s * 1000)));
  if (o.trace) c->set_trace(&std::cerr);
  c->set_passive(!o.active);
  c->set_ascii(o.ascii);
  c->open(u.host, u.port);
  c->login(u.user, u.password);
  return c;
}

nlohmann::json stats_json(const std::string& op, const ftp_url& u, const transfer_stats& s, bool active) {
  return {{"operation", op},
          {"host", u.host},
          {"port", u.port},
          {"path", u.path},
          {"mode", active ? "active" : "passive"},
          {"data_command", s.data_command},
          {"bytes", s.bytes},
          {"duration_s", s.seconds},
          {"throughput_bps", s.seconds > 0 ? static_cast<double>(s.bytes) * 8 / s.seconds : 0.0}};
}

void report(const common_options& o, const std::string& op, const ftp_url& u, const transfer_stats& s) {
  if (o.json) return netlib::app::print_json(stats_json(op, u, s, o.active));
  std::cerr << fmt::format("{} {} bytes in {} ({}) over {} data connection ({})\n", op, s.bytes,
                           netlib::units::format_seconds(s.seconds),
                           netlib::units::format_bps(s.seconds > 0 ? static_cast<double>(s.bytes) * 8 / s.seconds : 0),
                           o.active ? "an active" : "a passive", s.data_command);
}

int run_get(const common_options& o, const std::string& url, std::string output) {
  const ftp_url u = parse_ftp_url(url);
  if (u.directory) throw netlib::app::usage_error(url + ": names a directory; use lab-ftp ls");
  if (o.json && output == "-")
    throw netlib::app::usage_error("-o - and --json both write to stdout: write the file elsewhere (-o FILE)");
  if (output.empty()) output = std::filesystem::path(u.path).filename().string();
  auto c = connect(o, u);
  const bool to_stdout = output == "-";
  const std::string temp = output + ".part";
  std::ofstream file;
  if (!to_stdout) {
    file.open(temp, std::ios::binary | std::ios::trunc);
    if (!file) throw failure(fmt::format("cannot write {}", temp));
  }
  transfer_stats s;
  try {
    s = c->retrieve(u.path, [&](std::string_view piece) {
      if (to_stdout)
        std::cout.write(piece.data(), static_cast<std::streamsize>(piece.size()));
      else
        file.write(piece.data(), static_cast<std::streamsize>(piece.size()));
    });
  } catch (...) {
    if (!to_stdout) std::filesystem::remove(temp);
    throw;
  }
  if (!to_stdout) {
    file.close();
    std::filesystem::rename(temp, output);  // a download appears whole or not at all
  }
  c->quit();
  report(o, "get", u, s);
  return netlib::app::exit_ok;
}

int run_put(const common_options& o, const std::string& local, const std::string& url) {
  ftp_url u = parse_ftp_url(url);
  std::ifstream in(local, std::ios::binary);
  if (!in) throw netlib::app::usage_error(fmt::format("{}: cannot read the file", local));
  if (u.directory) u.path += std::filesystem::path(local).filename().string();
  auto c = connect(o, u);
  const transfer_stats s = c->store(u.path, in);
  c->quit();
  report(o, "put", u, s);
  return netlib::app::exit_ok;
}

int run_ls(const common_options& o, const std::string& url, bool names) {
  const ftp_url u = parse_ftp_url(url);
  auto c = connect(o, u);
  std::string listing;
  const transfer_stats s = c->list(u.path, names, listing);
  c->quit();
  if (o.json) {
    auto doc = stats_json(names ? "nlst" : "list", u, s, o.active);
    auto& lines = doc["lines"] = nlohmann::json::array();
    std::istringstream in(listing);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    netlib::app::print_json(doc);
  } else {
    std::cout << listing << std::flush;
  }
  return netlib::app::exit_ok;
}

}  // namespace

int run_interactive(bool trace, double timeout_s, const std::string& target);

void add_client_commands(CLI::App& app) {
  auto o = std::make_shared<common_options>();
  auto url = std::make_shared<std::string>();
  auto output = std::make_shared<std::string>();
  auto* get = netlib::app::add_command(app, "get", "Download one file (RETR)",
                                       "lab-ftp get ftp://127.0.0.1:2121/big.bin -o big.bin --trace\n"
                                       "  lab-ftp get ftp://alice:secret@127.0.0.1:2121/notes.txt --active");
  get->add_option("URL", *url, "ftp://[user[:password]@]host[:port]/path (anonymous by default)")->required();
  get->add_option("-o,--output", *output, "Local file (default: the remote name; - for stdout, not with --json)");
  add_common(*get, *o);
  netlib::app::set_action(*get, [o, url, output] { return run_get(*o, *url, *output); });

  auto po = std::make_shared<common_options>();
  auto local = std::make_shared<std::string>();
  auto purl = std::make_shared<std::string>();
  auto* put = netlib::app::add_command(app, "put", "Upload one file (STOR)",
                                       "lab-ftp put notes.txt ftp://alice:secret@127.0.0.1:2121/uploads/");
  put->add_option("FILE", *local, "Local file")->required();
  put->add_option("URL", *purl, "Target; ending in / appends the file's name")->required();
  add_common(*put, *po);
  netlib::app::set_action(*put, [po, local, purl] { return run_put(*po, *local, *purl); });

  auto lo = std::make_shared<common_options>();
  auto lurl = std::make_shared<std::string>();
  auto names = std::make_shared<bool>(false);
  auto* ls = netlib::app::add_command(app, "ls", "List a directory (LIST, or NLST with --names)",
                                      "lab-ftp ls ftp://127.0.0.1:2121/pub/ --trace");
  ls->add_option("URL", *lurl, "ftp://host[:port]/directory/")->required();
  ls->add_flag("--names", *names, "Names only (NLST)");
  add_common(*ls, *lo);
  netlib::app::set_action(*ls, [lo, lurl, names] { return run_ls(*lo, *lurl, *names); });

  auto it_trace = std::make_shared<bool>(false);
  auto it_timeout = std::make_shared<double>(20);
  auto target = std::make_shared<std::string>();
  auto* client = netlib::app::add_command(
      app, "client",
      "Interactive client: open user ls cd pwd get put mkdir delete passive binary ascii quote feat quit",
      "lab-ftp client 127.0.0.1:2121 --trace   (then: user anonymous x, ls, get big.bin, put ~/notes.txt, feat, quit)");
  client->add_option("HOST[:PORT]", *target, "Open this server at start");
  client->add_flag("--trace", *it_trace, "Show the control dialogue");
  netlib::app::add_duration(*client, "--timeout", *it_timeout, "Time any step may take (default 20s)", 0.001, 3600);
  netlib::app::set_action(*client,
                          [it_trace, it_timeout, target] { return run_interactive(*it_trace, *it_timeout, *target); });
}

}  // namespace lab_ftp
