// netlab-grade questions: the answer key of every bundled capture agrees with its facts file (and
// with tshark where installed); a synthetic capture pins what the bundled ones lack
// (If-Modified-Since, a response in three segments with a retransmission); a correct answers file
// scores full in either format, planted wrong answers lose exactly those questions, equivalent
// forms of an answer are accepted, and malformed answers files are usage errors (exit 2).
#include <cstring>
#include <fstream>
#include <sstream>

#include "grade_fixture.hpp"
#include "netlib/capture/capture_writer.hpp"
#include "netlib/packet/ethernet.hpp"
#include "netlib/packet/wire.hpp"

namespace {

using namespace netlab::test;
using nlohmann::json;

json load(const std::string& relative) {
  std::ifstream in(source_path(relative));
  return json::parse(in);
}

// id -> answer of `netlab-grade questions CAPTURE --key --json`.
std::map<std::string, std::string> key_of(const std::string& capture) {
  const auto r = run({bin_path("netlab-grade"), "questions", capture, "--key", "--json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::map<std::string, std::string> out;
  const auto doc = json::parse(r.out);
  for (const auto& q : doc["questions"]) out[q["id"].get<std::string>()] = q["answer"].get<std::string>();
  return out;
}

std::string at(const std::map<std::string, std::string>& key, const std::string& id) {
  const auto it = key.find(id);
  return it == key.end() ? "(no question " + id + ")" : it->second;
}

std::string write_answers(const std::string& dir, const std::map<std::string, std::string>& answers) {
  const auto file = dir + "/answers.txt";
  std::ofstream out(file);
  out << "# answers\n\n";
  for (const auto& [id, a] : answers) out << id << ": " << a << "\n";
  return file;
}

std::string version_of(const std::string& status_line) {
  return status_line.substr(5, 3);
}  // "HTTP/1.0 200"

TEST(Questions, HttpKeyMatchesFacts) {
  const auto facts = load("captures/http/serve-session.facts.json");
  const auto key = key_of(source_path("captures/http/serve-session.pcapng"));
  EXPECT_EQ(at(key, "tcp.conversations"), std::to_string(facts["tcp_conversations"].get<int>()));
  EXPECT_EQ(at(key, "http.requests"), std::to_string(facts["transactions"].size()));
  EXPECT_EQ(at(key, "http.server_version"), "1.1");
  std::size_t n = 0;
  for (const auto& t : facts["transactions"]) {
    const auto id = std::to_string(++n);
    EXPECT_EQ(at(key, "http.status." + id), std::to_string(t["status"].get<int>())) << n;
    if (t.contains("body_bytes")) {
      EXPECT_EQ(at(key, "http.body_bytes." + id), std::to_string(t["body_bytes"].get<int>()));
    }
    const bool validator = key.contains("http.if_none_match." + id) || key.contains("http.if_modified_since." + id);
    EXPECT_EQ(validator, t["conditional"].get<bool>()) << n;
  }
  EXPECT_EQ(at(key, "http.if_none_match.5"), "\"17-6955b900\"");
}

TEST(Questions, NetKeyMatchesFactsForPcapngAndIpv6Pcap) {
  for (const std::string name : {"loopback-http", "loopback-http-ipv6"}) {
    const auto facts = load("captures/net/" + name + ".facts.json");
    const auto capture = source_path("captures/net/" + facts["capture"].get<std::string>());
    const auto key = key_of(capture);
    std::size_t n = 0;
    for (const auto& c : facts["conversations"]) {
      const auto id = std::to_string(++n);
      EXPECT_EQ(at(key, "tcp.client." + id), c["client"].get<std::string>()) << name;
      EXPECT_EQ(at(key, "tcp.server." + id), c["server"].get<std::string>()) << name;
      EXPECT_EQ(at(key, "tcp.client_bytes." + id), std::to_string(c["client_payload_bytes"].get<int>())) << name;
      EXPECT_EQ(at(key, "tcp.server_bytes." + id), std::to_string(c["server_payload_bytes"].get<int>())) << name;
    }
    EXPECT_EQ(at(key, "tcp.conversations"), std::to_string(n));
    EXPECT_EQ(at(key, "http.server_version"), version_of(facts["conversations"][0]["server_first_line"]));
    EXPECT_EQ(at(key, "http.client_version"), "1.1");
  }
}

TEST(Questions, FtpKeyMatchesFacts) {
  const auto facts = load("captures/ftp/ftp-sessions.facts.json");
  const auto key = key_of(source_path("captures/ftp/ftp-sessions.pcapng"));
  // The accepted data-connection set-ups in command order: PASV/EPSV passive, PORT/EPRT active
  // (the last session's third PORT is refused with 504: no data connection).
  std::vector<std::string> modes;
  for (const auto& s : facts["sessions"]) {
    for (const auto& c : s["commands"]) {
      const auto verb = c["verb"].get<std::string>();
      if (c["reply_code"].get<int>() >= 300) continue;
      if (verb == "PASV" || verb == "EPSV") modes.push_back("passive");
      if (verb == "PORT" || verb == "EPRT") modes.push_back("active");
    }
  }
  const auto& data = facts["data_connections"];
  ASSERT_EQ(modes.size(), data.size());
  for (std::size_t i = 0; i < data.size(); ++i) {
    const auto id = std::to_string(i + 1);
    const auto server = data[i]["tcp_server"].get<std::string>();
    EXPECT_EQ(at(key, "ftp.data_port." + id), server.substr(server.rfind(':') + 1)) << id;
    EXPECT_EQ(at(key, "ftp.data_mode." + id), modes[i]) << id;
    EXPECT_EQ(at(key, "ftp.transfer_bytes." + id), std::to_string(data[i]["bytes"].get<int>())) << id;
  }
  EXPECT_FALSE(key.contains("ftp.data_port." + std::to_string(data.size() + 1)));
}

TEST(Questions, MailKeyMatchesFacts) {
  const auto facts = load("captures/mail/mail-path.facts.json");
  const auto key = key_of(source_path("captures/mail/mail-path.pcapng"));
  std::size_t n = 0;
  for (const auto& s : facts["smtp_sessions"]) {
    for (const auto& m : s["messages"]) {
      const auto id = std::to_string(++n);
      EXPECT_EQ(at(key, "smtp.sender." + id), m["from"].get<std::string>());
      std::string to;
      for (const auto& r : m["to"]) to += (to.empty() ? "" : ", ") + r.get<std::string>();
      EXPECT_EQ(at(key, "smtp.recipients." + id), to);
    }
  }
  EXPECT_FALSE(key.contains("smtp.recipients." + std::to_string(n + 1)));
  EXPECT_EQ(at(key, "pop3.retrieved"), std::to_string(facts["pop3_sessions"][0]["retrieved"].size()));
}

TEST(Questions, SwitchKeyHoldsOnlyArpQuestionsFromTheLearnedHosts) {
  const auto facts = load("captures/switch/four_hosts.facts.json");
  std::set<std::string> hosts;
  for (const auto& e : facts["runs"][0]["table"]) hosts.insert(e["mac"].get<std::string>());
  const auto key = key_of(source_path("captures/switch/four_hosts.pcapng"));
  // 6 ARP requests flood, each answered: 6 requests and 6 replies, two questions each; the rest are
  // the IP and ICMP questions of the pings (no TCP, so nothing of HTTP, FTP, mail or TLS).
  std::size_t arp_questions = 0;
  for (const auto& [id, answer] : key) {
    arp_questions += id.starts_with("arp.") ? 1 : 0;
    EXPECT_TRUE(id.starts_with("arp.") || id.starts_with("ip.") || id.starts_with("icmp.")) << id;
  }
  ASSERT_EQ(arp_questions, 24u);
  EXPECT_EQ(at(key, "icmp.echo_requests"), "12");  // every host pings the three others
  for (int n = 1; n <= 6; ++n) {
    EXPECT_EQ(at(key, "arp.request_eth_destination." + std::to_string(n)), "ff:ff:ff:ff:ff:ff");
    EXPECT_TRUE(at(key, "arp.request_target_ip." + std::to_string(n)).starts_with("10.0.0."));
    const auto mac = at(key, "arp.reply_sender_mac." + std::to_string(n));
    EXPECT_TRUE(hosts.contains(mac)) << mac;
    // The recipe numbers host k as 02:00:00:00:00:0k at 10.0.0.k.
    EXPECT_EQ(at(key, "arp.reply_sender_ip." + std::to_string(n)), "10.0.0." + mac.substr(mac.size() - 1));
  }
}

TEST(Questions, CaptureWithoutAnswerableQuestionsFails) {
  grade_site dir;
  const auto empty = dir.dir + "/empty.pcapng";
  {
    auto w = netlib::capture::capture_writer::create(empty);
    w.add_interface(netlib::packet::link_type::ethernet);
    w.flush();
  }
  const auto r = run({bin_path("netlab-grade"), "questions", empty, "--key"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("no question"), std::string::npos) << r.err;
  const auto s = run({bin_path("netlab-grade"), "questions", source_path("captures/switch/four_hosts.pcapng"), "--key",
                      "--select", "http"});
  EXPECT_EQ(s.exit_code, 1);
  EXPECT_NE(s.err.find("--select"), std::string::npos) << s.err;
}

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> out(1);
  for (char c : line) {
    if (c == ',')
      out.emplace_back();
    else
      out.back().push_back(c);
  }
  return out;
}

std::vector<std::string> tshark_lines(const std::vector<std::string>& args) {
  std::vector<std::string> argv{"tshark"};
  argv.insert(argv.end(), args.begin(), args.end());
  const auto r = run(argv);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> lines;
  std::istringstream in(r.out);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

TEST(Questions, HttpKeyAgreesWithTshark) {
  NETLAB_REQUIRE_PEER("tshark");
  for (const std::string c : {"captures/http/serve-session.pcapng", "captures/net/loopback-http.pcapng"}) {
    const auto key = key_of(source_path(c));
    // One line per response, in the order the requests were sent: code, segment count (empty = 1).
    const auto lines =
        tshark_lines({"-r", source_path(c), "-Y", "http.response", "-T", "fields", "-E", "separator=,", "-e",
                      "http.response.code", "-e", "tcp.segment.count", "-e", "http.response.version"});
    ASSERT_FALSE(lines.empty());
    for (std::size_t i = 0; i < lines.size(); ++i) {
      const auto id = std::to_string(i + 1);
      const auto f = split(lines[i]);
      ASSERT_EQ(f.size(), 3u) << lines[i];
      EXPECT_EQ(at(key, "http.status." + id), f[0]) << c << " " << id;
      EXPECT_EQ(at(key, "http.segments." + id), f[1].empty() ? "1" : f[1]) << c << " " << id;
    }
    EXPECT_EQ("HTTP/" + at(key, "http.server_version"), split(lines[0])[2]);
  }
}

TEST(Questions, TcpKeyAgreesWithTshark) {
  NETLAB_REQUIRE_PEER("tshark");
  const auto key = key_of(source_path("captures/ftp/ftp-sessions.pcapng"));
  // The client is the side of the first SYN (without ACK) of each stream.
  const auto syns = tshark_lines({"-r", source_path("captures/ftp/ftp-sessions.pcapng"), "-Y",
                                  "tcp.flags.syn==1 && tcp.flags.ack==0", "-T", "fields", "-E", "separator=:", "-e",
                                  "ip.src", "-e", "tcp.srcport", "-e", "ip.dst", "-e", "tcp.dstport"});
  ASSERT_EQ(std::to_string(syns.size()), at(key, "tcp.conversations"));
  for (std::size_t i = 0; i < syns.size(); ++i) {
    const auto id = std::to_string(i + 1);
    EXPECT_EQ(at(key, "tcp.client." + id) + ":" + at(key, "tcp.server." + id), syns[i]) << id;
  }
}

TEST(Questions, ArpKeysAgreeWithTshark) {
  NETLAB_REQUIRE_PEER("tshark");
  for (const std::string c : {"four_hosts", "vlans", "mac_flood"}) {
    const auto capture = source_path("captures/switch/" + c + ".pcapng");
    const auto arp = key_of(capture);
    const auto replies = tshark_lines({"-r", capture, "-Y", "arp.opcode==2", "-T", "fields", "-E", "separator=,", "-e",
                                       "arp.src.hw_mac", "-e", "arp.src.proto_ipv4"});
    ASSERT_FALSE(replies.empty()) << c;
    for (std::size_t i = 0; i < replies.size(); ++i) {
      const auto id = std::to_string(i + 1);
      EXPECT_EQ(at(arp, "arp.reply_sender_mac." + id) + "," + at(arp, "arp.reply_sender_ip." + id), replies[i]) << c;
    }
    EXPECT_FALSE(arp.contains("arp.reply_sender_mac." + std::to_string(replies.size() + 1))) << c;
    const auto requests = tshark_lines({"-r", capture, "-Y", "arp.opcode==1", "-T", "fields", "-E", "separator=,", "-e",
                                        "eth.dst", "-e", "arp.dst.proto_ipv4"});
    for (std::size_t i = 0; i < requests.size(); ++i) {
      const auto id = std::to_string(i + 1);
      EXPECT_EQ(at(arp, "arp.request_eth_destination." + id) + "," + at(arp, "arp.request_target_ip." + id),
                requests[i])
          << c;
    }
    EXPECT_FALSE(arp.contains("arp.request_target_ip." + std::to_string(requests.size() + 1))) << c;
  }
}

// An Ethernet/IPv4/TCP frame between 10.0.0.1:40000 (client) and 10.0.0.2:80.
std::vector<std::byte> tcp_frame(bool from_client, std::uint32_t seq, std::uint32_t ack, std::uint8_t flags,
                                 std::string_view data) {
  namespace wire = netlib::packet::wire;
  std::vector<std::byte> ip(40 + data.size());
  ip[0] = std::byte{0x45};
  wire::put_be16(ip.data() + 2, static_cast<std::uint16_t>(ip.size()));
  ip[8] = std::byte{64};
  ip[9] = std::byte{6};
  ip[12] = std::byte{10};
  ip[15] = std::byte(from_client ? 1 : 2);
  ip[16] = std::byte{10};
  ip[19] = std::byte(from_client ? 2 : 1);
  wire::put_be16(ip.data() + 20, from_client ? 40000 : 80);
  wire::put_be16(ip.data() + 22, from_client ? 80 : 40000);
  wire::put_be16(ip.data() + 24, static_cast<std::uint16_t>(seq >> 16));
  wire::put_be16(ip.data() + 26, static_cast<std::uint16_t>(seq));
  wire::put_be16(ip.data() + 28, static_cast<std::uint16_t>(ack >> 16));
  wire::put_be16(ip.data() + 30, static_cast<std::uint16_t>(ack));
  ip[32] = std::byte{5 << 4};
  ip[33] = std::byte{flags};
  wire::put_be16(ip.data() + 34, 65535);
  std::memcpy(ip.data() + 40, data.data(), data.size());
  netlib::packet::ethernet_frame h;
  h.ethertype = netlib::packet::ethertype::ipv4;
  return netlib::packet::encode_ethernet(h, ip);
}

// A conditional GET answered 200 in three segments, the second one retransmitted, then a
// second request on the same connection answered 304 in one segment.
std::string write_conditional_capture(const std::string& dir) {
  const std::string req1 =
      "GET /lab.html HTTP/1.1\r\nHost: example.org\r\nIf-Modified-Since: Tue, 24 Nov 2026 10:00:00 GMT\r\n\r\n";
  const std::string body(30, 'x');
  const std::string resp1 = "HTTP/1.1 200 OK\r\nContent-Length: 30\r\n\r\n" + body;
  const std::string req2 = "GET /lab.html HTTP/1.1\r\nHost: example.org\r\nIf-None-Match: \"v2\"\r\n\r\n";
  const std::string resp2 = "HTTP/1.1 304 Not Modified\r\nETag: \"v2\"\r\n\r\n";
  const auto path = dir + "/conditional.pcap";
  auto w = netlib::capture::capture_writer::create(path);
  const auto i = w.add_interface(netlib::packet::link_type::ethernet);
  std::int64_t t = 1'700'000'000'000'000'000;
  const auto put = [&](bool c, std::uint32_t seq, std::uint32_t ack, std::uint8_t flags, std::string_view d) {
    w.write(i, netlib::from_nanoseconds(t += 1'000'000), tcp_frame(c, seq, ack, flags, d));
  };
  const std::uint32_t c0 = 1000, s0 = 5000;
  put(true, c0, 0, 0x02, "");
  put(false, s0, c0 + 1, 0x12, "");
  put(true, c0 + 1, s0 + 1, 0x10, "");
  put(true, c0 + 1, s0 + 1, 0x18, req1);
  const auto r = static_cast<std::uint32_t>(req1.size());
  put(false, s0 + 1, c0 + 1 + r, 0x10, resp1.substr(0, 20));
  put(false, s0 + 21, c0 + 1 + r, 0x10, resp1.substr(20, 20));
  put(false, s0 + 21, c0 + 1 + r, 0x10, resp1.substr(20, 20));  // retransmission
  put(false, s0 + 41, c0 + 1 + r, 0x18, resp1.substr(40));
  const auto s1 = s0 + 1 + static_cast<std::uint32_t>(resp1.size());
  put(true, c0 + 1 + r, s1, 0x18, req2);
  const auto c1 = c0 + 1 + r + static_cast<std::uint32_t>(req2.size());
  put(false, s1, c1, 0x18, resp2);
  const auto s2 = s1 + static_cast<std::uint32_t>(resp2.size());
  put(true, c1, s2, 0x11, "");
  put(false, s2, c1 + 1, 0x11, "");
  put(true, c1 + 1, s2 + 1, 0x10, "");
  w.flush();
  return path;
}

TEST(Questions, ConditionalGetValidatorsAndSegmentsFromASyntheticCapture) {
  grade_site dir;
  const auto capture = write_conditional_capture(dir.dir);
  const auto key = key_of(capture);
  EXPECT_EQ(at(key, "http.if_modified_since.1"), "Tue, 24 Nov 2026 10:00:00 GMT");
  EXPECT_EQ(at(key, "http.if_none_match.2"), "\"v2\"");
  EXPECT_EQ(at(key, "http.status.1"), "200");
  EXPECT_EQ(at(key, "http.status.2"), "304");
  EXPECT_EQ(at(key, "http.segments.1"), "3");  // the retransmitted copy carries no new byte
  EXPECT_EQ(at(key, "http.segments.2"), "1");
  EXPECT_EQ(at(key, "http.body_bytes.1"), "30");
  EXPECT_EQ(at(key, "tcp.client.1"), "10.0.0.1:40000");
  EXPECT_FALSE(key.contains("http.if_modified_since.2"));
  // The same instant in RFC 850 form, and the entity tag without its quotes, are right answers.
  auto answers = key;
  answers["http.if_modified_since.1"] = "Tuesday, 24-Nov-26 10:00:00 GMT";
  answers["http.if_none_match.2"] = "v2";
  const auto g = grade({"questions", capture, "--answers", write_answers(dir.dir, answers)});
  EXPECT_EQ(g.exit_code, 0) << g.doc.dump(2);
}

TEST(Questions, CorrectAnswersScoreFullInBothFormats) {
  grade_site dir;
  const auto capture = source_path("captures/ftp/ftp-sessions.pcapng");
  const auto key = key_of(capture);
  const auto lines = grade({"questions", capture, "--answers", write_answers(dir.dir, key)});
  EXPECT_EQ(lines.exit_code, 0) << lines.doc.dump(2);
  EXPECT_EQ(lines.doc["score"], key.size());
  EXPECT_EQ(lines.doc["max_score"], key.size());
  json doc = json::object();
  for (const auto& [id, a] : key) {
    doc[id] = a.find_first_not_of("0123456789") == std::string::npos ? json(std::stoll(a)) : json(a);
  }
  const auto file = dir.dir + "/answers.json";
  std::ofstream(file) << doc.dump(2);
  const auto g = grade({"questions", capture, "--answers", file});
  EXPECT_EQ(g.exit_code, 0) << g.doc.dump(2);
  EXPECT_EQ(g.doc["score"], key.size());
}

TEST(Questions, PlantedWrongAnswersLoseExactlyThoseAndEquivalentFormsPass) {
  grade_site dir;
  const auto mail = key_of(source_path("captures/mail/mail-path.pcapng"));
  const auto arp = key_of(source_path("captures/switch/four_hosts.pcapng"));
  auto answers = arp;
  answers["arp.reply_sender_mac.1"] = "02-00-00-00-00-02";  // right, other form
  answers["arp.reply_sender_mac.2"] = "02:00:00:00:00:02";  // wrong host
  answers["arp.reply_sender_ip.3"] = "10.0.0.5";            // wrong
  answers.erase("arp.reply_sender_ip.4");                   // unanswered
  answers["arp.reply_sender_mac.5"] = "0200.0000.0004";     // right, Cisco form
  const auto g = grade(
      {"questions", source_path("captures/switch/four_hosts.pcapng"), "--answers", write_answers(dir.dir, answers)});
  EXPECT_EQ(g.exit_code, 1);
  EXPECT_EQ(g.failed_names(),
            (std::set<std::string>{"arp.reply_sender_mac.2", "arp.reply_sender_ip.3", "arp.reply_sender_ip.4"}));
  EXPECT_EQ(g.failed().at("arp.reply_sender_ip.4"), "no answer given");
  EXPECT_EQ(g.doc["score"], arp.size() - 3);

  auto m = mail;
  m["smtp.recipients.1"] = "<BOB@example.org>";
  m["tcp.client.1"] = at(mail, "tcp.client.1").replace(at(mail, "tcp.client.1").rfind(':'), 1, " ");
  m["pop3.retrieved"] = "1 message";
  m["smtp.sender.2"] = "alice@example.org";  // wrong: carol sent it
  const auto g2 =
      grade({"questions", source_path("captures/mail/mail-path.pcapng"), "--answers", write_answers(dir.dir, m)});
  EXPECT_EQ(g2.failed_names(), (std::set<std::string>{"smtp.sender.2"})) << g2.doc.dump(2);
  for (const auto& c : g2.doc["checks"]) {
    if (c["name"] == "smtp.sender.2") {
      EXPECT_EQ(c["expected"], "carol@other.org");
    }
  }
}

TEST(Questions, GradescopeAndJunitOutputs) {
  grade_site dir;
  const auto capture = source_path("captures/net/loopback-http.pcapng");
  auto answers = key_of(capture);
  answers["http.status.3"] = "200";
  const auto results = dir.dir + "/results.json";
  const auto junit = dir.dir + "/junit.xml";
  const auto g = grade(
      {"questions", capture, "--answers", write_answers(dir.dir, answers), "--gradescope", results, "--junit", junit});
  EXPECT_EQ(g.exit_code, 1);
  std::ifstream in(results);
  const auto gs = json::parse(in);
  EXPECT_EQ(gs["tests"].size(), answers.size());  // one point each (max_score is per test in Gradescope's format)
  EXPECT_EQ(gs["score"], answers.size() - 1);
  EXPECT_EQ(gs["tests"].size(), answers.size());
  std::stringstream xml;
  xml << std::ifstream(junit).rdbuf();
  EXPECT_NE(xml.str().find("failures=\"1\""), std::string::npos) << xml.str();
}

// The student's answers file is a submission, not a command-line argument: missing or malformed,
// it is graded (every question 0 with the reason, exit 1) and --gradescope still writes its file
// (docs/conventions.md, "Exit codes"), as `switch --decisions` does.
TEST(Questions, MissingOrMalformedAnswersScoreZeroAndStillWriteGradescope) {
  grade_site dir;
  const auto capture = source_path("captures/net/loopback-http.pcapng");
  const auto questions = key_of(capture).size();
  const std::vector<std::pair<std::string, std::string>> cases{
      {"http.status.1: 200\nthis line has no colon\n", "line 2"},
      {"http.status.1: 200\nhttp.status.1: 404\n", "answered twice"},
      {"Status Of Request 1: 200\n", "line 1"},
      {"{\"http.status.1\": 200,", "not valid JSON"},
      {"[\"200\"]\n", "line 1"},
      {"{\"http.status.1\": {\"code\": 200}}", "must be a string"},
      {"# nothing\n\n", "no answers"},
  };
  for (const auto& [text, message] : cases) {
    const auto file = dir.dir + "/bad.txt";
    std::ofstream(file, std::ios::trunc) << text;
    const auto g = grade({"questions", capture, "--answers", file});
    EXPECT_EQ(g.exit_code, 1) << text;
    EXPECT_EQ(g.doc["score"], 0) << text;
    ASSERT_EQ(g.failed().size(), questions) << text;
    for (const auto& [name, reason] : g.failed()) {
      EXPECT_NE(reason.find(message), std::string::npos) << text << " -> " << reason;
      EXPECT_NE(reason.find("bad.txt"), std::string::npos) << reason;
    }
    EXPECT_NE(g.err.find(message), std::string::npos) << g.err;  // one warning line for the command line
    EXPECT_EQ(std::count(g.err.begin(), g.err.end(), '\n'), 1) << g.err;
  }
  const auto results = dir.dir + "/results.json";
  const auto missing =
      run({bin_path("netlab-grade"), "questions", capture, "--answers", dir.dir + "/MISSING", "--gradescope", results});
  EXPECT_EQ(missing.exit_code, 1) << missing.err;
  std::ifstream in(results);
  ASSERT_TRUE(in) << "no Gradescope file for a missing submission";
  const auto gs = json::parse(in);
  EXPECT_EQ(gs["score"], 0);
  EXPECT_EQ(gs["tests"].size(), questions);
  EXPECT_NE(gs["tests"][0]["output"].get<std::string>().find("MISSING: no such file"), std::string::npos) << gs.dump(2);
  // What the command line gets wrong is still a usage error.
  const auto neither = run({bin_path("netlab-grade"), "questions", capture});
  EXPECT_EQ(neither.exit_code, 2);
  EXPECT_NE(neither.err.find("--key"), std::string::npos) << neither.err;
  EXPECT_EQ(run({bin_path("netlab-grade"), "questions", dir.dir + "/nothere.pcapng", "--answers", dir.dir + "/MISSING"})
                .exit_code,
            2);
}

TEST(Questions, SelectKeepsTheNamedQuestions) {
  const auto r = run({bin_path("netlab-grade"), "questions", source_path("captures/ftp/ftp-sessions.pcapng"), "--key",
                      "--json", "--select", "ftp.data_mode", "--select", "tcp.client.1"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::set<std::string> ids;
  const auto doc = json::parse(r.out);
  for (const auto& q : doc["questions"]) ids.insert(q["id"].get<std::string>());
  EXPECT_EQ(ids, (std::set<std::string>{"ftp.data_mode.1", "ftp.data_mode.2", "ftp.data_mode.3", "ftp.data_mode.4",
                                        "ftp.data_mode.5", "ftp.data_mode.6", "tcp.client.1"}));
}

}  // namespace
