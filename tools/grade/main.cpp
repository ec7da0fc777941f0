// netlab-grade: conformance suites run against a student's server, with a human table, JSON,
// JUnit XML and Gradescope output. Exit 0 when every check passed, 1 otherwise, 2 on usage errors.
#include <chrono>

#include "http_suite.hpp"
#include "ftp_suite.hpp"
#include "pop3_suite.hpp"
#include "smtp_suite.hpp"
#include "switch_suite.hpp"
#include "netlib/app/process.hpp"
#include "netlib/app/program.hpp"
#include "output.hpp"

namespace {

using namespace netlab::grade;

std::chrono::milliseconds millis(double seconds) {
  return std::chrono::milliseconds(static_cast<long>(seconds * 1000));
}

netlib::app::host_port parse_target(const std::string& text) {
  const auto hp = netlib::app::parse_host_port(text);
  if (hp.port == 0) throw netlib::app::usage_error("--target needs a port: HOST:PORT");
  return hp;
}

void add_http_command(CLI::App& app) {
  struct state {
    std::string target;
    std::string path = "/";
    double timeout_s = 3;
    output_options out;
  };
  auto s = std::make_shared<state>();
  auto* cmd = netlib::app::add_command(
      app, "http", "Grade an HTTP/1.1 server: status codes, fields, framing, persistence, pipelining, "
                   "conditional GET, ranges, path safety",
      "netlab-grade http --target 127.0.0.1:8080 --path /index.html --gradescope results.json");
  cmd->add_option("--target", s->target, "The server to grade, HOST:PORT")->required();
  cmd->add_option("--path", s->path, "An existing, non-empty file on the server (served with 200)")
      ->capture_default_str();
  cmd->add_option("--timeout", s->timeout_s, "Seconds to wait for each reply")->capture_default_str()
      ->check(CLI::Range(0.1, 120.0));
  add_output_options(*cmd, s->out);
  netlib::app::set_action(*cmd, [s]() {
    const auto hp = parse_target(s->target);
    if (s->path.empty() || s->path[0] != '/') throw netlib::app::usage_error("--path must start with '/'");
    http_options o{hp.host, hp.port, s->path, millis(s->timeout_s)};
    return emit(run_http_suite(o), s->out);
  });
}

void add_smtp_command(CLI::App& app) {
  struct state {
    std::string target;
    std::vector<std::string> recipients;
    std::string sender = "grader@netlab-grade.test";
    double timeout_s = 3;
    output_options out;
  };
  auto s = std::make_shared<state>();
  auto* cmd = netlib::app::add_command(
      app, "smtp", "Grade an SMTP server: greeting, EHLO/HELO, command sequence, syntax, unknown users, relaying, "
                   "delivery with dot-stuffing, QUIT",
      "netlab-grade smtp --target 127.0.0.1:2525 --rcpt alice@example.org --json");
  cmd->add_option("--target", s->target, "The server to grade, HOST:PORT")->required();
  cmd->add_option("--rcpt", s->recipients, "A mailbox the server delivers to (repeat for several recipients)")
      ->required();
  cmd->add_option("--from", s->sender, "Sender address for MAIL FROM")->capture_default_str();
  cmd->add_option("--timeout", s->timeout_s, "Seconds to wait for each reply")->capture_default_str()
      ->check(CLI::Range(0.1, 120.0));
  add_output_options(*cmd, s->out);
  netlib::app::set_action(*cmd, [s]() {
    const auto hp = parse_target(s->target);
    for (const auto& r : s->recipients) {
      if (r.find('@') == std::string::npos || r.find_first_of(" <>\r\n") != std::string::npos) {
        throw netlib::app::usage_error("--rcpt '" + r + "' is not a mailbox like alice@example.org");
      }
    }
    smtp_options o{hp.host, hp.port, s->recipients, s->sender, millis(s->timeout_s)};
    return emit(run_smtp_suite(o), s->out);
  });
}

void add_pop3_command(CLI::App& app) {
  struct state {
    std::string target;
    std::string user;
    std::string password;
    double timeout_s = 3;
    output_options out;
  };
  auto s = std::make_shared<state>();
  auto* cmd = netlib::app::add_command(
      app, "pop3", "Grade a POP3 server: greeting, USER/PASS, states, STAT/LIST/RETR agreement, DELE/RSET, QUIT "
                   "(the account needs at least one message; nothing is deleted)",
      "netlab-grade pop3 --target 127.0.0.1:1100 --user alice --pass secret --json");
  cmd->add_option("--target", s->target, "The server to grade, HOST:PORT")->required();
  cmd->add_option("--user", s->user, "An account whose maildrop holds at least one message")->required();
  cmd->add_option("--pass", s->password, "Its password")->required();
  cmd->add_option("--timeout", s->timeout_s, "Seconds to wait for each reply")->capture_default_str()
      ->check(CLI::Range(0.1, 120.0));
  add_output_options(*cmd, s->out);
  netlib::app::set_action(*cmd, [s]() {
    const auto hp = parse_target(s->target);
    pop3_options o{hp.host, hp.port, s->user, s->password, millis(s->timeout_s)};
    return emit(run_pop3_suite(o), s->out);
  });
}

void add_ftp_command(CLI::App& app) {
  struct state {
    std::string target;
    ftp_options o;
    double timeout_s = 3;
    output_options out;
  };
  auto s = std::make_shared<state>();
  auto* cmd = netlib::app::add_command(
      app, "ftp", "Grade an FTP server: greeting, login, reply codes, PWD/CWD/TYPE, LIST and RETR over PASV, EPSV "
                  "and PORT data connections, QUIT",
      "netlab-grade ftp --target 127.0.0.1:2121 --user alice --pass secret --file hello.txt --json");
  cmd->add_option("--target", s->target, "The server to grade, HOST:PORT")->required();
  cmd->add_option("--user", s->o.user, "An account (not anonymous: a wrong password must be refused)")->required();
  cmd->add_option("--pass", s->o.password, "Its password")->required();
  cmd->add_option("--file", s->o.file, "An existing, non-empty file in the login folder, as RETR names it")
      ->required();
  cmd->add_option("--timeout", s->timeout_s, "Seconds to wait for each reply")->capture_default_str()
      ->check(CLI::Range(0.1, 120.0));
  add_output_options(*cmd, s->out);
  netlib::app::set_action(*cmd, [s]() {
    const auto hp = parse_target(s->target);
    auto o = s->o;
    o.host = hp.host;
    o.port = hp.port;
    o.timeout = millis(s->timeout_s);
    return emit(run_ftp_suite(o), s->out);
  });
}

void add_switch_command(CLI::App& app) {
  struct state {
    switch_options o;
    std::string aging;
    std::string vlan_config;
    std::string capacity;
    output_options out;
  };
  auto s = std::make_shared<state>();
  auto* cmd = netlib::app::add_command(
      app, "switch", "Grade a student's forwarding decisions for a capture against the reference learning switch",
      "netlab-grade switch --capture captures/switch/four_hosts.pcapng --decisions student.json --gradescope results.json");
  cmd->add_option("--capture", s->o.capture, "The capture the student's switch replayed (pcapng; interface = port)")
      ->required()->check(CLI::ExistingFile);
  cmd->add_option("--decisions", s->o.decisions,
                  "The student's JSON: [{\"frame\": 1, \"decision\": \"flood\", \"out_ports\": [1,2,3]}, ...] "
                  "or {\"frames\": [...]} as lab-switch replay --json prints")
      ->required();
  cmd->add_option("--lab-switch", s->o.lab_switch, "The reference lab-switch binary (default: next to netlab-grade)");
  cmd->add_option("--aging", s->aging, "Aging time given to the reference switch, e.g. 10s");
  cmd->add_option("--vlan-config", s->vlan_config, "VLAN configuration file given to the reference switch");
  cmd->add_option("--capacity", s->capacity, "Table capacity given to the reference switch");
  add_output_options(*cmd, s->out);
  netlib::app::set_action(*cmd, [s]() {
    auto o = s->o;
    if (o.lab_switch.empty()) o.lab_switch = netlib::app::own_directory() + "/lab-switch";
    if (!s->aging.empty()) o.switch_args.insert(o.switch_args.end(), {"--aging", s->aging});
    if (!s->vlan_config.empty()) o.switch_args.insert(o.switch_args.end(), {"--vlan-config", s->vlan_config});
    if (!s->capacity.empty()) o.switch_args.insert(o.switch_args.end(), {"--capacity", s->capacity});
    return emit(run_switch_suite(o), s->out);
  });
}

}  // namespace

int main(int argc, char** argv) {
  auto app = netlib::app::make_app(
      "netlab-grade", "Conformance grading of lab servers, with table, JSON, JUnit and Gradescope output",
      "netlab-grade http --target 127.0.0.1:8080 --path /index.html --json");
  add_http_command(*app);
  add_smtp_command(*app);
  add_pop3_command(*app);
  add_ftp_command(*app);
  add_switch_command(*app);
  app->require_subcommand(1);
  return netlib::app::run(*app, argc, argv);
}
