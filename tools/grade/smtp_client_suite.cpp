// The SMTP client suite. Theory of operation: lab-smtp serve (domain example.org, users alice and
// bob) runs behind the recording relay; the working folder holds message.eml (headers and a body
// with lines that start with a dot) and body.txt (the body alone); the student's command sends it.
// The relay's recording is read as lab-smtp analyze reads a capture (read_wire below): commands
// and the DATA block, each paired with its reply (RFC 2920 pipelining keeps their order); the
// maildir shows what was stored.
#include "smtp_client_suite.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>

#include "client_dialogue.hpp"
#include "netlib/core/ascii.hpp"
#include "netlib/mail/message_text.hpp"
#include "netlib/smtp/session_analyzer.hpp"

namespace netlab::grade {

namespace smtp_client_suite_local {

constexpr const char* message_body =
    "Hello from netlab-grade.\r\n"
    ".this line starts with a dot\r\n"
    "..and this one with two\r\n"
    "a plain last line\r\n";

std::string message_text(const smtp_client_options& o) {
  return fmt::format("From: <{}>\r\nTo: <{}>\r\nSubject: netlab-grade client test\r\n\r\n{}", o.sender,
                     o.recipients.front(), message_body);
}

// What the client sent: commands and, after an accepted DATA, the raw message up to <CRLF>.<CRLF>.
struct smtp_wire {
  std::vector<client_command> commands;  // DATA's content is one item, verb "<message>"
  std::vector<int> codes;                // the reply paired with each item (0: none)
  std::string data_raw;                  // the first DATA block as sent, without the final "."
  bool data_ended = false;
};

// Each conversation is read by netlib::smtp::session_analyzer, the reader of lab-smtp analyze
// and netlab-replay (one pairing rule for all three): the commands and message texts in the
// client's order, each with the bytes it was sent as. What the client sent after the last item
// it completed (a line without its line end) is kept too, unanswered, so the checks see it; the
// text of a message never ended with "." is not.
smtp_wire read_wire(const std::vector<conversation>& convs) {
  smtp_wire w;
  for (const auto& conv : convs) {
    netlib::smtp::session_analyzer analyzer;
    const std::string client = feed_relayed(conv, analyzer);
    const auto& s = analyzer.session();
    std::size_t read = 0;
    for (const auto& it : netlib::smtp::units_in_client_order(s)) {
      const std::string raw = client.substr(it.begin, it.end - it.begin);
      if (it.message) {
        // The text as sent, without its "." line.
        const auto dot = raw.size() >= 3 && raw.ends_with(".\r\n") ? raw.size() - 3 : raw.size() - 2;
        if (!w.data_ended) w.data_raw = raw.substr(0, dot);
        w.data_ended = true;
        w.commands.push_back({raw, "<message>", ""});
      } else {
        w.commands.push_back(parse_command(raw));
      }
      w.codes.push_back(it.reply_code.value_or(0));
      read = it.end;
    }
    const bool text_open = !w.commands.empty() && w.commands.back().verb == "DATA" && w.codes.back() == 354;
    if (!s.encrypted && !text_open) {
      for (auto& c : unread_lines(client, read)) {
        w.commands.push_back(std::move(c));
        w.codes.push_back(0);
      }
    }
  }
  return w;
}

std::string body_of(const std::string& message) {
  const auto at = message.find("\r\n\r\n");
  return at == std::string::npos ? std::string() : message.substr(at + 4);
}

// swaks ends DATA with <CRLF>.<CRLF> after a file that already ends with CRLF: an empty last
// line that changes no content.
std::string without_trailing_lines(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
  return s;
}

struct smtp_context {
  const smtp_client_options& o;
  const smtp_wire& w;
  std::string maildir;
};

check_result ehlo_check(const smtp_context& x) {
  auto c = make_check("ehlo_first", "RFC 5321 §3.2, §4.1.1.1",
                      "the first command is EHLO (or HELO) with a domain, "
                      "answered 250",
                      2);
  const bool ok = !x.w.commands.empty() && (x.w.commands[0].verb == "EHLO" || x.w.commands[0].verb == "HELO") &&
                  !x.w.commands[0].arg.empty() && x.w.codes[0] == 250;
  if (ok) c.passed = true;
  return ok ? c
            : fail(c, "the session does not open with EHLO/HELO domain", command_list(x.w.commands),
                   "EHLO client.example");
}

check_result order_check(const smtp_context& x) {
  auto c = make_check("mail_rcpt_data_order", "RFC 5321 §3.3, §4.1.4",
                      "MAIL FROM, then RCPT TO, then DATA, each accepted (250, 250, 354) and the message 250", 2);
  std::string seen;
  for (std::size_t i = 0; i < x.w.commands.size(); ++i) {
    const auto& v = x.w.commands[i].verb;
    const int code = x.w.codes[i];
    if (v == "MAIL" && code == 250 && seen.empty())
      seen = "M";
    else if (v == "RCPT" && (code == 250 || code == 251) && (seen == "M" || seen == "R"))
      seen = "R";
    else if (v == "DATA" && code == 354 && seen == "R")
      seen = "D";
    else if (v == "<message>" && code == 250 && seen == "D")
      seen = "done";
  }
  c.passed = seen == "done";
  return c.passed ? c
                  : fail(c, "no accepted MAIL, RCPT..., DATA, message sequence", command_list(x.w.commands),
                         "MAIL FROM:<a> 250, RCPT TO:<b> 250, DATA 354, message 250");
}

check_result recipients_check(const smtp_context& x) {
  auto c = make_check("recipients", "RFC 5321 §4.1.1.3",
                      "one RCPT TO:<mailbox> for each intended recipient, "
                      "and no other",
                      2);
  std::vector<std::string> got, want;
  for (const auto& cmd : x.w.commands) {
    if (cmd.verb == "RCPT") got.push_back(cmd.arg);
  }
  for (const auto& r : x.o.recipients) want.push_back("TO:<" + r + ">");
  auto norm = [](std::vector<std::string> v) {
    for (auto& s : v) netlib::ascii::lower_in_place(s);
    std::sort(v.begin(), v.end());
    return v;
  };
  c.passed = norm(got) == norm(want);
  std::string expected;
  for (const auto& r : want) expected += (expected.empty() ? "RCPT " : ", RCPT ") + r;
  return c.passed ? c
                  : fail(c, fmt::format("{} RCPT commands do not name the {} recipients", got.size(), want.size()),
                         command_list(x.w.commands), expected);
}

check_result stuffing_check(const smtp_context& x) {
  auto c = make_check("dot_stuffing", "RFC 5321 §4.5.2",
                      "every message line that starts with '.' is sent with one more '.'", 2);
  if (!x.w.data_ended) return fail(c, "no message was sent with DATA", command_list(x.w.commands), "a DATA block");
  for (const auto& line : split_lf(message_body)) {
    if (!line.starts_with(".")) continue;
    if (x.w.data_raw.find("\n." + line) == std::string::npos) {
      return fail(c, "the line \"" + printable(line.substr(0, line.size() - 2)) + "\" was not dot-stuffed",
                  x.w.data_raw, "." + printable(line));
    }
  }
  c.passed = true;
  return c;
}

check_result stored_check(const smtp_context& x) {
  auto c = make_check("message_stored_intact", "RFC 5321 §4.5.2, §6.1",
                      "each recipient's mailbox received the message, its body byte-identical (trailing empty "
                      "lines aside)",
                      3);
  for (const auto& r : x.o.recipients) {
    const auto box = x.maildir + "/" + r.substr(0, r.find('@')) + "/new";
    std::vector<std::string> bodies;
    std::error_code ec;
    // Maildir files have LF line ends (lab-smtp serve stores them so): compared as sent, with CRLF.
    for (const auto& e : std::filesystem::directory_iterator(box, ec))
      bodies.push_back(body_of(netlib::mail::to_crlf(read_whole_file(e.path()))));
    if (bodies.size() == 1 && without_trailing_lines(bodies[0]) == without_trailing_lines(message_body)) continue;
    c.received = bodies.empty() ? "" : printable(bodies[0]);
    return fail(
        c, fmt::format("{} holds {} messages{}", r, bodies.size(), bodies.size() == 1 ? ", with another body" : ""),
        x.w.data_raw, "one message whose body is " + printable(message_body));
  }
  c.passed = true;
  return c;
}

check_result quit_check(const smtp_context& x) {
  auto c = make_check("quit_221", "RFC 5321 §4.1.1.10", "the session ends with QUIT, answered 221", 1);
  c.passed = !x.w.commands.empty() && x.w.commands.back().verb == "QUIT" && x.w.codes.back() == 221;
  return c.passed ? c : fail(c, "the last command is not QUIT", command_list(x.w.commands), "QUIT answered 221");
}

check_result crlf_check(const smtp_context& x) {
  auto c =
      make_check("crlf_line_endings", "RFC 5321 §2.3.8, §4.1.1.4", "every command and message line ends with CRLF", 1);
  for (const auto& cmd : x.w.commands) {
    for (const auto& line : split_lf(cmd.raw)) {
      if (!ends_with_crlf(line)) return fail(c, "a line ends without CRLF", line, "CRLF after every line");
    }
  }
  c.passed = !x.w.commands.empty();
  return c.passed ? c : fail(c, "the client sent nothing", "", "EHLO ... CRLF");
}

}  // namespace smtp_client_suite_local

suite_result run_smtp_client_suite(smtp_client_options o) {
  using namespace smtp_client_suite_local;
  if (o.recipients.empty()) o.recipients.push_back("alice@example.org");
  temp_folder server("smtp");
  temp_folder client("client");
  std::ofstream(server.path + "/users.txt") << "alice:secret\nbob:hunter2\ncarol:carol\n";
  std::ofstream(client.path + "/message.eml", std::ios::binary) << message_text(o);
  std::ofstream(client.path + "/body.txt", std::ios::binary) << message_body;
  std::string rcpts;
  for (const auto& r : o.recipients) rcpts += (rcpts.empty() ? "" : " ") + r;
  const std::map<std::string, std::string> values{{"{from}", o.sender},
                                                  {"{rcpt}", o.recipients.front()},
                                                  {"{rcpts}", rcpts},
                                                  {"{message}", client.path + "/message.eml"},
                                                  {"{body}", client.path + "/body.txt"}};
  const auto t = run_client({o.lab_smtp, "serve", "--maildir", server.path + "/mail", "--domain", "example.org",
                             "--users", server.path + "/users.txt", "--listen", "127.0.0.1:0"},
                            values, client, o.client);
  const auto w = read_wire(t.conversations);
  const smtp_context x{o, w, server.path + "/mail"};
  suite_result r{"smtp", client_target(o.client), {}};
  r.checks = {exit_check(t),     ehlo_check(x),   order_check(x), recipients_check(x),
              stuffing_check(x), stored_check(x), quit_check(x),  crlf_check(x)};
  return r;
}

}  // namespace netlab::grade
