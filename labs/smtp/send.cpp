// lab-smtp send: the textbook's mail client. Reads the body (or with --raw the whole message) on
// stdin, builds the message (MIME multipart with --attach), and runs the SMTP client core.
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <iterator>
#include <memory>

#include <fmt/format.h>

#include "commands.hpp"
#include "common/mail_files.hpp"
#include "netlib/app/input_file.hpp"
#include "netlib/app/program.hpp"
#include "netlib/app/random.hpp"
#include "netlib/io/smtp_driver.hpp"
#include "netlib/io/tls.hpp"
#include "netlib/mail/message_builder.hpp"
#include "netlib/mail/message_text.hpp"
#include "netlib/smtp/command.hpp"

namespace lab_smtp {
namespace {

struct send_options {
  std::string server = "127.0.0.1:25";
  std::string from;
  std::vector<std::string> to;
  std::string subject;
  bool starttls = false;
  std::string auth;
  std::vector<std::string> attach;
  bool trace = false;
  bool raw = false;
  bool insecure = false;
  std::string ca_file;
  std::string ehlo = "localhost";
  double timeout_s = 30;
  bool json = false;
};

std::string random_token() {
  return netlib::app::random_hex(8);
}

// Far above any server's SIZE (lab-smtp serve takes 10 MiB).
constexpr std::size_t max_attachment_bytes = 64 << 20;

std::string build(const send_options& o, const std::string& body) {
  if (o.raw) return netlib::mail::to_crlf(body);
  netlib::mail::message_fields f;
  f.from = o.from;
  f.to = o.to;
  f.subject = o.subject;
  f.date = std::chrono::time_point_cast<std::chrono::seconds>(std::chrono::system_clock::now());
  f.message_id = random_token() + "@" + o.ehlo;
  f.boundary = "=_netlab_" + random_token();
  std::vector<netlib::mail::attachment> files;
  for (const auto& path : o.attach)
    files.push_back({std::filesystem::path(path).filename().string(), "application/octet-stream",
                     netlib::app::read_input_file("--attach", path, max_attachment_bytes)});
  return netlib::mail::build_message(f, body, files);
}

void check_addresses(const send_options& o) {
  if (!o.from.empty() && !netlib::smtp::valid_mailbox(o.from))
    throw netlib::app::usage_error("--from '" + o.from + "' is not an address like user@example.org");
  for (const auto& t : o.to)
    if (!netlib::smtp::valid_mailbox(t))
      throw netlib::app::usage_error("--to '" + t + "' is not an address like user@example.org");
  // Options that would be ignored or that contradict each other are usage errors (docs/conventions.md).
  if (!o.starttls && (o.insecure || !o.ca_file.empty()))
    throw netlib::app::usage_error("--insecure and --ca-file are used only with --starttls");
  if (o.insecure && !o.ca_file.empty())
    throw netlib::app::usage_error("--insecure verifies nothing, so --ca-file would not be used: give one of them");
  if (o.raw && (!o.attach.empty() || !o.subject.empty()))
    throw netlib::app::usage_error(
        "--raw sends stdin as the whole message; it cannot be combined with --subject or --attach");
}

int send(const send_options& o) {
  check_addresses(o);
  const auto hp = netlib::app::parse_host_port(o.server, 25);
  netlib::smtp::client_options co;
  co.ehlo_name = o.ehlo;
  co.starttls = o.starttls;
  if (!o.auth.empty()) co.auth = lab_mail::split_credentials(o.auth, "--auth");
  const std::string body(std::istreambuf_iterator<char>(std::cin), {});
  const std::string message = build(o, body);
  const auto ep =
      netlib::io::make_client_endpoint({hp.host, hp.port, o.timeout_s, o.starttls, o.insecure, o.ca_file, o.trace});
  const auto r = netlib::io::smtp_send(ep, co, {o.from, o.to}, message);
  if (o.json) {
    nlohmann::json rejected = nlohmann::json::array();
    for (const auto& [who, why] : r.rejected)
      rejected.push_back({{"address", who}, {"reply_code", why.code}, {"reply", why.text()}});
    netlib::app::print_json({{"delivered", r.delivered},
                             {"accepted", r.accepted},
                             {"rejected", rejected},
                             {"message_bytes", message.size()},
                             {"server_reply", r.queue_reply},
                             {"error", r.error}});
  } else if (r.delivered) {
    std::cout << fmt::format("sent {} bytes to {} recipient(s): {}\n", message.size(), r.accepted.size(),
                             r.queue_reply);
  }
  if (!r.error.empty()) throw netlib::app::failure(r.error);
  return netlib::app::exit_ok;
}

}  // namespace

void add_send(CLI::App& app) {
  auto o = std::make_shared<send_options>();
  auto* cmd = netlib::app::add_command(app, "send", "Send one message (body on stdin) through an SMTP server",
                                       "echo 'Hello Bob' | lab-smtp send --server 127.0.0.1:2525 --from "
                                       "alice@example.org --to bob@example.org --subject Hi --trace",
                                       [o] { return send(*o); });
  cmd->add_option("--server", o->server, "SMTP server HOST:PORT")->capture_default_str();
  cmd->add_option("--from", o->from, "Envelope sender and From: address")->required();
  cmd->add_option("--to", o->to, "Recipient (repeat for more)")->required();
  cmd->add_option("--subject", o->subject, "Subject: line");
  cmd->add_flag("--starttls", o->starttls, "Switch to TLS with STARTTLS before sending (RFC 3207)");
  cmd->add_option("--auth", o->auth, "USER:PASSWORD for AUTH PLAIN (needs --starttls on lab-smtp serve)");
  cmd->add_option("--attach", o->attach, "Attach a file (repeat for more): MIME multipart/mixed, base64");
  cmd->add_flag("--trace", o->trace, "Show the SMTP dialogue on stderr (C: client, S: server)");
  cmd->add_flag("--raw", o->raw, "Stdin is the whole message, headers included; send it as it is");
  cmd->add_flag("--insecure", o->insecure, "With --starttls: do not verify the server certificate");
  cmd->add_option("--ca-file", o->ca_file, "With --starttls: verify the server against this PEM CA file")
      ->check(netlib::app::input_file());
  cmd->add_option("--ehlo", o->ehlo, "Name to give in EHLO")->capture_default_str();
  netlib::app::add_duration(*cmd, "--timeout", o->timeout_s, "Time to wait for each reply (default 30s)", 0.001, 3600);
  netlib::app::add_json_flag(*cmd, o->json);
}

}  // namespace lab_smtp
