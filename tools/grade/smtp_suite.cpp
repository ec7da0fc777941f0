// The SMTP suite. Each check opens its own connection, expects the 220 greeting, then runs its
// script: a command line and the reply codes RFC 5321 allows for it. The first step answered
// with another code (or not at all) fails the check, naming the step.
#include "smtp_suite.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <filesystem>
#include <thread>

#include "client_run.hpp"
#include "common/smtp_probe.hpp"
#include "netlib/app/random.hpp"
#include "probe_session.hpp"

namespace netlab::grade {

namespace smtp_suite_local {

struct step {
  std::string line;         // sent with CRLF appended by the script builder; empty: read only
  std::vector<int> accept;  // reply codes that conform
};

using script_fn = std::vector<step> (*)(const smtp_options&);

struct smtp_check {
  const char* name;
  const char* rule;
  const char* description;
  double weight;
  script_fn script;
  bool then_closed = false;  // after the script the server must close the connection
};

std::string domain_of(const std::string& mailbox) {
  return mailbox.substr(mailbox.rfind('@') + 1);
}

step ehlo() {
  return {"EHLO netlab-grade.test\r\n", {250}};
}
step mail(const smtp_options& o) {
  return {"MAIL FROM:<" + o.sender + ">\r\n", {250}};
}
step rcpt(const std::string& to) {
  return {"RCPT TO:<" + to + ">\r\n", {250, 251}};
}

// The Message-ID of this run's delivered message: how the grader finds it in the mail store.
const std::string& message_id() {
  // From the kernel (netlib::app::random_hex), not std::random_device: the release bundle's
  // static libstdc++ would import arc4random, above its glibc floor (cmake/NetlabPortable.cmake).
  static const std::string id = fmt::format("<netlab-grade.{}@netlab-grade.test>", netlib::app::random_hex(8));
  return id;
}

// The body line that starts with a dot: sent dot-stuffed, stored with the extra dot removed.
constexpr std::string_view dot_line = ".this line starts with a dot (RFC 5321 4.5.2)";

std::string message(const smtp_options& o) {
  return fmt::format(
      "From: <{}>\r\nTo: <{}>\r\nSubject: netlab-grade\r\nMessage-ID: {}\r\n\r\n"
      "A test message from netlab-grade.\r\n.{}\r\n.\r\n",
      o.sender, o.recipients.front(), message_id(), dot_line);
}

std::vector<step> greeting(const smtp_options&) {
  return {};
}
std::vector<step> ehlo_only(const smtp_options&) {
  return {ehlo()};
}
std::vector<step> helo_only(const smtp_options&) {
  return {{"HELO netlab-grade.test\r\n", {250}}};
}
std::vector<step> noop(const smtp_options&) {
  return {ehlo(), {"NOOP\r\n", {250}}};
}
std::vector<step> unknown(const smtp_options&) {
  return {ehlo(), {"XYZZY\r\n", {500, 502}}};
}
std::vector<step> rcpt_first(const smtp_options& o) {
  return {ehlo(), {"RCPT TO:<" + o.recipients.front() + ">\r\n", {503}}};
}
std::vector<step> data_first(const smtp_options& o) {
  return {ehlo(), mail(o), {"DATA\r\n", {503, 554}}};
}
std::vector<step> bad_mail(const smtp_options&) {
  return {ehlo(), {"MAIL FROM:not an address\r\n", {501, 553}}};
}
std::vector<step> rset(const smtp_options& o) {
  return {ehlo(), mail(o), {"RSET\r\n", {250}}, {"RCPT TO:<" + o.recipients.front() + ">\r\n", {503}}};
}
std::vector<step> unknown_user(const smtp_options& o) {
  return {
      ehlo(), mail(o), {"RCPT TO:<netlab-grade-nobody@" + domain_of(o.recipients.front()) + ">\r\n", {550, 551, 553}}};
}
std::vector<step> relay(const smtp_options& o) {
  return {ehlo(), mail(o), {"RCPT TO:<someone@elsewhere.invalid>\r\n", {550, 551, 553, 554}}};
}
std::vector<step> long_line(const smtp_options&) {
  return {ehlo(), {"NOOP " + std::string(1000, 'x') + "\r\n", {500, 501}}};
}
std::vector<step> deliver(const smtp_options& o) {
  std::vector<step> s{ehlo(), mail(o)};
  for (const auto& r : o.recipients) s.push_back(rcpt(r));
  s.push_back({"DATA\r\n", {354}});
  s.push_back({message(o), {250}});
  s.push_back({"QUIT\r\n", {221}});
  return s;
}
std::vector<step> quit(const smtp_options&) {
  return {ehlo(), {"QUIT\r\n", {221}}};
}

std::string codes_text(const std::vector<int>& codes) {
  std::string out;
  for (std::size_t i = 0; i < codes.size(); ++i)
    out += (i == 0 ? "" : i + 1 == codes.size() ? " or " : ", ") + std::to_string(codes[i]);
  return out;
}

std::string label(const std::string& line) {
  if (line.empty()) return "the greeting";
  if (line.size() > 60 || line.find("\r\n") + 2 != line.size()) return "the message ending with <CRLF>.<CRLF>";
  return line.substr(0, line.size() - 2);
}

// Where `mailbox`'s messages are stored: DIR/USER/new and DIR/USER/cur (Maildir), USER being the
// local part as given or in lower case.
std::vector<std::filesystem::path> stored_messages(const std::string& maildir, const std::string& mailbox) {
  std::vector<std::filesystem::path> out;
  const auto local = mailbox.substr(0, mailbox.rfind('@'));
  std::string lower = local;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char ch) { return std::tolower(ch); });
  for (const auto& user : lower == local ? std::vector<std::string>{local} : std::vector<std::string>{local, lower}) {
    for (const char* sub : {"new", "cur"}) {
      std::error_code ec;
      for (std::filesystem::directory_iterator it(std::filesystem::path(maildir) / user / sub, ec), end;
           !ec && it != end; it.increment(ec)) {
        if (it->is_regular_file(ec)) out.push_back(it->path());
      }
    }
  }
  return out;
}

// What deliver_message finds in the mail store for one recipient: empty when the message is
// there with its dot-stuffing undone, else why not.
std::string stored_problem(const smtp_options& o, const std::string& mailbox) {
  for (const auto& file : stored_messages(o.maildir, mailbox)) {
    const auto text = read_whole_file(file.string());
    if (text.find(message_id()) == std::string::npos) continue;
    const auto at = text.find(std::string(dot_line));
    if (at == std::string::npos)
      return fmt::format("{}: the stored message lost the line '{}'", file.string(), dot_line);
    if (at > 0 && text[at - 1] == '.') {
      return fmt::format("{}: the stored message keeps the dot-stuffing ('.{}')", file.string(), dot_line);
    }
    return {};
  }
  return fmt::format("no message with Message-ID {} in {}/{}/new or cur", message_id(), o.maildir,
                     mailbox.substr(0, mailbox.rfind('@')));
}

// After a delivery the server answered 250 to: the message must be in every recipient's mailbox
// (RFC 5321 §4.1.1.4: the 250 means the server has taken responsibility for it). A server that
// writes after its reply gets the reply timeout to do so.
void check_stored(const smtp_options& o, const smtp_probe& p, check_result& c) {
  const auto deadline = std::chrono::steady_clock::now() + o.timeout;
  std::vector<std::string> problems;
  for (;;) {
    problems.clear();
    for (const auto& r : o.recipients) {
      if (auto problem = stored_problem(o, r); !problem.empty()) problems.push_back(r + ": " + problem);
    }
    if (problems.empty() || std::chrono::steady_clock::now() >= deadline) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  if (problems.empty()) return;
  c.partial = 0;
  record_failure(
      c, p, fmt::format("the server answered 250 to the message but did not store it: {}", fmt::join(problems, "; ")),
      fmt::format("the message (Message-ID {}) in {}/USER/new or cur of each recipient, its line '{}' stored "
                  "with one dot",
                  message_id(), o.maildir, dot_line));
}

void run_check(const smtp_options& o, const smtp_check& spec, check_result& c) {
  smtp_probe p(o.host, o.port, o.timeout);
  auto steps = spec.script(o);
  steps.insert(steps.begin(), step{"", {220}});
  for (const auto& s : steps) {
    const auto expected = fmt::format("{} to {}", codes_text(s.accept), label(s.line));
    auto reply = s.line.empty() || p.send(s.line) ? p.read_reply() : std::nullopt;
    if (!reply) {
      record_failure(c, p, fmt::format("no reply to {}: {}", label(s.line), p.error()), expected);
    } else if (std::find(s.accept.begin(), s.accept.end(), reply->code) == s.accept.end()) {
      record_failure(c, p, fmt::format("{} answered {} instead", label(s.line), reply->code), expected);
    } else {
      continue;
    }
    return;
  }
  if (spec.then_closed && !p.wait_closed()) {
    record_failure(c, p, "the server did not close the connection after 221",
                   "221, then the server closes the connection");
    return;
  }
  c.passed = true;
  if (spec.script == deliver && !o.maildir.empty()) check_stored(o, p, c);
}

const std::vector<smtp_check>& smtp_checks() {
  static const std::vector<smtp_check> checks{
      {"greeting_220", "RFC 5321 §3.1, §4.2", "a new connection is greeted with 220", 1, greeting},
      {"ehlo_250", "RFC 5321 §4.1.1.1", "EHLO is answered 250", 1, ehlo_only},
      {"helo_250", "RFC 5321 §4.1.1.1", "HELO is answered 250", 1, helo_only},
      {"noop_250", "RFC 5321 §4.1.1.9", "NOOP is answered 250", 1, noop},
      {"unknown_command_500", "RFC 5321 §4.2.4", "an unknown command is answered 500 (or 502)", 1, unknown},
      {"rcpt_before_mail_503", "RFC 5321 §4.1.4, §4.3.2", "RCPT before MAIL is a bad sequence: 503", 1, rcpt_first},
      {"data_before_rcpt_503", "RFC 5321 §3.3, §4.1.4", "DATA without a recipient is refused with 503 (or 554)", 1,
       data_first},
      {"mail_syntax_501", "RFC 5321 §4.1.1.2, §4.2.2", "MAIL FROM without a <path> is a syntax error: 501", 1,
       bad_mail},
      {"rset_clears_transaction", "RFC 5321 §4.1.1.5", "after RSET, RCPT needs a new MAIL (503)", 1, rset},
      {"unknown_user_550", "RFC 5321 §4.2.2, lab requirement: deliver only to known users",
       "RCPT to an unknown local user is refused with 550", 1, unknown_user},
      {"relay_denied", "RFC 5321 §3.6.1, lab requirement: no open relay", "RCPT to a foreign domain is refused (5xx)",
       2, relay},
      {"line_too_long_500", "RFC 5321 §4.5.3.1.4, §4.5.3.1.10", "a command line over 512 octets is refused: 500", 1,
       long_line},
      {"deliver_message", "RFC 5321 §3.3, §4.1.1.4, §4.5.2",
       "MAIL, RCPT for each recipient, DATA (dot-stuffed) and QUIT succeed", 3, deliver},
      {"quit_221_closes", "RFC 5321 §4.1.1.10", "QUIT is answered 221 and the server closes the connection", 1, quit,
       true},
  };
  return checks;
}

}  // namespace smtp_suite_local

suite_result run_smtp_suite(const smtp_options& options) {
  using namespace smtp_suite_local;
  suite_result result{"smtp", options.host + ":" + std::to_string(options.port), {}};
  for (const auto& spec : smtp_checks()) {
    auto c = make_check(spec.name, spec.rule, spec.description, spec.weight);
    if (spec.script == deliver) {
      c.description += options.maildir.empty() ? " (that it was stored is not checked: no --maildir)"
                                               : ", and the message is stored in each recipient's Maildir";
    }
    run_check(options, spec, c);
    result.checks.push_back(std::move(c));
  }
  return result;
}

}  // namespace netlab::grade
