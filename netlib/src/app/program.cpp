#include "netlib/app/program.hpp"

#include <unistd.h>

#include <iostream>
#include <map>

#include "netlib/core/units.hpp"

namespace netlib::app {
namespace {

std::string& name_storage() {
  static std::string name = "netlab";
  return name;
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

}  // namespace

const std::string& program_name() { return name_storage(); }

std::unique_ptr<CLI::App> make_app(const std::string& name, const std::string& description,
                                   const std::string& example) {
  name_storage() = name;
  auto app = std::make_unique<CLI::App>(description, name);
  app->set_version_flag("--version", std::string(name) + " (netlab) " + NETLAB_VERSION);
  app->footer("\nExample:\n  " + example);
  app->get_formatter()->column_width(34);
  return app;
}

CLI::App* add_command(CLI::App& parent, const std::string& name, const std::string& description,
                      const std::string& example, std::function<int()> action) {
  CLI::App* cmd = parent.add_subcommand(name, description);
  cmd->footer("\nExample:\n  " + example);
  if (action) actions()[cmd] = std::move(action);
  return cmd;
}

void set_action(CLI::App& command, std::function<int()> action) { actions()[&command] = std::move(action); }

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
    print_error(std::string(e.what()) + " (see '" + command_path(selected_leaf(app)) + " --help')");
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

CLI::Option* add_quantity(CLI::App& cmd, const std::string& flag, double& target,
                          double (*parse)(std::string_view), const std::string& description) {
  return cmd.add_option_function<std::string>(
      flag,
      [&target, parse, flag](const std::string& text) {
        try {
          target = parse(text);
        } catch (const units::unit_error& e) {
          throw CLI::ValidationError(flag, e.what());
        }
      },
      description);
}

CLI::Option* add_json_flag(CLI::App& cmd, bool& json) {
  return cmd.add_flag("--json", json, "Print one JSON document (snake_case keys, units in key names)");
}

void print_json(const nlohmann::json& doc) { std::cout << doc.dump(2) << std::endl; }

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
          },
          "Address to listen on, HOST:PORT (port 0 picks a free port; default " + default_value + ")")
      ->type_name("HOST:PORT");
}

bool stderr_is_terminal() { return isatty(STDERR_FILENO) == 1; }

}  // namespace netlib::app
