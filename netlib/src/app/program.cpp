#include "netlib/app/program.hpp"

#include <arpa/inet.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <map>

#include "netlib/core/units.hpp"

namespace netlib::app {
namespace {

std::string& name_storage() {
  static std::string name = "netlab";
  return name;
}

std::string& version_storage() {
  static std::string version = std::string("netlab ") + NETLAB_VERSION;
  return version;
}

// Actions of subcommands, keyed by the CLI::App they belong to.
std::map<const CLI::App*, std::function<int()>>& actions() {
  static std::map<const CLI::App*, std::function<int()>> a;
  return a;
}

void print_error(const std::string& message) {
  std::string line = message;
  for (char& c : line)
    if (c == '\n') c = ' ';
  std::cerr << program_name() << ": error: " << line << '\n';
}

const CLI::App* selected_leaf(const CLI::App& app) {
  for (const CLI::App* sub : app.get_subcommands()) return selected_leaf(*sub);
  return &app;
}

std::string command_path(const CLI::App* app) {
  std::string path;
  for (const CLI::App* a = app; a != nullptr; a = a->get_parent())
    path = a->get_name() + (path.empty() ? "" : " " + path);
  return path;
}

// The selected commands from the program down to the leaf.
std::vector<const CLI::App*> selected_chain(const CLI::App& app) {
  std::vector<const CLI::App*> chain{&app};
  for (;;) {
    const auto subs = chain.back()->get_subcommands();
    if (subs.empty()) return chain;
    chain.push_back(subs.front());
  }
}

// Option names a user could have meant on this command: its own and its parents' (--help and
// --version included).
std::vector<std::string> option_names(const CLI::App* app) {
  std::vector<std::string> names;
  for (const CLI::App* a = app; a != nullptr; a = a->get_parent()) {
    for (const CLI::Option* o : a->get_options()) {
      for (const auto& l : o->get_lnames()) names.push_back("--" + l);
      for (const auto& sn : o->get_snames()) names.push_back("-" + sn);
    }
  }
  return names;
}

std::vector<std::string> subcommand_names(const CLI::App* app) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app->get_subcommands([](const CLI::App*) { return true; }))
    if (!sub->get_name().empty()) names.push_back(sub->get_name());
  return names;
}

// For a parse error caused by a word the program does not know (an unknown flag or subcommand,
// a stray argument), the one-line message that names it and suggests the nearest known name;
// empty when no such word was left over. The leftover word is the root cause even when CLI11
// reported something else first ("--length is required" after "--lenght 1500B").
std::string leftover_message(const CLI::App& app) {
  for (const CLI::App* a : selected_chain(app)) {
    const auto left = a->remaining();
    if (left.empty()) continue;
    const std::string& word = left.front();
    const std::string where = " (see '" + command_path(a) + " --help')";
    if (word.size() > 1 && word[0] == '-') {
      const std::string name = word.substr(0, word.find('='));
      const auto near = nearest_name(name, option_names(a));
      return "unknown option " + name + (near.empty() ? "" : "; did you mean " + near + "?") + where;
    }
    const auto subs = subcommand_names(a);
    if (!subs.empty() && a->get_subcommands().empty()) {
      const auto near = nearest_name(word, subs);
      return "unknown subcommand " + word + (near.empty() ? "" : "; did you mean " + near + "?") + where;
    }
    return "unexpected argument '" + word + "'" + where;
  }
  return {};
}

// Optimal string alignment distance: insertions, deletions, substitutions and transpositions of
// neighbours each cost 1.
std::size_t edit_distance(const std::string& a, const std::string& b) {
  const std::size_t n = a.size(), m = b.size();
  std::vector<std::vector<std::size_t>> d(n + 1, std::vector<std::size_t>(m + 1));
  for (std::size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= n; ++i) {
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[n][m];
}

nlohmann::json tidy_number(double v) {
  if (!std::isfinite(v)) return nullptr;
  return std::strtod(fmt::format("{:.15g}", v).c_str(), nullptr);
}

// "--seconds" of "--seconds,-s": the name errors show.
std::string first_name(const std::string& names) {
  return names.substr(0, names.find(','));
}

bool is_directory(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

}  // namespace

std::string nearest_name(const std::string& word, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_distance = 0;
  for (const auto& c : candidates) {
    if (c == word) continue;
    const std::size_t dist = edit_distance(word, c);
    if (best.empty() || dist < best_distance) {
      best = c;
      best_distance = dist;
    }
  }
  // Close enough to be a typo: 1 edit for short words, up to a third of the word for long ones;
  // or the word is the start of exactly this name (--len for --length).
  const std::string bare =
      word.substr(word.find_first_not_of('-') == std::string::npos ? 0 : word.find_first_not_of('-'));
  const std::size_t allowed = std::max<std::size_t>(1, bare.size() / 3);
  if (!best.empty() && best_distance <= allowed) return best;
  std::string prefixed;
  for (const auto& c : candidates) {
    if (word.size() >= 3 && c.rfind(word, 0) == 0) {
      if (!prefixed.empty()) return {};  // ambiguous
      prefixed = c;
    }
  }
  return prefixed;
}

const std::string& program_name() {
  return name_storage();
}

std::unique_ptr<CLI::App> make_app(const std::string& name, const std::string& description,
                                   const std::string& example) {
  name_storage() = name;
  version_storage() = std::string(name) + " (netlab) " + NETLAB_VERSION;
  auto app = std::make_unique<CLI::App>(description, name);
  app->set_version_flag("--version", version_storage());
  app->footer("\nExample:\n  " + example);
  app->get_formatter()->column_width(34);
  return app;
}

CLI::App* add_command(CLI::App& parent, const std::string& name, const std::string& description,
                      const std::string& example, std::function<int()> action) {
  CLI::App* cmd = parent.add_subcommand(name, description);
  cmd->footer("\nExample:\n  " + example);
  // --version answers on every command, before any check of required flags.
  cmd->set_version_flag("--version", version_storage());
  if (action) actions()[cmd] = std::move(action);
  return cmd;
}

void set_action(CLI::App& command, std::function<int()> action) {
  actions()[&command] = std::move(action);
}

int run(CLI::App& app, int argc, char** argv, std::function<int()> action) {
  if (action) actions()[&app] = std::move(action);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return exit_ok;
  } catch (const CLI::CallForAllHelp&) {
    std::cout << app.help("", CLI::AppFormatMode::All);
    return exit_ok;
  } catch (const CLI::CallForVersion&) {
    std::cout << app.version() << '\n';
    return exit_ok;
  } catch (const CLI::ParseError& e) {
    // A subcommand's --help raises from inside; print that subcommand's help.
    if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) {
      std::cout << selected_leaf(app)->help();
      return exit_ok;
    }
    const std::string leftover = leftover_message(app);
    print_error(!leftover.empty() ? leftover
                                  : std::string(e.what()) + " (see '" + command_path(selected_leaf(app)) + " --help')");
    return exit_usage;
  }
  const CLI::App* leaf = selected_leaf(app);
  auto it = actions().find(leaf);
  if (it == actions().end() || !it->second) {
    print_error("choose a command (see '" + command_path(leaf) + " --help')");
    return exit_usage;
  }
  try {
    return it->second();
  } catch (const usage_error& e) {
    print_error(std::string(e.what()) + " (see '" + command_path(leaf) + " --help')");
    return exit_usage;
  } catch (const units::unit_error& e) {
    print_error(e.what());
    return exit_usage;
  } catch (const std::exception& e) {
    print_error(e.what());
    return exit_failure;
  }
}

CLI::Option* add_quantity(CLI::App& cmd, const std::string& flag, double& target, double (*parse)(std::string_view),
                          const std::string& description) {
  return cmd.add_option_function<std::string>(
      flag,
      [&target, parse, flag = first_name(flag)](const std::string& text) {
        try {
          target = parse(text);
        } catch (const units::unit_error& e) {
          throw CLI::ValidationError(flag, e.what());
        }
      },
      description);
}

CLI::Option* add_duration(CLI::App& cmd, const std::string& flag, double& seconds, const std::string& description,
                          double min_s, double max_s) {
  return cmd
      .add_option_function<std::string>(
          flag,
          [&seconds, flag = first_name(flag), min_s, max_s](const std::string& text) {
            double value = 0;
            try {
              value = units::parse_duration_s(text);
            } catch (const units::unit_error& e) {
              throw CLI::ValidationError(flag, e.what());
            }
            if (value < min_s || value > max_s)
              throw CLI::ValidationError(flag, fmt::format("'{}' is outside {} .. {}", text,
                                                           units::format_seconds(min_s), units::format_seconds(max_s)));
            seconds = value;
          },
          description)
      ->type_name("DURATION");
}

CLI::Option* add_byte_count(CLI::App& cmd, const std::string& flag, std::uint64_t& bytes,
                            const std::string& description) {
  return cmd
      .add_option_function<std::string>(
          flag,
          [&bytes, flag = first_name(flag)](const std::string& text) {
            double value = 0;
            try {
              value = units::parse_bytes(text);
            } catch (const units::unit_error& e) {
              throw CLI::ValidationError(flag, e.what());
            }
            if (value != std::floor(value) || value > 1e18)
              throw CLI::ValidationError(flag, "'" + text + "' is not a whole number of bytes");
            bytes = static_cast<std::uint64_t>(value);
          },
          description)
      ->type_name("SIZE");
}

const CLI::Validator& input_file() {
  static const CLI::Validator v(
      [](std::string& path) -> std::string {
        if (!exists(path)) return "'" + path + "': no such file";
        if (is_directory(path)) return "'" + path + "' is a folder, not a file";
        return {};
      },
      "FILE");
  return v;
}

const CLI::Validator& input_folder() {
  static const CLI::Validator v(
      [](std::string& path) -> std::string {
        if (!exists(path)) return "'" + path + "': no such folder";
        if (!is_directory(path)) return "'" + path + "' is a file, not a folder";
        return {};
      },
      "DIR");
  return v;
}

void require_input_file(const std::string& what, const std::string& path) {
  if (!exists(path)) throw usage_error(what + ": '" + path + "': no such file");
  if (is_directory(path)) throw usage_error(what + ": '" + path + "' is a folder, not a file");
}

nlohmann::json tidy_numbers(const nlohmann::json& doc) {
  if (doc.is_number_float()) return tidy_number(doc.get<double>());
  if (doc.is_array()) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& v : doc) out.push_back(tidy_numbers(v));
    return out;
  }
  if (doc.is_object()) {
    nlohmann::json out = nlohmann::json::object();
    for (auto it = doc.begin(); it != doc.end(); ++it) out[it.key()] = tidy_numbers(it.value());
    return out;
  }
  return doc;
}

CLI::Option* add_json_flag(CLI::App& cmd, bool& json) {
  return cmd.add_flag("--json", json, "Print one JSON document (snake_case keys, units in key names)");
}

void print_json(const nlohmann::json& doc) {
  std::cout << tidy_numbers(doc).dump(2) << std::endl;
}

host_port parse_host_port(const std::string& text, unsigned short default_port) {
  host_port hp;
  std::string host = text;
  std::string port;
  if (!text.empty() && text.front() == '[') {  // [::1]:8080
    const auto close = text.find(']');
    if (close == std::string::npos) throw usage_error("'" + text + "': missing ']' in an IPv6 address");
    host = text.substr(1, close - 1);
    if (close + 1 < text.size()) {
      if (text[close + 1] != ':') throw usage_error("'" + text + "': expected ':' after ']'");
      port = text.substr(close + 2);
    }
  } else if (auto colon = text.rfind(':'); colon != std::string::npos && text.find(':') == colon) {
    host = text.substr(0, colon);
    port = text.substr(colon + 1);
  }
  if (host.empty()) host = "127.0.0.1";
  hp.host = host;
  hp.port = default_port;
  if (!port.empty()) {
    std::size_t used = 0;
    long value = -1;
    try {
      value = std::stol(port, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != port.size() || value < 0 || value > 65535)
      throw usage_error("'" + text + "': the port must be a number from 0 to 65535 (0 picks a free port)");
    hp.port = static_cast<unsigned short>(value);
  }
  return hp;
}

// --listen HOST:PORT: HOST must be an IP address (a server binds to one of its own); a name such as
// `nohost` is a usage error (exit 2, docs/conventions.md), before any socket is made.
namespace {
// A numeric IPv4 or IPv6 address (an IPv6 one may carry a %scope): what a server can bind to.
bool is_ip_address(const std::string& host) {
  unsigned char buf[sizeof(in6_addr)];
  if (inet_pton(AF_INET, host.c_str(), buf) == 1) return true;
  const std::string bare = host.substr(0, host.find('%'));
  return inet_pton(AF_INET6, bare.c_str(), buf) == 1;
}
}  // namespace

CLI::Option* add_listen_option(CLI::App& cmd, host_port& target, const std::string& default_value) {
  target = parse_host_port(default_value);
  return cmd
      .add_option_function<std::string>(
          "--listen",
          [&target](const std::string& text) {
            try {
              target = parse_host_port(text);
            } catch (const usage_error& e) {
              throw CLI::ValidationError("--listen", e.what());
            }
            // A server binds to one of this machine's addresses, given as a number (tcp_server
            // and udp_socket take no names): anything else is a usage error, before any socket.
            if (!is_ip_address(target.host))
              throw CLI::ValidationError("--listen",
                                         "'" + target.host +
                                             "' is not an IP address: give one of this "
                                             "machine's addresses, e.g. 127.0.0.1 or ::1 (0.0.0.0 or :: for all)");
          },
          "Address to listen on, HOST:PORT (port 0 picks a free port; default " + default_value + ")")
      ->type_name("HOST:PORT");
}

bool stderr_is_terminal() {
  return isatty(STDERR_FILENO) == 1;
}

}  // namespace netlib::app
