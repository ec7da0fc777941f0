// The POP3 suite. Each check is one session on its own connection: greeting, then commands, each
// expected to answer +OK or -ERR as RFC 1939 says; the first step answered otherwise fails the
// check, naming the step. Every session ends with QUIT (after RSET where DELE was used), so the
// next check finds the maildrop unlocked and unchanged.
#include "pop3_suite.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <optional>
#include <regex>
#include <sstream>

#include "common/tcp_probe.hpp"
#include "netlib/pop3/response.hpp"
#include "probe_session.hpp"

namespace netlab::grade {

namespace pop3_suite_local {

using netlib::pop3::response;

class session : public probe_session {
 public:
  session(const pop3_options& o, check_result& c) : probe_session(c, o.host, o.port, o.timeout), o_(o) {}

  // Sends `line` (nothing for the greeting) and reads the response; nullopt after failing the
  // check when nothing came back or the status was not the expected one.
  std::optional<response> expect(const std::string& line, bool want_ok, bool multiline = false) {
    if (failed_) return std::nullopt;
    const auto label = line.empty() ? std::string("the greeting") : line;
    if (!line.empty() && !probe_.send(line + "\r\n"))
      return fail("cannot send " + label + ": " + probe_.error(), want_ok, label);
    auto r = read(multiline && want_ok);
    if (!r) return fail(fmt::format("no response to {}: {}", label, probe_.error()), want_ok, label);
    if (r->ok != want_ok)
      return fail(fmt::format("{} answered {}", label, r->ok ? "+OK" : "-ERR " + r->text), want_ok, label);
    return r;
  }
  bool login() { return expect("USER " + o_.user, true) && expect("PASS " + o_.password, true); }
  [[nodiscard]] const std::string& user() const { return o_.user; }

 private:
  std::optional<response> fail(std::string reason, bool want_ok, const std::string& label) {
    fail_with(std::move(reason), fmt::format("{} to {}", want_ok ? "+OK" : "-ERR", label));
    return std::nullopt;
  }
  std::optional<response> read(bool multiline) {
    netlib::pop3::response_parser parser;
    for (int round = 0; round < 100000; ++round) {
      auto r = parser.next(probe_.buffer().data(), multiline);
      probe_.buffer().consume(r.consumed);
      if (r.status == netlib::pop3::response_status::response) return r.value;
      if (r.status == netlib::pop3::response_status::malformed) {
        probe_.set_error("the response starts with neither +OK nor -ERR");
        return std::nullopt;
      }
      if (!probe_.read_more()) return std::nullopt;
    }
    return std::nullopt;
  }

  const pop3_options& o_;
};

// "+OK nn mm" of STAT (RFC 1939 §5): message count and maildrop size.
std::optional<std::pair<long, long>> stat(session& s) {
  const auto r = s.expect("STAT", true);
  if (!r) return std::nullopt;
  std::smatch m;
  static const std::regex drop(R"(^(\d+) (\d+)(\s.*)?$)");
  if (!std::regex_match(r->text, m, drop)) {
    s.fail_with("the STAT reply is not \"+OK count size\"", "+OK <messages> <octets>, e.g. +OK 2 320");
    return std::nullopt;
  }
  return std::pair{std::stol(m[1]), std::stol(m[2])};
}

std::optional<std::pair<long, long>> stat_nonempty(session& s) {
  auto st = stat(s);
  if (st && st->first == 0) {
    s.fail_with("the maildrop of --user is empty; this check needs one message", "+OK 1 <octets> or more");
    return std::nullopt;
  }
  return st;
}

void greeting(session& s) {
  s.expect("", true);
}
void login(session& s) {
  s.expect("", true) && s.login();
}
void wrong_password(session& s) {
  s.expect("", true) && s.expect("USER " + s.user(), true) && s.expect("PASS wrong", false);
}
void stat_before_login(session& s) {
  s.expect("", true) && s.expect("STAT", false);
}
void unknown_command(session& s) {
  s.expect("", true) && s.login() && s.expect("XYZZY", false);
}
void noop(session& s) {
  s.expect("", true) && s.login() && s.expect("NOOP", true);
}
void stat_format(session& s) {
  if (s.expect("", true) && s.login()) stat(s);
}

void list_matches_stat(session& s) {
  if (!s.expect("", true) || !s.login()) return;
  const auto st = stat(s);
  if (!st) return;
  const auto list = s.expect("LIST", true, true);
  if (!list) return;
  long count = 0;
  long octets = 0;
  std::istringstream lines(list->body);
  for (std::string line; std::getline(lines, line) && count < 100000;) {
    long n = 0;
    long size = 0;
    if (std::sscanf(line.c_str(), "%ld %ld", &n, &size) == 2) {
      ++count;
      octets += size;
    }
  }
  if (count != st->first || octets != st->second) {
    s.fail_with(
        fmt::format("LIST gives {} messages, {} octets; STAT said {}, {}", count, octets, st->first, st->second),
        "one LIST line per message, sizes adding up to STAT's");
  }
}

void retr_message(session& s) {
  if (!s.expect("", true) || !s.login() || !stat_nonempty(s)) return;
  const auto list = s.expect("LIST 1", true);
  if (!list) return;
  long n = 0;
  long size = -1;
  std::sscanf(list->text.c_str(), "%ld %ld", &n, &size);
  const auto retr = s.expect("RETR 1", true, true);
  if (retr && static_cast<long>(retr->body.size()) != size) {
    s.fail_with(fmt::format("RETR 1 gave {} octets; LIST 1 said {}", retr->body.size(), size),
                "the message, as many octets as LIST reports, ending with CRLF.CRLF");
  }
}

void retr_missing(session& s) {
  if (!s.expect("", true) || !s.login()) return;
  if (const auto st = stat(s)) s.expect(fmt::format("RETR {}", st->first + 1), false);
}

void dele_rset(session& s) {
  if (!s.expect("", true) || !s.login()) return;
  const auto st = stat_nonempty(s);
  if (!st || !s.expect("DELE 1", true) || !s.expect("RETR 1", false) || !s.expect("RSET", true)) return;
  const auto after = stat(s);
  if (after && *after != *st) {
    s.fail_with(fmt::format("after RSET, STAT says {} {}; before DELE it said {} {}", after->first, after->second,
                            st->first, st->second),
                "RSET undoes DELE: the same STAT as before");
  }
}

void quit_closes(session& s) {
  if (!s.expect("", true) || !s.login() || !s.expect("QUIT", true)) return;
  if (!s.probe().wait_closed()) {
    s.fail_with("the server did not close the connection after QUIT", "+OK, then the server closes the connection");
  }
  s.finish(false);
}

const session_check<session> checks[] = {
    {"greeting_ok", "RFC 1939 §4", "a new connection is greeted with +OK", 1, greeting},
    {"user_pass_login", "RFC 1939 §7 (USER, PASS)", "USER and PASS with the right password answer +OK", 2, login},
    {"wrong_password_err", "RFC 1939 §7 (PASS)", "a wrong user or password answers -ERR", 1, wrong_password},
    {"stat_before_login_err", "RFC 1939 §3, §4", "STAT in the AUTHORIZATION state answers -ERR", 1, stat_before_login},
    {"unknown_command_err", "RFC 1939 §3", "an unknown command answers -ERR", 1, unknown_command},
    {"noop_ok", "RFC 1939 §5 (NOOP)", "NOOP answers +OK", 1, noop},
    {"stat_format", "RFC 1939 §5 (STAT)", "STAT answers +OK <count> <octets>", 1, stat_format},
    {"list_matches_stat", "RFC 1939 §5 (LIST)", "LIST has one line per message, sizes adding up to STAT's", 2,
     list_matches_stat},
    {"retr_message", "RFC 1939 §5 (RETR), §3 (byte-stuffing)", "RETR 1 sends as many octets as LIST 1 reports", 2,
     retr_message},
    {"retr_missing_err", "RFC 1939 §5 (RETR)", "RETR of a message that does not exist answers -ERR", 1, retr_missing},
    {"dele_then_rset", "RFC 1939 §5 (DELE, RSET)", "DELE hides a message; RSET brings it back", 2, dele_rset},
    {"quit_closes", "RFC 1939 §6", "QUIT answers +OK and the server closes the connection", 1, quit_closes},
};

}  // namespace pop3_suite_local

suite_result run_pop3_suite(const pop3_options& options) {
  return run_session_checks<pop3_suite_local::session>("pop3", options, pop3_suite_local::checks);
}

}  // namespace netlab::grade
