// The POP3 client suite. Theory of operation: lab-pop3 serve runs behind the recording relay on a
// maildrop of two messages for alice (password secret; the first has a line starting with a dot,
// byte-stuffed on the wire by the server, RFC 1939 §3); the student's command fetches them. The
// relay's recording is read as lab-pop3 analyze reads a capture (read_wire below): the client's
// lines are the commands, each paired with its response.
#include "pop3_client_suite.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "client_dialogue.hpp"
#include "netlib/pop3/session_analyzer.hpp"

namespace netlab::grade {

namespace pop3_client_suite_local {

const std::vector<std::string>& maildrop() {
  static const std::vector<std::string> messages{
      "From: <bob@example.org>\r\nTo: <alice@example.org>\r\nSubject: first\r\n\r\nThe first message.\r\n"
      ".a line that starts with a dot\r\n",
      "From: <carol@example.net>\r\nTo: <alice@example.org>\r\nSubject: second\r\n\r\nThe second message, "
      "somewhat longer:\r\n" +
          std::string(40, 'x') + "\r\nend\r\n"};
  return messages;
}

struct pop3_item {
  client_command command;
  bool ok = false;       // answered +OK
  std::string response;  // the response's status and text (empty when there was none)
};

// Each conversation is read by netlib::pop3::session_analyzer, the reader of lab-pop3 analyze:
// every command paired with its response, multi-line responses read to their "." line. What the
// client sent after its last complete line is kept too, unanswered, so the checks see it.
std::vector<pop3_item> read_wire(const std::vector<conversation>& convs) {
  std::vector<pop3_item> items;
  for (const auto& conv : convs) {
    netlib::pop3::session_analyzer analyzer;
    const std::string client = feed_relayed(conv, analyzer);
    const auto& s = analyzer.session();
    std::size_t read = 0;
    for (const auto& c : s.commands) {
      if (c.client_end == c.client_begin) continue;
      pop3_item it{parse_command(client.substr(c.client_begin, c.client_end - c.client_begin)), c.status == "+OK",
                   c.status ? *c.status + " " + c.text : std::string()};
      items.push_back(std::move(it));
      read = c.client_end;
    }
    if (!s.encrypted) {
      for (auto& c : unread_lines(client, read)) items.push_back({std::move(c), false, {}});
    }
  }
  return items;
}

std::string item_list(const std::vector<pop3_item>& items) {
  std::string out;
  for (const auto& i : items) out += i.command.raw;
  return out;
}

std::string lf_only(std::string s) {
  s.erase(std::remove(s.begin(), s.end(), '\r'), s.end());
  return s;
}

bool is_transaction(const std::string& verb) {
  return verb == "STAT" || verb == "LIST" || verb == "RETR" || verb == "DELE" || verb == "UIDL" || verb == "TOP" ||
         verb == "NOOP" || verb == "RSET";
}

check_result login_check(const std::vector<pop3_item>& items) {
  auto c = make_check("login_before_transaction", "RFC 1939 §4, §7 (USER, PASS)",
                      "USER then PASS (or APOP), answered +OK, before any transaction command", 2);
  bool user = false;
  for (const auto& i : items) {
    if (i.command.verb == "USER" && i.ok) user = true;
    if ((i.command.verb == "PASS" && user && i.ok) || (i.command.verb == "APOP" && i.ok)) {
      c.passed = true;
      return c;
    }
    if (is_transaction(i.command.verb)) break;
  }
  return fail(c, "no accepted USER/PASS login before the first transaction command", item_list(items),
              "USER alice, PASS secret, each answered +OK");
}

check_result retr_check(const std::vector<pop3_item>& items, const std::vector<int>& wanted) {
  auto c = make_check("retr_messages", "RFC 1939 §5 (RETR)", "RETR of each wanted message number, answered +OK", 3);
  for (const int n : wanted) {
    const bool found = std::any_of(items.begin(), items.end(), [&](const pop3_item& i) {
      return i.command.verb == "RETR" && i.command.arg == std::to_string(n) && i.ok;
    });
    if (!found)
      return fail(c, fmt::format("message {} was not retrieved", n), item_list(items), fmt::format("RETR {}", n));
  }
  c.passed = true;
  return c;
}

check_result content_check(const client_transcript& t, const std::vector<int>& wanted) {
  auto c = make_check("messages_saved", "RFC 1939 §3 (byte-stuffing undone), lab requirement: save what was fetched",
                      "the client's output ({out}, else stdout) holds each wanted message, dot-unstuffed", 2);
  const auto got = lf_only(t.output);
  for (const int n : wanted) {
    const auto want = lf_only(maildrop()[static_cast<std::size_t>(n - 1)]);
    if (got.find(want) != std::string::npos) continue;
    c.received = printable(t.output);
    return fail(c, fmt::format("{} does not hold message {}", t.output_source, n), "", printable(want));
  }
  c.passed = true;
  return c;
}

check_result no_delete_check(const std::vector<pop3_item>& items) {
  auto c = make_check("no_unasked_dele", "RFC 1939 §5 (DELE), lab requirement: leave mail on the server",
                      "no DELE was sent (the task does not ask to delete)", 1);
  for (const auto& i : items) {
    if (i.command.verb == "DELE") return fail(c, "the client deleted a message", item_list(items), "no DELE");
  }
  c.passed = !items.empty();
  return c.passed ? c : fail(c, "the client sent nothing", "", "a session without DELE");
}

check_result quit_check(const std::vector<pop3_item>& items) {
  auto c = make_check("quit_ok", "RFC 1939 §6 (QUIT, UPDATE state)", "the session ends with QUIT, answered +OK", 1);
  c.passed = !items.empty() && items.back().command.verb == "QUIT" && items.back().ok;
  return c.passed ? c : fail(c, "the last command is not QUIT", item_list(items), "QUIT answered +OK");
}

check_result crlf_check(const std::vector<pop3_item>& items) {
  auto c = make_check("crlf_line_endings", "RFC 1939 §3", "every command ends with CRLF", 1);
  for (const auto& i : items) {
    if (!ends_with_crlf(i.command.raw)) return fail(c, "a command ends without CRLF", i.command.raw, "CRLF");
  }
  c.passed = !items.empty();
  return c.passed ? c : fail(c, "the client sent nothing", "", "USER alice CRLF");
}

void prepare_maildrop(const std::string& root) {
  namespace fs = std::filesystem;
  fs::create_directories(root + "/mail/alice/new");
  fs::create_directories(root + "/mail/alice/cur");
  fs::create_directories(root + "/mail/alice/tmp");
  std::ofstream(root + "/users.txt") << "alice:secret\n";
  const auto now = fs::file_time_type::clock::now();
  for (std::size_t i = 0; i < maildrop().size(); ++i) {
    const auto path = fmt::format("{}/mail/alice/new/{}.netlab-grade.msg{}", root, 1000 + i, i + 1);
    std::ofstream(path, std::ios::binary) << maildrop()[i];
    fs::last_write_time(path, now - std::chrono::hours(2) + std::chrono::minutes(static_cast<int>(i)));
  }
}

}  // namespace pop3_client_suite_local

suite_result run_pop3_client_suite(pop3_client_options o) {
  using namespace pop3_client_suite_local;
  if (o.messages.empty()) o.messages = {1, 2};
  temp_folder server("pop3");
  temp_folder client("client");
  prepare_maildrop(server.path);
  const std::map<std::string, std::string> values{
      {"{user}", "alice"}, {"{pass}", "secret"}, {"{msg}", std::to_string(o.messages.front())}};
  const auto t = run_client({o.lab_pop3, "serve", "--maildir", server.path + "/mail", "--users",
                             server.path + "/users.txt", "--listen", "127.0.0.1:0"},
                            values, client, o.client);
  const auto items = read_wire(t.conversations);
  suite_result r{"pop3", client_target(o.client), {}};
  r.checks = {exit_check(t),
              login_check(items),
              retr_check(items, o.messages),
              content_check(t, o.messages),
              no_delete_check(items),
              quit_check(items),
              crlf_check(items)};
  return r;
}

}  // namespace netlab::grade
