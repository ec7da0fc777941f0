// The FTP suite. Each check is one control connection: the 220 greeting, then commands with the
// reply codes RFC 959 allows; data transfers open the data connection the reply asks for (the
// 227/229 address, or our own listener announced with PORT) and read it to its end. The first step
// answered otherwise fails the check, naming it.
#include "ftp_suite.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <vector>

#include "common/tcp_probe.hpp"
#include "data_channel.hpp"
#include "netlib/ftp/data_address.hpp"
#include "netlib/ftp/reply.hpp"
#include "probe_session.hpp"

namespace netlab::grade {

namespace ftp_suite_local {

using netlib::ftp::reply;

std::string codes_text(const std::vector<int>& codes) {
  std::string out;
  for (std::size_t i = 0; i < codes.size(); ++i) {
    out += (i == 0 ? "" : i + 1 == codes.size() ? " or " : ", ") + std::to_string(codes[i]);
  }
  return out;
}

class session : public probe_session {
 public:
  session(const ftp_options& o, check_result& c) : probe_session(c, o.host, o.port, o.timeout), o_(o) {}

  std::optional<reply> expect(const std::string& line, const std::vector<int>& accept) {
    if (failed_) return std::nullopt;
    const auto label = line.empty() ? std::string("the greeting") : line;
    if (!line.empty() && !probe_.send(line + "\r\n"))
      return fail("cannot send " + label + ": " + probe_.error(), accept, label);
    auto r = read();
    if (!r) return fail(fmt::format("no reply to {}: {}", label, probe_.error()), accept, label);
    if (std::find(accept.begin(), accept.end(), r->code) == accept.end()) {
      return fail(fmt::format("{} answered {} {}", label, r->code, r->text()), accept, label);
    }
    return r;
  }
  bool login() {
    const auto user = expect("USER " + o_.user, {230, 331});
    return user && (user->code == 230 || expect("PASS " + o_.password, {230, 202}));
  }
  // Opens a passive data connection with PASV (or EPSV) and connects to it.
  bool open_passive(data_channel& data, bool extended) {
    const auto r = expect(extended ? "EPSV" : "PASV", {extended ? 229 : 227});
    if (!r) return false;
    const auto addr = extended ? netlib::ftp::parse_epsv_reply(r->text()) : netlib::ftp::parse_pasv_reply(r->text());
    if (!addr) {
      fail_with(
          fmt::format("the {} reply has no address: {}", r->code, r->text()),
          extended ? "229 Entering Extended Passive Mode (|||port|)" : "227 Entering Passive Mode (h1,h2,h3,h4,p1,p2)");
      return false;
    }
    const auto host = addr->host.empty() || addr->host == "0.0.0.0" ? o_.host : addr->host;
    if (!data.connect(host, addr->port)) {
      fail_with(data.error(), fmt::format("a data connection accepted on {}:{}", host, addr->port));
      return false;
    }
    return true;
  }
  // Sends a transfer command and returns what came over the data connection.
  std::optional<std::string> transfer(const std::string& line, data_channel& data) {
    if (!expect(line, {125, 150})) return std::nullopt;
    auto bytes = data.read_all();
    if (!bytes) {
      fail_with(data.error(), "the data, then the server closes the data connection");
      return std::nullopt;
    }
    if (!expect("", {226, 250})) return std::nullopt;
    return bytes;
  }
  [[nodiscard]] const ftp_options& options() const { return o_; }

 private:
  std::optional<reply> fail(std::string reason, const std::vector<int>& accept, const std::string& label) {
    fail_with(std::move(reason), fmt::format("{} to {}", codes_text(accept), label));
    return std::nullopt;
  }
  std::optional<reply> read() {
    for (int round = 0; round < 100000; ++round) {
      auto r = parser_.next(probe_.buffer().data());
      probe_.buffer().consume(r.consumed);
      if (r.status == netlib::ftp::reply_status::reply) return r.value;
      if (r.status == netlib::ftp::reply_status::error) {
        probe_.set_error("not an FTP reply: " + r.error);
        return std::nullopt;
      }
      if (!probe_.read_more()) return std::nullopt;
    }
    return std::nullopt;
  }

  const ftp_options& o_;
  netlib::ftp::reply_parser parser_;
};

bool greet(session& s) {
  return s.expect("", {220}).has_value();
}
bool start(session& s) {
  return greet(s) && s.login();
}

void greeting(session& s) {
  greet(s);
}
void login(session& s) {
  start(s);
}
void wrong_password(session& s) {
  if (!greet(s) || !s.expect("USER " + s.options().user, {331})) return;
  // The refusal may come after the server's failed-login delay (ftp_options::login_delay).
  s.probe().set_timeout(s.options().timeout + s.options().login_delay);
  s.expect("PASS netlab-grade-wrong", {530});
}
void login_required(session& s) {
  greet(s) && s.expect("PWD", {530});
}
void unknown_command(session& s) {
  start(s) && s.expect("XYZZY", {500, 502});
}
void pwd(session& s) {
  start(s) && s.expect("PWD", {257});
}
void cwd_missing(session& s) {
  start(s) && s.expect("CWD /netlab-grade-no-such-dir", {550});
}
void type_image(session& s) {
  start(s) && s.expect("TYPE I", {200});
}

std::string base_name(const std::string& path) {
  return path.substr(path.rfind('/') + 1);
}

void list_passive(session& s) {
  data_channel data(s.options().timeout);
  if (!start(s) || !s.open_passive(data, false)) return;
  const auto listing = s.transfer("LIST", data);
  if (listing && listing->find(base_name(s.options().file)) == std::string::npos) {
    s.fail_with(fmt::format("the listing does not name {}: {}", base_name(s.options().file), printable(*listing, 200)),
                "a listing of the login folder naming --file");
  }
}

void retr_passive(session& s) {
  data_channel data(s.options().timeout);
  if (!start(s) || !s.expect("TYPE I", {200})) return;
  const auto size = s.expect("SIZE " + s.options().file, {213, 500, 502, 550});
  if (!s.open_passive(data, false)) return;
  const auto bytes = s.transfer("RETR " + s.options().file, data);
  if (!bytes) return;
  if (bytes->empty()) return s.fail_with("RETR sent no bytes", "the file's bytes over the data connection");
  if (size && size->code == 213 && size->text() != std::to_string(bytes->size())) {
    s.fail_with(fmt::format("RETR sent {} bytes; SIZE said {}", bytes->size(), size->text()),
                "as many bytes as SIZE reports (RFC 3659 §4)");
  }
}

void retr_epsv(session& s) {
  data_channel data(s.options().timeout);
  if (!start(s) || !s.expect("TYPE I", {200}) || !s.open_passive(data, true)) return;
  const auto bytes = s.transfer("RETR " + s.options().file, data);
  if (bytes && bytes->empty()) s.fail_with("RETR sent no bytes", "the file's bytes over the data connection");
}

void list_active(session& s) {
  data_channel data(s.options().timeout);
  if (!start(s)) return;
  const auto port = data.listen();
  if (!port) return s.fail_with(data.error(), "a local listener for the active data connection");
  const auto arg = netlib::ftp::format_port_argument({1, "127.0.0.1", *port});
  if (!s.expect("PORT " + arg, {200})) return;
  const auto listing = s.transfer("LIST", data);
  if (listing && listing->find(base_name(s.options().file)) == std::string::npos) {
    s.fail_with("the listing does not name " + base_name(s.options().file), "a listing naming --file");
  }
}

void retr_missing(session& s) {
  data_channel data(s.options().timeout);
  if (!start(s) || !s.expect("TYPE I", {200}) || !s.open_passive(data, false)) return;
  s.expect("RETR netlab-grade-no-such-file.txt", {550, 450});
}

void quit_closes(session& s) {
  if (!greet(s) || !s.expect("QUIT", {221})) return;
  if (!s.probe().wait_closed()) {
    s.fail_with("the server did not close the connection after 221", "221, then the server closes the connection");
  }
  s.finish(false);
}

const session_check<session> checks[] = {
    {"greeting_220", "RFC 959 §5.4", "a new connection is greeted with 220", 1, greeting},
    {"login_230", "RFC 959 §4.1.1 (USER, PASS)", "USER then PASS log in (331, 230)", 2, login},
    {"wrong_password_530", "RFC 959 §4.1.1, §5.4", "a wrong password answers 530 (within --timeout plus --login-delay)",
     1, wrong_password},
    {"login_required_530", "RFC 959 §5.4", "PWD before logging in answers 530", 1, login_required},
    {"unknown_command_500", "RFC 959 §4.2, §5.4", "an unknown command answers 500 (or 502)", 1, unknown_command},
    {"pwd_257", "RFC 959 §4.1.3 (PWD)", "PWD answers 257 with the folder", 1, pwd},
    {"cwd_missing_550", "RFC 959 §4.1.1 (CWD)", "CWD to a missing folder answers 550", 1, cwd_missing},
    {"type_image_200", "RFC 959 §3.1.1, §4.1.2 (TYPE)", "TYPE I answers 200", 1, type_image},
    {"list_passive", "RFC 959 §4.1.2 (PASV), §4.1.3 (LIST)", "LIST over a PASV data connection names --file", 2,
     list_passive},
    {"retr_passive", "RFC 959 §4.1.3 (RETR), RFC 3659 §4 (SIZE)", "RETR over PASV sends the file (SIZE bytes)", 2,
     retr_passive},
    {"retr_epsv", "RFC 2428 §3 (EPSV)", "RETR over an EPSV data connection sends the file", 2, retr_epsv},
    {"list_active", "RFC 959 §4.1.2 (PORT)", "LIST over an active (PORT) data connection the server opens", 2,
     list_active},
    {"retr_missing_550", "RFC 959 §4.1.3 (RETR), §5.4", "RETR of a missing file answers 550", 1, retr_missing},
    {"quit_221_closes", "RFC 959 §4.1.1 (QUIT)", "QUIT answers 221 and the server closes the connection", 1,
     quit_closes},
};

}  // namespace ftp_suite_local

suite_result run_ftp_suite(const ftp_options& options) {
  return run_session_checks<ftp_suite_local::session>("ftp", options, ftp_suite_local::checks);
}

}  // namespace netlab::grade
