// netlab-grade: conformance suites run against a student's server (--target) or, with --client CMD,
// a student's client against the reference server, with a human table, JSON, JUnit XML and
// Gradescope output. Exit 0 when every check passed, 1 otherwise, 2 on usage errors.
#include <fmt/format.h>

#include <chrono>
#include <cmath>

#include "autograder_commands.hpp"
#include "dc_schedule_suite.hpp"
#include "dc_suite.hpp"
#include "ftp_client_suite.hpp"
#include "ftp_suite.hpp"
#include "http_client_suite.hpp"
#include "http_suite.hpp"
#include "http_throughput.hpp"
#include "netlib/app/process.hpp"
#include "netlib/app/program.hpp"
#include "output.hpp"
#include "pop3_client_suite.hpp"
#include "pop3_suite.hpp"
#include "questions.hpp"
#include "quiz_suite.hpp"
#include "smtp_client_suite.hpp"
#include "smtp_suite.hpp"
#include "switch_suite.hpp"

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
    std::vector<std::string> paths;
    double timeout_s = 3;
    output_options out;
    http_client_options client;
    double throughput_s = 0;
    std::string reference_root;
  };
  auto s = std::make_shared<state>();
  auto* cmd = netlib::app::add_command(
      app, "http",
      "Grade an HTTP/1.1 server: status codes, fields, framing, persistence, pipelining, "
      "conditional GET, ranges, path safety; or, with --client CMD, an HTTP client against lab-http serve",
      "netlab-grade http --target 127.0.0.1:8080 --path /index.html --gradescope results.json");
  cmd->add_option("--target", s->target, "The server to grade, HOST:PORT");
  cmd->add_option("--path", s->paths,
                  "An existing, non-empty file on the server (served with 200; default /). With --client: a "
                  "target the client must fetch (repeat for several; default /index.html of the prepared site)");
  add_client_options(*cmd, s->client.client,
                     "{url} (http://{host}:{port}PATH, the first --path) {urls} (every --path as a URL) {path}. "
                     "Examples: --client 'curl -s {url}', --client 'wget -q -O {out} {url}', --client "
                     "'python3 my_client.py {host} {port} {path}', --client 'lab-http get {url} -o {out}'");
  cmd->add_option("--root", s->client.root,
                  "With --client: serve this folder instead of the prepared site "
                  "(index.html, second.txt, logo.bin)")
      ->check(netlib::app::input_folder());
  cmd->add_flag("--conditional", s->client.conditional,
                "With --client: the client must revalidate with a conditional GET answered 304, e.g. "
                "--client 'curl -sR -o {out} {url} && curl -sR -z {out} -o {out} {url}'");
  netlib::app::add_duration(*cmd, "--timeout", s->timeout_s, "Time to wait for each reply (default 3s)", 0.1, 120);
  netlib::app::add_duration(*cmd, "--throughput", s->throughput_s,
                            "With --target: also measure keep-alive requests/s of --path for 3 rounds of this long "
                            "each, against lab-http serving --reference-root in the same run (the ratio is a "
                            "Gradescope leaderboard entry)",
                            0.1, 30);
  cmd->add_option(
         "--reference-root", s->reference_root,
         "With --throughput: the folder lab-http serves for the comparison (it holds --path as the target does)")
      ->check(netlib::app::input_folder());
  add_output_options(*cmd, s->out);
  netlib::app::set_action(*cmd, [s]() {
    require_target_or_client(s->target, s->client.client);
    if ((s->throughput_s > 0) != !s->reference_root.empty())
      throw netlib::app::usage_error("--throughput and --reference-root go together");
    for (const auto& p : s->paths) {
      if (p.empty() || p[0] != '/') throw netlib::app::usage_error("--path must start with '/'");
    }
    if (!s->client.client.command.empty()) {
      auto o = s->client;
      o.paths = s->paths;
      o.lab_http = netlib::app::own_directory() + "/lab-http";
      return emit(run_http_client_suite(o), s->out);
    }
    if (s->paths.size() > 1) throw netlib::app::usage_error("--target takes one --path");
    const auto hp = parse_target(s->target);
    http_options o{hp.host, hp.port, s->paths.empty() ? "/" : s->paths.front(), millis(s->timeout_s)};
    auto result = run_http_suite(o);
    if (s->throughput_s > 0) {
      throughput_options t;
      t.seconds = s->throughput_s;
      t.reference_root = s->reference_root;
      t.lab_http = netlib::app::own_directory() + "/lab-http";
      measure_throughput(o, t, result);
    }
    return emit(result, s->out);
  });
}

void add_smtp_command(CLI::App& app) {
  struct state {
    std::string target;
    std::vector<std::string> recipients;
    std::string sender = "grader@netlab-grade.test";
    std::string maildir;
    double timeout_s = 3;
    output_options out;
    smtp_client_options client;
  };
  auto s = std::make_shared<state>();
  auto* cmd = netlib::app::add_command(
      app, "smtp",
      "Grade an SMTP server: greeting, EHLO/HELO, command sequence, syntax, unknown users, relaying, "
      "delivery with dot-stuffing, QUIT; or, with --client CMD, an SMTP client against lab-smtp serve",
      "netlab-grade smtp --target 127.0.0.1:2525 --rcpt alice@example.org --json");
  cmd->add_option("--target", s->target, "The server to grade, HOST:PORT");
  cmd->add_option("--rcpt", s->recipients,
                  "A mailbox the server delivers to (repeat for several recipients). With --client: the intended "
                  "recipients, users of example.org (alice, bob, carol; default alice@example.org)");
  cmd->add_option("--from", s->sender, "Sender address for MAIL FROM (with --client: carol@example.net)");
  cmd->add_option("--maildir", s->maildir,
                  "With --target: the folder the server stores mail in (its own --maildir): deliver_message then "
                  "also requires the message in DIR/USER/new (or cur) of each --rcpt, dot-stuffing undone (the "
                  "server may create DIR at its first delivery)");
  add_client_options(*cmd, s->client.client,
                     "{from} {rcpt} (the first --rcpt) {rcpts} (all, space-separated) {message} (a message file "
                     "with headers; body lines start with dots) {body} (its body alone). Examples: --client "
                     "'swaks --server {host}:{port} --from {from} --to {rcpt} --data {message}', --client "
                     "'lab-smtp send --server {host}:{port} --from {from} --to {rcpt} --raw < {message}', --client "
                     "'python3 my_client.py {host} {port} {from} {rcpt} {message}'");
  netlib::app::add_duration(*cmd, "--timeout", s->timeout_s, "Time to wait for each reply (default 3s)", 0.1, 120);
  add_output_options(*cmd, s->out);
  netlib::app::set_action(*cmd, [s]() {
    require_target_or_client(s->target, s->client.client);
    for (const auto& r : s->recipients) {
      if (r.find('@') == std::string::npos || r.find_first_of(" <>\r\n") != std::string::npos) {
        throw netlib::app::usage_error("--rcpt '" + r + "' is not a mailbox like alice@example.org");
      }
    }
    if (!s->client.client.command.empty()) {
      if (!s->maildir.empty()) {
        throw netlib::app::usage_error("--maildir goes with --target (with --client, lab-smtp stores the mail)");
      }
      auto o = s->client;
      o.recipients = s->recipients;
      if (s->sender != "grader@netlab-grade.test") o.sender = s->sender;
      for (const auto& r : o.recipients) {
        if (!r.ends_with("@example.org"))
          throw netlib::app::usage_error("with --client, --rcpt must be USER@example.org");
      }
      o.lab_smtp = netlib::app::own_directory() + "/lab-smtp";
      return emit(run_smtp_client_suite(o), s->out);
    }
    if (s->recipients.empty()) throw netlib::app::usage_error("--target needs --rcpt MAILBOX");
    const auto hp = parse_target(s->target);
    smtp_options o{hp.host, hp.port, s->recipients, s->sender, millis(s->timeout_s), s->maildir};
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
    pop3_client_options client;
  };
  auto s = std::make_shared<state>();
  auto* cmd = netlib::app::add_command(
      app, "pop3",
      "Grade a POP3 server: greeting, USER/PASS, states, STAT/LIST/RETR agreement, DELE/RSET, QUIT "
      "(the account needs at least one message; nothing is deleted); or, with --client CMD, a POP3 "
      "client against lab-pop3 serve",
      "netlab-grade pop3 --target 127.0.0.1:1100 --user alice --pass secret --json");
  cmd->add_option("--target", s->target, "The server to grade, HOST:PORT");
  cmd->add_option("--user", s->user, "An account whose maildrop holds at least one message");
  cmd->add_option("--pass", s->password, "Its password");
  add_client_options(*cmd, s->client.client,
                     "{user} (alice) {pass} (secret) {msg} (the first --message). The maildrop holds 2 messages. "
                     "Examples: --client 'lab-pop3 fetch --server {host}:{port} --user {user} --password {pass} "
                     "--out {out}', --client 'curl -s pop3://{user}:{pass}@{host}:{port}/1', --client "
                     "'python3 my_client.py {host} {port} {user} {pass} {msg}'");
  cmd->add_option("--message", s->client.messages,
                  "With --client: a message number the client must RETR "
                  "(1 or 2, repeat; default both)")
      ->check(CLI::Range(1, 2));
  netlib::app::add_duration(*cmd, "--timeout", s->timeout_s, "Time to wait for each reply (default 3s)", 0.1, 120);
  add_output_options(*cmd, s->out);
  netlib::app::set_action(*cmd, [s]() {
    require_target_or_client(s->target, s->client.client);
    if (!s->client.client.command.empty()) {
      auto o = s->client;
      o.lab_pop3 = netlib::app::own_directory() + "/lab-pop3";
      return emit(run_pop3_client_suite(o), s->out);
    }
    if (s->user.empty() || s->password.empty()) throw netlib::app::usage_error("--target needs --user and --pass");
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
    double login_delay_s = 5;
    output_options out;
    ftp_client_options client;
  };
  auto s = std::make_shared<state>();
  auto* cmd = netlib::app::add_command(
      app, "ftp",
      "Grade an FTP server: greeting, login, reply codes, PWD/CWD/TYPE, LIST and RETR over PASV, EPSV "
      "and PORT data connections, QUIT; or, with --client CMD, an FTP client against lab-ftp serve",
      "netlab-grade ftp --target 127.0.0.1:2121 --user alice --pass secret --file hello.txt --json");
  cmd->add_option("--target", s->target, "The server to grade, HOST:PORT");
  cmd->add_option("--user", s->o.user, "An account (not anonymous: a wrong password must be refused)");
  cmd->add_option("--pass", s->o.password, "Its password");
  cmd->add_option("--file", s->o.file, "An existing, non-empty file in the login folder, as RETR names it");
  add_client_options(*cmd, s->client.client,
                     "{user} (alice) {pass} (secret) {file} (netlab.bin, the remote name) {local} (with --upload: "
                     "{dir}/upload.bin, the file to send) {url} (ftp://alice:secret@{host}:{port}/netlab.bin). "
                     "Examples: --client 'curl -s -o {out} {url}', --client 'wget -q -O {out} {url}', --client "
                     "'lab-ftp get {url} -o {out}', --client 'python3 my_client.py {host} {port} {user} {pass} "
                     "{file} {out}', --upload --client 'curl -s -T {local} {url}'");
  cmd->add_flag("--upload", s->client.upload, "With --client: the client must upload {local} as {file} (STOR)");
  netlib::app::add_duration(*cmd, "--timeout", s->timeout_s, "Time to wait for each reply (default 3s)", 0.1, 120);
  netlib::app::add_duration(*cmd, "--login-delay", s->login_delay_s,
                            "How much longer than --timeout the refusal of a wrong password may take: servers delay "
                            "it to slow down guessing (pyftpdlib 3 s, vsftpd 1 s; default 5s)",
                            0, 120);
  add_output_options(*cmd, s->out);
  netlib::app::set_action(*cmd, [s]() {
    require_target_or_client(s->target, s->client.client);
    if (!s->client.client.command.empty()) {
      auto o = s->client;
      o.lab_ftp = netlib::app::own_directory() + "/lab-ftp";
      return emit(run_ftp_client_suite(o), s->out);
    }
    if (s->o.user.empty() || s->o.password.empty() || s->o.file.empty()) {
      throw netlib::app::usage_error("--target needs --user, --pass and --file");
    }
    const auto hp = parse_target(s->target);
    auto o = s->o;
    o.host = hp.host;
    o.port = hp.port;
    o.timeout = millis(s->timeout_s);
    o.login_delay = millis(s->login_delay_s);
    return emit(run_ftp_suite(o), s->out);
  });
}

void add_switch_command(CLI::App& app) {
  struct state {
    switch_options o;
    double aging_s = -1;  // not given: the reference switch's default
    std::string vlan_config;
    std::string capacity;
    std::string policy;
    std::vector<std::string> statics;
    std::vector<std::string> hairpin;
    output_options out;
  };
  auto s = std::make_shared<state>();
  auto* cmd = netlib::app::add_command(
      app, "switch", "Grade a student's forwarding decisions for a capture against the reference learning switch",
      "netlab-grade switch --capture captures/switch/four_hosts.pcapng --decisions student.json --gradescope "
      "results.json");
  cmd->add_option("--capture", s->o.capture, "The capture the student's switch replayed (pcapng; interface = port)")
      ->required()
      ->check(netlib::app::input_file());
  cmd->add_option("--decisions", s->o.decisions,
                  "The student's JSON: [{\"frame\": 1, \"decision\": \"flood\", \"out_ports\": [1,2,3]}, ...] "
                  "or {\"frames\": [...]} as lab-switch replay --json prints")
      ->required();
  cmd->add_option("--lab-switch", s->o.lab_switch, "The reference lab-switch binary (default: next to netlab-grade)");
  netlib::app::add_duration(*cmd, "--aging", s->aging_s,
                            "Aging time given to the reference switch, e.g. 10s, 5min (0: entries never age)", 0, 1e9);
  cmd->add_option("--vlan-config", s->vlan_config, "VLAN configuration file given to the reference switch")
      ->check(netlib::app::input_file());
  cmd->add_option("--capacity", s->capacity, "Table capacity given to the reference switch");
  cmd->add_option("--policy", s->policy,
                  "Full-table policy of the reference switch (evict-fair or stop-learning); with --static and "
                  "--hairpin it fixes the policy, else the student's file may declare one in \"switch\"")
      ->check(CLI::IsMember({"evict-fair", "stop-learning"}));
  cmd->add_option("--static", s->statics, "Static entry MAC=PORT[@VLAN] of the reference switch (repeatable)");
  cmd->add_option("--hairpin", s->hairpin, "Hairpin port of the reference switch (repeatable)");
  add_output_options(*cmd, s->out);
  netlib::app::set_action(*cmd, [s]() {
    auto o = s->o;
    if (o.lab_switch.empty()) o.lab_switch = netlib::app::own_directory() + "/lab-switch";
    if (s->aging_s >= 0) {
      o.switch_args.insert(o.switch_args.end(), {"--aging", fmt::format("{}ns", std::llround(s->aging_s * 1e9))});
    }
    if (!s->vlan_config.empty()) o.switch_args.insert(o.switch_args.end(), {"--vlan-config", s->vlan_config});
    if (!s->capacity.empty()) o.switch_args.insert(o.switch_args.end(), {"--capacity", s->capacity});
    if (!s->policy.empty()) o.switch_args.insert(o.switch_args.end(), {"--policy", s->policy});
    for (const auto& e : s->statics) o.switch_args.insert(o.switch_args.end(), {"--static", e});
    for (const auto& h : s->hairpin) o.switch_args.insert(o.switch_args.end(), {"--hairpin", h});
    o.policy_fixed = !s->policy.empty() || !s->statics.empty() || !s->hairpin.empty();
    return emit(run_switch_suite(o), s->out);
  });
}

void add_dc_command(CLI::App& app) {
  struct state {
    dc_options o;
    std::string topology = "leaf-spine:4x2", hash = "crc16", fields, seed = "same", pattern = "uniform", size, protocol;
    std::size_t flows = 50;
    std::uint64_t traffic_seed = 1;
    std::uint32_t hash_seed = 0;
    output_options out;
    std::vector<std::string> jobs;  // a ring all-reduce schedule (dc_schedule_suite.hpp) instead of ECMP flows
    std::string scheduler = "fair";
  };
  auto s = std::make_shared<state>();
  auto* cmd = netlib::app::add_command(
      app, "dc",
      "Grade a student's ECMP hashes, paths or per-link bytes for a set of flows against the reference model "
      "(lab-dc ecmp)",
      "netlab-grade dc --answers student.json --topology leaf-spine:4x2 --flows 50 --hash crc16 --grade hash,path");
  cmd->add_option("--answers", s->o.answers,
                  "The student's JSON: {\"flows\": [{\"flow\": 0, \"hash\": N, \"path\": [\"h1\", \"leaf1\", ...]}], "
                  "\"links\": [{\"a\": \"leaf1\", \"b\": \"spine1\", \"a_to_b\": BYTES, \"b_to_a\": BYTES}]}")
      ->required();  // a missing file is graded (answers_complete fails), not a usage error
  auto* grade = cmd->add_option("--grade", s->o.grade,
                                "What to grade: hash, path, loads (default path); with --job: path, collisions, steps, "
                                "bandwidth (default all)")
                    ->delimiter(',')
                    ->check(CLI::IsMember({"hash", "path", "loads", "collisions", "steps", "bandwidth"}));
  cmd->add_option("--topology", s->topology, "As lab-dc ecmp --topology")->capture_default_str();
  cmd->add_option("--flows", s->flows, "As lab-dc ecmp --flows")->capture_default_str();
  cmd->add_option("--pattern", s->pattern, "As lab-dc ecmp --pattern")->capture_default_str();
  cmd->add_option("--size", s->size, "As lab-dc ecmp --size");
  cmd->add_option("--protocol", s->protocol, "As lab-dc ecmp --protocol");
  cmd->add_option("--traffic-seed", s->traffic_seed, "As lab-dc ecmp --traffic-seed")->capture_default_str();
  cmd->add_option("--hash", s->hash, "As lab-dc ecmp --hash")->capture_default_str();
  cmd->add_option("--fields", s->fields, "As lab-dc ecmp --fields");
  cmd->add_option("--seed", s->seed, "As lab-dc ecmp --seed (same or per-switch)")->capture_default_str();
  cmd->add_option("--hash-seed", s->hash_seed, "As lab-dc ecmp --hash-seed")->capture_default_str();
  cmd->add_option("--lab-dc", s->o.lab_dc, "The reference lab-dc binary (default: next to netlab-grade)");
  cmd->add_option("--job", s->jobs,
                  "Grade a ring all-reduce schedule instead (lab-dc collective): a job as lab-dc collective --job "
                  "takes it, repeatable; the answers are {\"jobs\": [...], \"flows\": [...], \"collisions\": [...]}");
  cmd->add_option("--scheduler", s->scheduler, "With --job: the schedule graded, fair or crux")
      ->capture_default_str()
      ->check(CLI::IsMember({"fair", "crux"}));
  add_output_options(*cmd, s->out);
  netlib::app::set_action(*cmd, [s, grade]() {
    auto o = s->o;
    if (o.lab_dc.empty()) o.lab_dc = netlib::app::own_directory() + "/lab-dc";
    if (!s->jobs.empty()) {
      dc_schedule_options so;
      so.answers = o.answers;
      so.lab_dc = o.lab_dc;
      so.scheduler = s->scheduler;
      if (grade->count() > 0) so.grade = o.grade;
      for (const auto& k : so.grade) {
        if (k == "hash" || k == "loads")
          throw netlib::app::usage_error("--grade " + k + ": with --job, grade path, collisions, steps or bandwidth");
      }
      so.collective_args = {"--topology", s->topology, "--hash",      s->hash,
                            "--seed",     s->seed,     "--hash-seed", std::to_string(s->hash_seed)};
      if (!s->fields.empty()) so.collective_args.insert(so.collective_args.end(), {"--fields", s->fields});
      for (const auto& j : s->jobs) so.collective_args.insert(so.collective_args.end(), {"--job", j});
      return emit(run_dc_schedule_suite(so), s->out);
    }
    o.ecmp_args = {"--topology",     s->topology,
                   "--flows",        std::to_string(s->flows),
                   "--pattern",      s->pattern,
                   "--traffic-seed", std::to_string(s->traffic_seed),
                   "--hash",         s->hash,
                   "--seed",         s->seed,
                   "--hash-seed",    std::to_string(s->hash_seed)};
    if (!s->fields.empty()) o.ecmp_args.insert(o.ecmp_args.end(), {"--fields", s->fields});
    if (!s->size.empty()) o.ecmp_args.insert(o.ecmp_args.end(), {"--size", s->size});
    if (!s->protocol.empty()) o.ecmp_args.insert(o.ecmp_args.end(), {"--protocol", s->protocol});
    return emit(run_dc_suite(o), s->out);
  });
}

}  // namespace

int main(int argc, char** argv) {
  auto app =
      netlib::app::make_app("netlab-grade",
                            "Conformance grading of lab servers (--target) and clients (--client CMD), with table, "
                            "JSON, JUnit and Gradescope output",
                            "netlab-grade http --target 127.0.0.1:8080 --path /index.html --json");
  add_http_command(*app);
  add_smtp_command(*app);
  add_pop3_command(*app);
  add_ftp_command(*app);
  add_switch_command(*app);
  add_dc_command(*app);
  add_questions_command(*app);
  add_quiz_command(*app);
  add_variant_command(*app);
  add_notice_command(*app);
  app->require_subcommand(1);
  return netlib::app::run(*app, argc, argv);
}
