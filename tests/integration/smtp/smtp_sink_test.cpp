// lab-smtp send against Postfix's smtp-sink (a real SMTP server that accepts and dumps mail),
// started by the test on 127.0.0.1 with a free port, dropping root to nobody, dumping every
// message (-D FILE: X-Mail-Args / X-Rcpt-Args envelope lines, smtp-sink's Received: header, the
// content with the dot-stuffing removed, LF line ends). smtp-sink advertises PIPELINING;
// lab-smtp send does not pipeline (one command, one reply: see --trace), so there is no
// pipelining case here.
#include <unistd.h>

#include <algorithm>
#include <sstream>

#include <nlohmann/json.hpp>

#include "support/peers.hpp"
#include "support/process.hpp"
#include "support/third_party.hpp"

namespace {

using namespace netlab::test;

const char* const sink_bin = "/usr/sbin/smtp-sink";

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

struct smtp_sink {
  std::string dir = make_temp_folder("netlab-sink");
  std::string dump = dir + "/dump/messages.txt";
  std::unique_ptr<process> proc;
  int port = 0;

  explicit smtp_sink(std::vector<std::string> extra = {}) {
    // smtp-sink writes the dump after dropping to nobody.
    std::filesystem::create_directories(dir + "/dump");
    std::filesystem::permissions(dir, std::filesystem::perms::all);
    std::filesystem::permissions(dir + "/dump", std::filesystem::perms::all);
    proc = start_daemon(
        [&](int p) {
          std::vector<std::string> argv{sink_bin};
          if (::geteuid() == 0) argv.insert(argv.end(), {"-u", "nobody"});
          argv.insert(argv.end(), {"-D", dump, "-h", "sink.test"});
          argv.insert(argv.end(), extra.begin(), extra.end());
          argv.insert(argv.end(), {"127.0.0.1:" + std::to_string(p), "16"});
          return argv;
        },
        port);
  }
  ~smtp_sink() {
    proc.reset();
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  [[nodiscard]] std::string address() const { return "127.0.0.1:" + std::to_string(port); }

  // The dumped transactions (split at each X-Client-Addr line). smtp-sink writes a message when
  // its DATA ends, before the reply: once the client has its 250 the text is there.
  [[nodiscard]] std::vector<std::string> messages() const {
    std::vector<std::string> out;
    const std::string all = read_file(dump);
    for (std::size_t p = all.find("X-Client-Addr: "); p != std::string::npos;) {
      const std::size_t next = all.find("\nX-Client-Addr: ", p);
      out.push_back(all.substr(p, next == std::string::npos ? std::string::npos : next + 1 - p));
      p = next == std::string::npos ? next : next + 1;
    }
    return out;
  }
};

run_result send_mail(const smtp_sink& sink, std::vector<std::string> args, const std::string& body) {
  args.insert(args.begin(), {bin_path("lab-smtp"), "send", "--server", sink.address()});
  return run(args, body, std::chrono::seconds(60));
}

TEST(SmtpSink, PlainMessageWithDotStuffing) {
  NETLAB_REQUIRE_PEER(sink_bin);
  smtp_sink sink;
  const auto r =
      send_mail(sink, {"--from", "alice@example.org", "--to", "bob@example.net", "--subject", "Lab report", "--trace"},
                "Hello Bob,\n.a line starting with a dot\n..and two\nbye\n");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("to 1 recipient(s)"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("S: 220 sink.test ESMTP"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("C: EHLO localhost"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("C: MAIL FROM:<alice@example.org>"), std::string::npos) << r.err;
  const auto m = sink.messages();
  ASSERT_EQ(m.size(), 1u) << read_file(sink.dump);
  EXPECT_NE(m[0].find("X-Client-Proto: ESMTP\n"), std::string::npos) << m[0];
  EXPECT_NE(m[0].find("X-Helo-Args: localhost\n"), std::string::npos) << m[0];
  EXPECT_NE(m[0].find("X-Mail-Args: <alice@example.org>\n"), std::string::npos) << m[0];
  EXPECT_NE(m[0].find("X-Rcpt-Args: <bob@example.net>\n"), std::string::npos) << m[0];
  EXPECT_NE(m[0].find("\nSubject: Lab report\n"), std::string::npos) << m[0];
  EXPECT_NE(m[0].find("\nFrom: alice@example.org\n"), std::string::npos) << m[0];
  // The client stuffed the dots, the server removed them again: the body arrives as written.
  EXPECT_NE(m[0].find("\n\nHello Bob,\n.a line starting with a dot\n..and two\nbye\n"), std::string::npos) << m[0];
}

TEST(SmtpSink, SeveralRecipientsAndARawMessage) {
  NETLAB_REQUIRE_PEER(sink_bin);
  smtp_sink sink;
  auto r = send_mail(sink,
                     {"--from", "alice@example.org", "--to", "bob@example.net", "--to", "carol@example.net", "--to",
                      "dave@example.com", "--json"},
                     "three recipients\n");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["delivered"], true);
  EXPECT_EQ(j["accepted"].size(), 3u);
  // A second message on a new connection, sent as it is (--raw), with a long body.
  std::string raw = "From: alice@example.org\nTo: bob@example.net\nSubject: raw\n\n";
  for (int i = 0; i < 2000; ++i) raw += "line " + std::to_string(i) + (i % 7 == 0 ? "\n.\n" : "\n");
  r = send_mail(sink, {"--from", "alice@example.org", "--to", "bob@example.net", "--raw"}, raw);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto m = sink.messages();
  ASSERT_EQ(m.size(), 2u) << read_file(sink.dump);
  for (const char* rcpt : {"bob@example.net", "carol@example.net", "dave@example.com"})
    EXPECT_NE(m[0].find(std::string("X-Rcpt-Args: <") + rcpt + ">\n"), std::string::npos) << rcpt;
  EXPECT_NE(m[0].find("\n\nthree recipients\n"), std::string::npos) << m[0];
  EXPECT_GT(std::count(m[1].begin(), m[1].end(), '\n'), 2000);
  // After smtp-sink's Received: header, the message is byte for byte the input (lone "." lines included).
  const auto received = m[1].find("\nReceived: from ");
  ASSERT_NE(received, std::string::npos);
  const auto content = m[1].find("\nFrom: alice@example.org\n", received);
  ASSERT_NE(content, std::string::npos) << m[1];
  EXPECT_TRUE(m[1].substr(content + 1, raw.size()) == raw) << "the message differs";
}

TEST(SmtpSink, RefusedRecipientAndRefusedDataAreOneLineErrors) {
  NETLAB_REQUIRE_PEER(sink_bin);
  {
    smtp_sink sink({"-f", "RCPT"});  // every RCPT gets a hard error
    const auto r = send_mail(sink, {"--from", "alice@example.org", "--to", "bob@example.net"}, "hi\n");
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find("RCPT TO:<bob@example.net>"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("5"), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_TRUE(sink.messages().empty());
  }
  {
    smtp_sink sink({"-r", "DATA"});  // DATA gets a soft (4xx) error
    const auto r = send_mail(sink, {"--from", "alice@example.org", "--to", "bob@example.net"}, "hi\n");
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find("DATA"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(" 4"), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_TRUE(sink.messages().empty());
  }
}

}  // namespace
