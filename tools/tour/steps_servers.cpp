// Tour steps for the protocol labs: real servers on 127.0.0.1 port 0, exercised by real clients
// (curl) and by the labs' own clients, plus analysis of the bundled captures.
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "netlib/app/input_file.hpp"
#include "tour.hpp"

namespace netlab::tour {
namespace steps_servers_local {

namespace fs = std::filesystem;

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}
std::string read_file(const std::string& path) {
  return netlib::app::read_input_file("tour", path, 64 << 20);
}

std::string make_site(const context& ctx) {
  const std::string site = ctx.scratch("site");
  write_file(site + "/index.html",
             "<!doctype html><html><head><link rel=stylesheet href=style.css></head>"
             "<body><h1>netlab</h1><img src=logo.svg></body></html>\n");
  write_file(site + "/style.css", "h1 { color: navy; }\n");
  write_file(site + "/logo.svg", "<svg xmlns='http://www.w3.org/2000/svg' width='8' height='8'/>\n");
  return site;
}

void http_serve(const context& ctx) {
  const std::string site = make_site(ctx);
  netlib::app::process server({ctx.bin("lab-http"), "serve", "--root", site, "--listen", "127.0.0.1:0"});
  const std::string where =
      ctx.start(server, {ctx.bin("lab-http"), "serve", "--root", site, "--listen", "127.0.0.1:0"});
  if (const auto curl = ctx.peer("curl")) {
    auto r = ctx.run({*curl, "-sv", "http://" + where + "/index.html", "http://" + where + "/style.css"});
    const bool reused = r.err.find("Re-using existing connection") != std::string::npos;
    ctx.say(fmt::format("curl fetched index.html and style.css; second request reused the connection: {}",
                        reused ? "yes" : "no"));
    context::check(reused && r.out.find("<h1>netlab</h1>") != std::string::npos,
                   "expected both files over one connection");
    auto head = ctx.run({*curl, "-sI", "http://" + where + "/index.html"});
    std::string etag;
    std::istringstream lines(head.out);
    for (std::string line; std::getline(lines, line);)
      if (line.rfind("ETag:", 0) == 0 || line.rfind("etag:", 0) == 0)
        etag = line.substr(6, line.find_last_not_of("\r") - 5);
    context::check(!etag.empty(), "HEAD gave no ETag");
    auto cond = ctx.run({*curl, "-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", "If-None-Match: " + etag,
                         "http://" + where + "/index.html"});
    ctx.say("conditional GET with If-None-Match " + etag + " -> " + cond.out);
    context::check(cond.out == "304", "expected 304 Not Modified");
  } else {
    // Without curl, the conditional GET is lab-http get's cache revalidating what it stored.
    ctx.say("curl is not installed: the conditional GET is checked with lab-http get --cache instead");
    const std::string cache = ctx.scratch("http-cache");
    ctx.run({ctx.bin("lab-http"), "get", "http://" + where + "/index.html", "--cache", cache});
    const auto again =
        ctx.run_json({ctx.bin("lab-http"), "get", "http://" + where + "/index.html", "--cache", cache, "--json"});
    const auto& object = again.at("objects").at(0);
    ctx.say(fmt::format("lab-http get --cache, second fetch of index.html: cache {}, status {}",
                        object.at("cache").get<std::string>(), object.at("status").get<int>()));
    context::check(object.at("cache") == "revalidated" && object.at("status") == 304,
                   "expected the cached copy revalidated with 304 Not Modified");
  }
  auto get = ctx.run({ctx.bin("lab-http"), "get", "http://" + where + "/index.html", "--objects", "--pipelined"});
  std::istringstream out(get.out);
  for (std::string line; std::getline(out, line);) ctx.say(line);
}

void http_analyze(const context& ctx) {
  auto j = ctx.run_json({ctx.bin("lab-http"), "analyze", context::capture("http/serve-session.pcapng"), "--json"});
  std::map<int, int> statuses;
  for (const auto& t : j.at("transactions")) ++statuses[t.at("status").get<int>()];
  std::string summary;
  for (auto [status, n] : statuses) summary += fmt::format(" {}x{}", n, status);
  ctx.say(fmt::format("{} transactions in the recorded session:{}", j.at("transactions").size(), summary));
  context::check(statuses[304] >= 1 && statuses[206] >= 1 && statuses[401] >= 1, "expected 304, 206 and 401 in it");
}

void ftp_transfer(const context& ctx) {
  const std::string root = ctx.scratch("ftp-root"), out = ctx.scratch("ftp-out");
  std::string data;
  for (int i = 0; i < 20000; ++i) data += fmt::format("line {}\n", i);
  write_file(root + "/numbers.txt", data);
  const std::vector<std::string> argv{ctx.bin("lab-ftp"), "serve",    "--root",     root,
                                      "--anonymous",      "--listen", "127.0.0.1:0"};
  netlib::app::process server(argv);
  const std::string where = ctx.start(server, argv);
  if (const auto curl = ctx.peer("curl")) {
    for (const auto& [what, flags] : std::vector<std::pair<std::string, std::vector<std::string>>>{
             {"passive (EPSV)", {}}, {"passive (PASV)", {"--disable-epsv"}}, {"active (EPRT)", {"-P", "127.0.0.1"}}}) {
      std::vector<std::string> argv_curl{*curl, "-s", "ftp://" + where + "/numbers.txt", "-o", out + "/curl.txt"};
      argv_curl.insert(argv_curl.end(), flags.begin(), flags.end());
      ctx.run(argv_curl);
      context::check(read_file(out + "/curl.txt") == data, "curl " + what + " download differs");
      ctx.say(fmt::format("curl, {}: {} bytes, identical", what, data.size()));
    }
  } else {
    ctx.say("curl is not installed: the active download is checked with lab-ftp get --active instead");
    ctx.run({ctx.bin("lab-ftp"), "get", "ftp://" + where + "/numbers.txt", "-o", out + "/active.txt", "--active"});
    context::check(read_file(out + "/active.txt") == data, "lab-ftp get --active download differs");
    ctx.say(fmt::format("lab-ftp get --active (EPRT): {} bytes, identical", data.size()));
  }
  auto get = ctx.run({ctx.bin("lab-ftp"), "get", "ftp://" + where + "/numbers.txt", "-o", out + "/lab.txt", "--trace"});
  context::check(read_file(out + "/lab.txt") == data, "lab-ftp get download differs");
  ctx.say(fmt::format("lab-ftp get: {} bytes, identical; the control dialogue is shown with --trace", data.size()));
}

void mail_path(const context& ctx) {
  const std::string maildir = ctx.scratch("maildir"), inbox = ctx.scratch("inbox"), etc = ctx.scratch("mail-etc");
  write_file(etc + "/users.txt", "bob:hunter2\n");
  const std::vector<std::string> smtp_argv{ctx.bin("lab-smtp"), "serve",       "--maildir", maildir,
                                           "--domain",          "example.org", "--users",   etc + "/users.txt",
                                           "--listen",          "127.0.0.1:0"};
  const std::vector<std::string> pop3_argv{ctx.bin("lab-pop3"), "serve",    "--maildir",  maildir, "--users",
                                           etc + "/users.txt",  "--listen", "127.0.0.1:0"};
  netlib::app::process smtp(smtp_argv), pop3(pop3_argv);
  const std::string smtp_at = ctx.start(smtp, smtp_argv), pop3_at = ctx.start(pop3, pop3_argv);
  ctx.run({ctx.bin("lab-smtp"), "send", "--server", smtp_at, "--from", "alice@example.org", "--to", "bob@example.org",
           "--subject", "Hello from the tour"},
          "Hi Bob,\n.a line that starts with a dot\nAlice\n");
  std::vector<fs::path> delivered;
  for (const auto& e : fs::directory_iterator(maildir + "/bob/new")) delivered.push_back(e.path());
  context::check(delivered.size() == 1, "expected one message in bob's Maildir new/");
  ctx.say("lab-smtp send -> lab-smtp serve: delivered to " + fs::relative(delivered[0], maildir).string());
  ctx.run(
      {ctx.bin("lab-pop3"), "fetch", "--server", pop3_at, "--user", "bob", "--password", "hunter2", "--out", inbox});
  std::vector<fs::path> fetched;
  for (const auto& e : fs::directory_iterator(inbox)) fetched.push_back(e.path());
  context::check(fetched.size() == 1, "expected one fetched message");
  // The Maildir keeps LF line ends; POP3 carries CRLF, which lab-pop3 fetch saves as it came.
  const std::string stored = read_file(delivered[0].string());
  std::string as_sent;
  for (char c : stored) as_sent += c == '\n' ? std::string("\r\n") : std::string(1, c);
  context::check(stored.find('\r') == std::string::npos, "the stored message has CR characters (Maildir files use LF)");
  context::check(read_file(fetched[0].string()) == as_sent,
                 "the message read back over POP3 differs from the stored one");
  ctx.say(
      "lab-pop3 fetch: the same text back with CRLF line ends (Return-Path, Delivered-To, Received: header, "
      "dot-stuffed line restored)");
}

void mail_analyze(const context& ctx) {
  auto j = ctx.run_json({ctx.bin("lab-smtp"), "analyze", context::capture("mail/mail-path.pcapng"), "--json"});
  std::size_t messages = 0;
  for (const auto& s : j.at("sessions")) messages += s.at("messages").size();
  ctx.say(fmt::format("{} SMTP sessions, {} messages in the recorded mail path", j.at("sessions").size(), messages));
  context::check(j.at("sessions").size() >= 3 && messages >= 1, "expected the recorded SMTP sessions");
}

void grade_and_replay(const context& ctx) {
  const std::string site = ctx.scratch("replay-site");
  // The same site as the capture's recipe (captures/net/record-loopback.sh).
  write_file(site + "/hello.txt", "hello from netlab\n");
  std::string numbers;
  for (int i = 1; i <= 2000; ++i) numbers += std::to_string(i) + "\n";
  write_file(site + "/numbers.txt", numbers);
  const std::vector<std::string> argv{ctx.bin("lab-http"), "serve", "--root", site, "--listen", "127.0.0.1:0"};
  netlib::app::process server(argv);
  const std::string where = ctx.start(server, argv);
  auto grade = ctx.run_json({ctx.bin("netlab-grade"), "http", "--target", where, "--path", "/hello.txt", "--json"});
  ctx.say(fmt::format("netlab-grade http: {:g} of {:g} points", grade.at("score").get<double>(),
                      grade.at("max_score").get<double>()));
  context::check(grade.at("score") == grade.at("max_score"), "the reference server must get full marks");
  // The recorded session gets the same answers from this server (exit 0 only if all match).
  auto replay = ctx.run({ctx.bin("netlab-replay"), context::capture("net/loopback-http.pcapng"), "--target", where});
  std::istringstream lines(replay.out);
  std::string last;
  for (std::string line; std::getline(lines, line);)
    if (!line.empty()) last = line;
  ctx.say("netlab-replay: " + last);
}

}  // namespace steps_servers_local

std::vector<step> server_steps() {
  using namespace steps_servers_local;
  return {
      {"lab-http", "web server: curl over one connection, conditional GET, lab-http get with the model", http_serve},
      {"lab-http", "transactions in a recorded session (304, 206, 401, cookies)", http_analyze},
      {"lab-ftp", "FTP server: passive, PASV and active downloads with curl, and lab-ftp get", ftp_transfer},
      {"lab-smtp", "the mail path: lab-smtp send -> Maildir -> lab-pop3 fetch, the same message", mail_path},
      {"lab-smtp", "SMTP sessions in a recorded capture", mail_analyze},
      {"netlab-grade", "grade the reference web server, then replay a recorded session against it", grade_and_replay},
  };
}

}  // namespace netlab::tour
