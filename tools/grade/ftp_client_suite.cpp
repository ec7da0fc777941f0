// The FTP client suite. Theory of operation: lab-ftp serve (user alice, password secret, writable)
// runs behind the recording relay, which carries the control connection only: data connections
// go straight to lab-ftp (PASV/EPSV) or from it (PORT/EPRT), whose addresses the relay leaves
// intact. The served file and the file to upload are binary (CR, LF, NUL and high bytes), so a
// transfer in TYPE A changes them. The relay's recording is read as lab-ftp analyze reads a
// capture (read_wire below); a transfer command takes a 1xx preliminary reply and then its final
// one (RFC 959 §4.2).
#include "ftp_client_suite.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>

#include "client_dialogue.hpp"
#include "netlib/core/ascii.hpp"
#include "netlib/ftp/control_analyzer.hpp"
#include "netlib/ftp/reply.hpp"

namespace netlab::grade {

namespace ftp_client_suite_local {

constexpr const char* remote_name = "netlab.bin";

std::string binary_content(int seed) {
  std::string s = "netlab-grade binary file\r\nline two\nline three\r\n";
  for (int i = 0; i < 6000; ++i) s += static_cast<char>((i * 31 + seed) % 256);
  return s;
}

struct ftp_item {
  client_command command;
  int code = 0;         // final reply (0: none)
  int preliminary = 0;  // 1xx before it, if any
};

// Each conversation is read by netlib::ftp::control_analyzer, the reader of lab-ftp analyze and
// netlab-replay: every command line with its 1yz and final replies. The relay keeps the chunks in
// arrival order, which stands in for capture times. What the client sent after its last complete
// line is kept too, unanswered, so the checks see it; a line that is no FTP command (its verb not
// 3 or 4 letters) is not, as the server answers it 500 and nothing else is asked of it.
std::vector<ftp_item> read_wire(const std::vector<conversation>& convs) {
  std::vector<ftp_item> items;
  for (const auto& conv : convs) {
    netlib::ftp::control_analyzer analyzer;
    const std::string client = feed_relayed(conv, analyzer);
    std::size_t read = 0;
    for (const auto& c : analyzer.commands()) {
      items.push_back({parse_command(client.substr(c.client_begin, c.client_end - c.client_begin)),
                       c.reply_code.value_or(0), c.preliminary_codes.empty() ? 0 : c.preliminary_codes.front()});
      read = c.client_end;
    }
    for (auto& c : unread_lines(client, read)) items.push_back({std::move(c), 0, 0});
  }
  return items;
}

std::string item_list(const std::vector<ftp_item>& items) {
  std::string out;
  for (const auto& i : items) out += i.command.raw;
  return out;
}

bool is_transfer(const std::string& v) {
  return netlib::ftp::control_analyzer::is_transfer_verb(v);
}
bool is_data_setup(const std::string& v) {
  return v == "PASV" || v == "EPSV" || v == "PORT" || v == "EPRT";
}

check_result login_check(const std::vector<ftp_item>& items) {
  auto c = make_check("login_before_transfer", "RFC 959 §4.1.1 (USER, PASS), §5.4",
                      "USER then PASS, answered 230, before any data connection or transfer", 2);
  bool user = false;
  for (const auto& i : items) {
    if (i.command.verb == "USER" && (i.code == 331 || i.code == 230)) user = true;
    if ((i.command.verb == "PASS" && user && i.code == 230) || (i.command.verb == "USER" && i.code == 230)) {
      c.passed = true;
      return c;
    }
    if (is_transfer(i.command.verb) || is_data_setup(i.command.verb)) break;
  }
  return fail(c, "no accepted login before the first data command", item_list(items),
              "USER alice 331, PASS secret 230");
}

check_result type_check(const std::vector<ftp_item>& items, const std::string& verb) {
  auto c = make_check("type_binary", "RFC 959 §3.1.1.3, §4.1.2 (TYPE)",
                      "TYPE I is in effect (answered 200) when the binary file is transferred", 2);
  bool image = false;
  for (const auto& i : items) {
    if (i.command.verb == "TYPE" && i.code == 200) {
      const std::string a = netlib::ascii::to_upper(i.command.arg);
      image = a == "I" || a == "L 8";
    }
    if (i.command.verb == verb) {
      c.passed = image;
      return image ? c
                   : fail(c, verb + " was sent in ASCII mode (TYPE A is the default)", item_list(items),
                          "TYPE I answered 200 before " + verb);
    }
  }
  return fail(c, "the file was never transferred with " + verb, item_list(items), "TYPE I, then " + verb);
}

// PORT h1,h2,h3,h4,p1,p2 (RFC 959 §4.1.2) or EPRT |1|addr|port| (RFC 2428 §2) naming 127.0.0.1.
bool valid_active(const client_command& c) {
  static const std::regex port(R"(127,0,0,1,(\d{1,3}),(\d{1,3}))");
  static const std::regex eprt(R"(\|1\|127\.0\.0\.1\|(\d{1,5})\|)");
  std::smatch m;
  if (c.verb == "PORT" && std::regex_match(c.arg, m, port)) {
    const int p = std::stoi(m[1]) * 256 + std::stoi(m[2]);
    return std::stoi(m[1]) < 256 && std::stoi(m[2]) < 256 && p > 0;
  }
  if (c.verb == "EPRT" && std::regex_match(c.arg, m, eprt)) return std::stoi(m[1]) > 0 && std::stoi(m[1]) < 65536;
  return false;
}

check_result data_check(const std::vector<ftp_item>& items) {
  auto c = make_check("data_connection_setup", "RFC 959 §3.2, §4.1.2 (PASV, PORT), RFC 2428 §2, §3 (EPRT, EPSV)",
                      "each transfer is preceded by its own accepted PASV/EPSV (227/229) or a PORT/EPRT naming "
                      "the client (200)",
                      2);
  const ftp_item* setup = nullptr;
  std::size_t transfers = 0;
  for (const auto& i : items) {
    if (is_data_setup(i.command.verb)) setup = &i;
    if (!is_transfer(i.command.verb)) continue;
    ++transfers;
    const bool ok = setup && ((setup->command.verb == "PASV" && setup->code == 227) ||
                              (setup->command.verb == "EPSV" && setup->code == 229) ||
                              (valid_active(setup->command) && setup->code == 200));
    if (!ok) {
      return fail(c,
                  setup ? shown(setup->command) + " was not a valid, accepted data set-up for " + shown(i.command)
                        : shown(i.command) + " had no PASV/EPSV/PORT/EPRT before it",
                  item_list(items), "PASV 227, EPSV 229, PORT 127,0,0,1,p1,p2 200 or EPRT |1|127.0.0.1|port| 200");
    }
    setup = nullptr;
  }
  c.passed = transfers > 0;
  return c.passed ? c : fail(c, "no transfer command was sent", item_list(items), "PASV, then RETR or STOR");
}

// `path` resolved against the folder `cwd` ("/a"): "." and empty segments dropped, ".." goes up
// (never above "/"), as the server resolves it (RFC 959 §4.1.1 pathnames).
std::string resolve_path(const std::string& cwd, const std::string& path) {
  std::vector<std::string> parts;
  const std::string whole = !path.empty() && path.front() == '/' ? path : cwd + "/" + path;
  std::size_t at = 0;
  while (at <= whole.size()) {
    const auto slash = std::min(whole.find('/', at), whole.size());
    const std::string part = whole.substr(at, slash - at);
    if (part == "..") {
      if (!parts.empty()) parts.pop_back();
    } else if (!part.empty() && part != ".") {
      parts.push_back(part);
    }
    at = slash + 1;
  }
  std::string out;
  for (const auto& p : parts) out += "/" + p;
  return out.empty() ? "/" : out;
}

check_result transfer_check(const std::vector<ftp_item>& items, const std::string& verb) {
  auto c = make_check("transfer_completed", "RFC 959 §4.2, §5.4",
                      verb + " " + remote_name + " (any path naming it: /" + remote_name + ", ./" + remote_name +
                          ") was answered 150/125 and then 226/250",
                      1);
  // The session starts in the root, where the file is; CWD and CDUP that succeed move it.
  std::string cwd = "/";
  for (const auto& i : items) {
    if (i.command.verb == "CWD" && (i.code == 250 || i.code == 200)) cwd = resolve_path(cwd, i.command.arg);
    if ((i.command.verb == "CDUP" || i.command.verb == "XCUP") && (i.code == 250 || i.code == 200))
      cwd = resolve_path(cwd, "..");
    if (i.command.verb == verb && resolve_path(cwd, i.command.arg) == std::string("/") + remote_name &&
        (i.preliminary == 150 || i.preliminary == 125) && (i.code == 226 || i.code == 250)) {
      c.passed = true;
      return c;
    }
  }
  return fail(c, fmt::format("no completed {} {}", verb, remote_name), item_list(items),
              fmt::format("{} {} answered 150 then 226", verb, remote_name));
}

check_result quit_check(const std::vector<ftp_item>& items) {
  auto c = make_check("quit_221", "RFC 959 §4.1.1 (QUIT)", "the session ends with QUIT, answered 221", 1);
  c.passed = !items.empty() && items.back().command.verb == "QUIT" && items.back().code == 221;
  return c.passed ? c : fail(c, "the last command is not QUIT", item_list(items), "QUIT answered 221");
}

check_result crlf_check(const std::vector<ftp_item>& items) {
  auto c = make_check("crlf_line_endings", "RFC 959 §4.1 (Telnet end-of-line)", "every command ends with CRLF", 1);
  for (const auto& i : items) {
    if (!ends_with_crlf(i.command.raw)) return fail(c, "a command ends without CRLF", i.command.raw, "CRLF");
  }
  c.passed = !items.empty();
  return c.passed ? c : fail(c, "the client sent nothing", "", "USER alice CRLF");
}

check_result identical_check(const std::string& got, const std::string& source, const std::string& want, bool upload) {
  auto c =
      make_check(upload ? "upload_identical" : "download_identical", "RFC 959 §3.1.1.3, §3.4 (image type, stream mode)",
                 upload ? "the file stored on the server is byte-identical to {local}"
                        : "the saved file ({out}, else ./netlab.bin, else stdout) is byte-identical to the served one",
                 3);
  c.passed = got == want;
  if (!c.passed) {
    c.received = printable(got, 120);
    return fail(c, fmt::format("{} holds {} bytes that differ from the {} expected", source, got.size(), want.size()),
                "", printable(want, 120));
  }
  return c;
}

}  // namespace ftp_client_suite_local

suite_result run_ftp_client_suite(ftp_client_options o) {
  using namespace ftp_client_suite_local;
  temp_folder server("ftp");
  temp_folder client("client");
  std::filesystem::create_directories(server.path + "/root");
  std::ofstream(server.path + "/users.txt") << "alice:secret\n";
  std::ofstream(server.path + "/root/" + remote_name, std::ios::binary) << binary_content(1);
  const auto upload_path = client.path + "/upload.bin";
  if (o.upload) {
    std::filesystem::remove(server.path + "/root/" + remote_name);
    std::ofstream(upload_path, std::ios::binary) << binary_content(2);
  }
  const std::map<std::string, std::string> values{
      {"{user}", "alice"},
      {"{pass}", "secret"},
      {"{file}", remote_name},
      {"{local}", upload_path},
      {"{url}", std::string("ftp://alice:secret@{host}:{port}/") + remote_name}};
  const auto t = run_client({o.lab_ftp, "serve", "--root", server.path + "/root", "--users", server.path + "/users.txt",
                             "--write", "--login-delay", "0", "--listen", "127.0.0.1:0"},
                            values, client, o.client);
  const auto items = read_wire(t.conversations);
  const std::string verb = o.upload ? "STOR" : "RETR";
  std::string got = t.output;
  std::string source = t.output_source;
  if (o.upload) {
    got = read_whole_file(server.path + "/root/" + remote_name);
    source = "the stored " + std::string(remote_name);
  } else if (source == "stdout" && t.output.empty() && std::filesystem::exists(client.path + "/" + remote_name)) {
    got = read_whole_file(client.path + "/" + remote_name);
    source = std::string("./") + remote_name;
  }
  suite_result r{"ftp", client_target(o.client), {}};
  r.checks = {exit_check(t),
              login_check(items),
              type_check(items, verb),
              data_check(items),
              transfer_check(items, verb),
              identical_check(got, source, binary_content(o.upload ? 2 : 1), o.upload),
              quit_check(items),
              crlf_check(items)};
  return r;
}

}  // namespace netlab::grade
