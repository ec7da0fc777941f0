// netlab-grade smtp against lab-smtp serve (full score), aiosmtpd with its Sink handler (loses
// exactly the checks it does not meet) and the deliberately broken server (its planted bugs).
#include "grade_fixture.hpp"
#include "support/temp_dir.hpp"

namespace {

using namespace netlab::test;

std::vector<std::string> smtp_args(const std::string& target) {
  return {"smtp", "--target", target, "--rcpt", "alice@example.org", "--rcpt", "bob@example.org", "--timeout", "1"};
}

TEST(SmtpGrade, LabSmtpGetsFullScoreAndDelivers) {
  grade_site site;
  std::ofstream(site.dir + "/users.txt") << "alice:secret\nbob:hunter2\n";
  process server({bin_path("lab-smtp"), "serve", "--maildir", site.dir + "/mail", "--domain", "example.org", "--users",
                  site.dir + "/users.txt", "--listen", "127.0.0.1:0"});
  const auto target = server.wait_listening();
  const auto g = grade(smtp_args(target));
  EXPECT_EQ(g.exit_code, 0) << g.doc.dump(2);
  EXPECT_TRUE(g.failed().empty()) << g.doc.dump(2);
  EXPECT_EQ(g.doc["checks"].size(), 14u);
  EXPECT_EQ(g.doc["score"], 17);
  // deliver_message really delivered, to both recipients.
  for (const char* user : {"alice", "bob"}) {
    std::size_t files = 0;
    for (const auto& e : std::filesystem::directory_iterator(site.dir + "/mail/" + user + "/new")) {
      files += e.is_regular_file() ? 1 : 0;
    }
    EXPECT_EQ(files, 1u) << user;
  }
}

// deliver_message with --maildir: lab-smtp stores the message (full score), a server that
// answers 250 and stores nothing loses the check's 3 points (aiosmtpd's Sink handler).
TEST(SmtpGrade, DeliveryMustBeStoredWhenTheGraderSeesTheMaildir) {
  grade_site site;
  std::ofstream(site.dir + "/users.txt") << "alice:secret\nbob:hunter2\n";
  process server({bin_path("lab-smtp"), "serve", "--maildir", site.dir + "/mail", "--domain", "example.org", "--users",
                  site.dir + "/users.txt", "--listen", "127.0.0.1:0"});
  auto args = smtp_args(server.wait_listening());
  args.insert(args.end(), {"--maildir", site.dir + "/mail"});
  const auto g = grade(args);
  EXPECT_EQ(g.exit_code, 0) << g.doc.dump(2);
  EXPECT_EQ(g.doc["score"], 17) << g.doc.dump(2);

  NETLAB_REQUIRE_PYTHON_MODULE("aiosmtpd");
  process sink({"/usr/bin/python3", source_path("tests/integration/grade/aiosmtpd_server.py")});
  const auto empty = site.dir + "/sink-mail";
  std::filesystem::create_directory(empty);
  auto sink_args = smtp_args(sink.wait_listening());
  sink_args.insert(sink_args.end(), {"--maildir", empty});
  const auto s = grade(sink_args);
  EXPECT_EQ(s.exit_code, 1);
  const auto reason = s.failed().at("deliver_message");
  EXPECT_EQ(reason.rfind("the server answered 250 to the message but did not store it: alice@example.org: no message "
                         "with Message-ID <netlab-grade.",
                         0),
            0u)
      << reason;
  EXPECT_NE(reason.find("bob@example.org: no message"), std::string::npos) << reason;
  EXPECT_EQ(s.doc["score"], 13 - 3) << s.doc.dump(2);
}

// A server that stores the message with its dot-stuffing kept does not get the check either.
TEST(SmtpGrade, AStoredMessageMustHaveItsDotStuffingUndone) {
  NETLAB_REQUIRE_PEER("/usr/bin/python3");
  grade_site site;
  // A Maildir writer that keeps the transparency dot: a one-recipient server in a few lines.
  std::ofstream(site.dir + "/stuffing.py") << R"(import os, socketserver, sys, time
root = sys.argv[1]
class H(socketserver.StreamRequestHandler):
    def handle(self):
        w = lambda t: self.wfile.write(t.encode() + b"\r\n")
        w("220 stuffing ESMTP")
        rcpts = []
        while True:
            line = self.rfile.readline()
            if not line:
                return
            verb = line[:4].upper()
            if verb == b"DATA":
                w("354 go")
                body = b""
                while True:
                    l = self.rfile.readline()
                    if l in (b".\r\n", b""):
                        break
                    body += l
                for r in rcpts:
                    os.makedirs(os.path.join(root, r, "new"), exist_ok=True)
                    open(os.path.join(root, r, "new", "%f" % time.time()), "wb").write(body)
                w("250 stored")
            elif verb == b"RCPT":
                rcpts.append(line.split(b"<")[1].split(b"@")[0].decode())
                w("250 ok")
            elif verb == b"QUIT":
                w("221 bye")
                return
            else:
                w("250 ok")
srv = socketserver.TCPServer(("127.0.0.1", 0), H)
print("listening on 127.0.0.1:%d" % srv.server_address[1], flush=True)
srv.serve_forever()
)";
  process server({"/usr/bin/python3", site.dir + "/stuffing.py", site.dir + "/mail"});
  const auto g = grade({"smtp", "--target", server.wait_listening(), "--rcpt", "alice@example.org", "--timeout", "1",
                        "--maildir", site.dir + "/mail"});
  const auto reason = g.failed().at("deliver_message");
  EXPECT_NE(reason.find("keeps the dot-stuffing ('..this line starts with a dot"), std::string::npos) << reason;
}

TEST(SmtpGrade, AiosmtpdLosesWhatItDoesNotCheck) {
  NETLAB_REQUIRE_PYTHON_MODULE("aiosmtpd");
  process server({"/usr/bin/python3", source_path("tests/integration/grade/aiosmtpd_server.py")});
  const auto target = server.wait_listening();
  const auto g = grade(smtp_args(target));
  EXPECT_EQ(g.exit_code, 1);
  const std::map<std::string, std::string> expected{
      // aiosmtpd accepts a MAIL FROM without angle brackets
      {"mail_syntax_501", "MAIL FROM:not an address answered 250 instead"},
      // the Sink handler accepts every recipient: no user table, no relay control
      {"unknown_user_550", "RCPT TO:<netlab-grade-nobody@example.org> answered 250 instead"},
      {"relay_denied", "RCPT TO:<someone@elsewhere.invalid> answered 250 instead"},
  };
  EXPECT_EQ(g.failed(), expected) << g.doc.dump(2);
  EXPECT_EQ(g.doc["score"], 13);
}

TEST(SmtpGrade, BrokenServerFailsItsPlantedBugs) {
  NETLAB_REQUIRE_PEER("/usr/bin/python3");
  process broken({"/usr/bin/python3", source_path("tests/support/broken_server.py"), "smtp", "--domain", "example.org",
                  "--users", "alice,bob"});
  const auto target = broken.wait_listening();
  const auto g = grade(smtp_args(target));
  EXPECT_EQ(g.exit_code, 1);
  const std::map<std::string, std::string> expected{
      {"unknown_command_500", "XYZZY answered 250 instead"},
      {"rcpt_before_mail_503", "RCPT TO:<alice@example.org> answered 250 instead"},
      {"rset_clears_transaction", "RCPT TO:<alice@example.org> answered 250 instead"},
      {"quit_221_closes", "the server did not close the connection after 221"},
  };
  EXPECT_EQ(g.failed(), expected) << g.doc.dump(2);
  for (const auto& c : g.doc["checks"]) {
    if (c["name"] != "quit_221_closes") continue;
    EXPECT_EQ(c["sent"], "EHLO netlab-grade.test\\r\\nQUIT\\r\\n");
    EXPECT_NE(c["received"].get<std::string>().find("221 Bye"), std::string::npos);
    EXPECT_EQ(c["expected"], "221, then the server closes the connection");
  }
}

TEST(SmtpGrade, UsageErrorsExitTwo) {
  EXPECT_EQ(run({bin_path("netlab-grade"), "smtp", "--target", "127.0.0.1:25"}).exit_code, 2);
  const temp_dir maildir("smtp-grade-maildir");  // exists: the fault is --maildir beside --client
  EXPECT_EQ(run({bin_path("netlab-grade"), "smtp", "--client", "true", "--maildir", maildir.path().string()}).exit_code,
            2);
  EXPECT_EQ(run({bin_path("netlab-grade"), "smtp", "--target", "127.0.0.1:25", "--rcpt", "nobody"}).exit_code, 2);
}

}  // namespace
