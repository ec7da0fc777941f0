// `lab-ftp client`: a small interactive shell in the style of the classic ftp(1) program. Reads
// commands from stdin (a prompt is shown when stdin is a terminal); an error in one command is
// printed and the shell goes on; exit status 1 when any command failed. Local file names start
// with ~ or ~user the way lftp and tnftp take them (the home folder); `quote CMD` sends a raw
// command line and shows the reply (a 4yz/5yz reply counts as a failed command), `feat` is
// `quote FEAT` (RFC 2389).
#include <pwd.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include <fmt/format.h>

#include "ftp_client.hpp"
#include "netlib/app/program.hpp"
#include "netlib/core/units.hpp"

namespace lab_ftp {

namespace {
using netlib::app::failure;

std::vector<std::string> words(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// "~", "~/x", "~user/x" -> the home folder (HOME, else the password database) followed by the rest;
// anything else, and ~user of an unknown user, unchanged.
std::string expand_home(const std::string& path) {
  if (path.empty() || path.front() != '~') return path;
  const auto slash = path.find('/');
  const std::string user = path.substr(1, slash == std::string::npos ? std::string::npos : slash - 1);
  const std::string rest = slash == std::string::npos ? "" : path.substr(slash);
  const char* home = nullptr;
  if (user.empty()) {
    home = std::getenv("HOME");
    if (home == nullptr || *home == '\0') {
      const passwd* pw = ::getpwuid(::getuid());
      home = pw != nullptr ? pw->pw_dir : nullptr;
    }
  } else {
    const passwd* pw = ::getpwnam(user.c_str());
    home = pw != nullptr ? pw->pw_dir : nullptr;
  }
  return home == nullptr ? path : std::string(home) + rest;
}

// The text after the first word of a line ("quote SITE HELP" -> "SITE HELP"), spaces kept.
std::string after_first_word(const std::string& line) {
  const auto start = line.find_first_not_of(" \t");
  const auto gap = line.find_first_of(" \t", start);
  const auto rest = line.find_first_not_of(" \t", gap);
  if (rest == std::string::npos) return "";
  auto end = line.find_last_not_of(" \t\r");
  return line.substr(rest, end - rest + 1);
}

struct shell {
  std::unique_ptr<ftp_client> c;
  bool trace;
  std::chrono::milliseconds timeout;
  bool passive = true;
  bool ascii = false;

  ftp_client& client() {
    if (!c || !c->connected()) throw failure("not connected (use open HOST [PORT])");
    return *c;
  }

  void open(const std::vector<std::string>& w) {
    if (w.size() < 2) throw failure("usage: open HOST [PORT]");
    std::string host = w[1];
    unsigned port = 21;
    if (w.size() > 2)
      port = static_cast<unsigned>(std::stoul(w[2]));
    else if (auto colon = host.rfind(':'); colon != std::string::npos && host.find(':') == colon) {
      port = static_cast<unsigned>(std::stoul(host.substr(colon + 1)));
      host = host.substr(0, colon);
    }
    c = std::make_unique<ftp_client>(timeout);
    if (trace) c->set_trace(&std::cerr);
    c->set_passive(passive);
    c->set_ascii(ascii);
    c->open(host, static_cast<unsigned short>(port));
    std::cout << "connected to " << host << ":" << port << "\n";
  }

  void get(const std::vector<std::string>& w) {
    if (w.size() < 2) throw failure("usage: get REMOTE [LOCAL]");
    const std::string local = w.size() > 2 ? expand_home(w[2]) : std::filesystem::path(w[1]).filename().string();
    std::ofstream out(local + ".part", std::ios::binary);
    if (!out) throw failure("cannot write " + local);
    transfer_stats s;
    try {
      s = client().retrieve(w[1],
                            [&](std::string_view p) { out.write(p.data(), static_cast<std::streamsize>(p.size())); });
    } catch (...) {
      std::filesystem::remove(local + ".part");
      throw;
    }
    out.close();
    std::filesystem::rename(local + ".part", local);
    std::cout << fmt::format("{} bytes received in {} ({})\n", s.bytes, netlib::units::format_seconds(s.seconds),
                             s.data_command);
  }

  void put(const std::vector<std::string>& w) {
    if (w.size() < 2) throw failure("usage: put LOCAL [REMOTE]");
    const std::string local = expand_home(w[1]);
    std::ifstream in(local, std::ios::binary);
    if (!in) throw failure("cannot read " + local);
    const auto s = client().store(w.size() > 2 ? w[2] : std::filesystem::path(local).filename().string(), in);
    std::cout << fmt::format("{} bytes sent in {} ({})\n", s.bytes, netlib::units::format_seconds(s.seconds),
                             s.data_command);
  }

  // Sends one raw command line and shows the reply as the server wrote it.
  void quote(const std::string& command_line) {
    if (command_line.empty()) throw failure("usage: quote COMMAND [ARGUMENTS] (e.g. quote FEAT)");
    const auto space = command_line.find_first_of(" \t");
    const auto argument_at = command_line.find_first_not_of(" \t", space);
    const std::string verb = command_line.substr(0, space);
    const std::string argument = argument_at == std::string::npos ? "" : command_line.substr(argument_at);
    const netlib::ftp::reply r = client().command(verb, argument);
    std::string shown = netlib::ftp::serialize(r);
    std::erase(shown, '\r');
    std::cout << shown;
    if (r.failure()) throw failure(fmt::format("{}: the server answered {}", verb, r.code));
  }

  // Returns false on quit. `line` is the whole line, for commands that take it raw (quote).
  bool execute(const std::vector<std::string>& w, const std::string& line) {
    const std::string& v = w[0];
    const std::string arg = w.size() > 1 ? w[1] : "";
    if (v == "quit" || v == "bye" || v == "exit") {
      if (c) c->quit();
      return false;
    }
    if (v == "open")
      open(w);
    else if (v == "user") {
      if (w.size() < 2) throw failure("usage: user NAME [PASSWORD]");
      client().login(w[1], w.size() > 2 ? w[2] : "netlab@example.org");
      std::cout << "logged in as " << w[1] << "\n";
    } else if (v == "ls" || v == "dir") {
      std::string listing;
      client().list(arg, false, listing);
      std::cout << listing;
    } else if (v == "cd")
      client().expect_ok("CWD", arg);
    else if (v == "pwd")
      std::cout << client().pwd() << "\n";
    else if (v == "get")
      get(w);
    else if (v == "put")
      put(w);
    else if (v == "quote")
      quote(after_first_word(line));
    else if (v == "feat")
      quote("FEAT");
    else if (v == "mkdir")
      client().expect_ok("MKD", arg);
    else if (v == "delete" || v == "rm")
      client().expect_ok("DELE", arg);
    else if (v == "passive") {
      passive = arg.empty() ? !passive : arg == "on";
      if (c) c->set_passive(passive);
      std::cout << "passive mode " << (passive ? "on" : "off (active)") << "\n";
    } else if (v == "binary" || v == "ascii") {
      ascii = v == "ascii";
      if (c) c->set_ascii(ascii);
      std::cout << "transfers in TYPE " << (ascii ? "A" : "I") << "\n";
    } else if (v == "help" || v == "?") {
      std::cout << "commands: open HOST [PORT], user NAME [PASS], ls [DIR], cd DIR, pwd, get REMOTE [LOCAL],\n"
                   "          put LOCAL [REMOTE], mkdir DIR, delete FILE, passive [on|off], binary, ascii,\n"
                   "          quote COMMAND [ARGS] (a raw command, its reply shown), feat, quit\n"
                   "          (local names may start with ~ or ~user: the home folder)\n";
    } else {
      throw failure(fmt::format("unknown command '{}' (try help)", v));
    }
    return true;
  }
};
}  // namespace

int run_interactive(bool trace, double timeout_s, const std::string& target) {
  shell sh{nullptr, trace, std::chrono::milliseconds(static_cast<long long>(timeout_s * 1000))};
  bool any_failed = false;
  const bool tty = ::isatty(STDIN_FILENO) != 0;
  if (!target.empty()) {
    try {
      sh.open({"open", target});
    } catch (const std::exception& e) {
      std::cerr << "lab-ftp: error: " << e.what() << "\n";
      any_failed = true;
    }
  }
  std::string line;
  for (std::size_t n = 0; n < 1000000; ++n) {
    if (tty) std::cout << "ftp> " << std::flush;
    if (!std::getline(std::cin, line)) break;
    const auto w = words(line);
    if (w.empty()) continue;
    try {
      if (!sh.execute(w, line)) break;
    } catch (const std::exception& e) {
      std::cerr << "lab-ftp: error: " << e.what() << "\n";
      any_failed = true;
    }
    std::cout << std::flush;
  }
  return any_failed ? netlib::app::exit_failure : netlib::app::exit_ok;
}

}  // namespace lab_ftp
