// netlab-grade questions on the IP/ICMP, TLS and TCP-lab captures: the answers a student reads off
// Wireshark in its own forms are accepted (a type by number or name, an identification in decimal
// or hex, a time in µs or s, a rate in kbit/s, a set in any order, "TLSv1.3"), wrong ones lose
// exactly their point (a list out of order, a time 5 % off, another type), and a correct answers
// file scores full in the Gradescope format. The keys themselves are checked against tshark by
// tshark_answers_test.cpp and against the recorded facts by the recipes' test.
#include <fstream>

#include "grade_fixture.hpp"

namespace questions_packets_test {  // named: unity batches share one translation unit

using namespace netlab::test;
using nlohmann::json;

std::map<std::string, std::string> key_of(const std::string& capture) {
  const auto r = run({bin_path("netlab-grade"), "questions", capture, "--key", "--json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::map<std::string, std::string> out;
  const auto doc = json::parse(r.out);  // (a temporary's member in a range-for would dangle)
  for (const auto& q : doc["questions"]) out[q["id"].get<std::string>()] = q["answer"].get<std::string>();
  return out;
}

std::string answers_file(const std::string& dir, const std::map<std::string, std::string>& answers) {
  const auto file = dir + "/answers.txt";
  std::ofstream out(file);
  for (const auto& [id, a] : answers) out << id << ": " << a << "\n";
  return file;
}

// "0.059 ms" -> the same time in another unit; "0.223925 s" likewise.
double seconds(const std::string& answer) {
  const double v = std::stod(answer);
  return answer.ends_with(" ms") ? v / 1e3 : v;
}
std::string in_us(const std::string& answer) {
  return std::to_string(seconds(answer) * 1e6) + " us";
}
// The code inside "NAME (CODE)".
std::string code(const std::string& answer) {
  const auto open = answer.rfind('(');
  return answer.substr(open + 1, answer.size() - open - 2);
}

TEST(PacketQuestions, IpAndIcmpAnswerFormsAndWrongAnswers) {
  grade_site dir;
  const auto capture = source_path("captures/ip/ipv4-path.pcapng");
  const auto key = key_of(capture);
  ASSERT_EQ(key.at("icmp.error_type.1"), "destination unreachable (3)");
  ASSERT_EQ(key.at("icmp.error_code.1"), "fragmentation needed (4)");
  auto a = key;
  a["icmp.error_type.1"] = "3";                     // the number alone
  a["icmp.error_code.1"] = "Fragmentation Needed";  // the name, other case
  a["ip.identification.1"] = std::to_string(std::stoul(key.at("ip.identification.1"), nullptr, 16));  // decimal
  a["ip.protocol.1"] = "icmp";
  a["ip.dont_fragment.1"] = key.at("ip.dont_fragment.1") == "yes" ? "Yes, set" : "No";
  a["icmp.rtt.1"] = in_us(key.at("icmp.rtt.1"));
  a["ip.fragment_offsets.1"] = "0,1480,2960";
  a["icmp.router.1"] = "10.28.1.1";
  // Wrong ones.
  a["ip.ttl.1"] = std::to_string(std::stoi(key.at("ip.ttl.1")) - 1);
  a["icmp.error_type.2"] = key.at("icmp.error_type.2") == "time exceeded (11)" ? "3" : "11";
  a["icmp.rtt.2"] = std::to_string(seconds(key.at("icmp.rtt.2")) * 2e3) + " ms";
  a["ip.fragment_offsets.2"] = "1480, 0";
  const auto g = grade({"questions", capture, "--answers", answers_file(dir.dir, a)});
  EXPECT_EQ(g.exit_code, 1);
  EXPECT_EQ(g.failed_names(),
            (std::set<std::string>{"ip.ttl.1", "icmp.error_type.2", "icmp.rtt.2", "ip.fragment_offsets.2"}))
      << g.doc.dump(2);
  EXPECT_EQ(g.doc["score"], key.size() - 4);
}

TEST(PacketQuestions, TlsAnswerForms) {
  grade_site dir;
  const auto capture = source_path("captures/tls/tls-handshakes.pcapng");
  const auto key = key_of(capture);
  ASSERT_EQ(key.at("tls.cipher_suite.1"), "TLS_AES_256_GCM_SHA384 (0x1302)");
  auto a = key;
  a["tls.cipher_suite.1"] = "tls_aes_256_gcm_sha384";
  a["tls.server_version.1"] = "TLSv1.3";
  a["tls.client_hello_version.1"] = "0x0303";
  a["tls.record_types.1"] = "application data, change cipher spec, handshake";  // a set, any order
  a["tls.server_messages.2"] = "server hello; certificate; server key exchange; server hello done";
  // Wrong: the ALPN list in the other order, the suite of another connection.
  a["tls.alpn.1"] = "http/1.1, h2";
  a["tls.cipher_suite.2"] = "0x1302";
  const auto g = grade({"questions", capture, "--answers", answers_file(dir.dir, a)});
  EXPECT_EQ(g.failed_names(), (std::set<std::string>{"tls.alpn.1", "tls.cipher_suite.2"})) << g.doc.dump(2);
}

TEST(PacketQuestions, TcpTimingAnswerFormsAndFullScoreInGradescope) {
  grade_site dir;
  const auto capture = source_path("captures/tcp/bulk-upload.pcapng");
  const auto key = key_of(capture);
  auto a = key;
  a["tcp.sample_rtt.1.1"] = std::to_string(seconds(key.at("tcp.sample_rtt.1.1"))) + " s";
  a["tcp.throughput.1"] = std::to_string(std::stod(key.at("tcp.throughput.1")) * 8 / 1000) + " kbit/s";
  a["tcp.slow_start_end.1"] = std::to_string(seconds(key.at("tcp.slow_start_end.1")) * 1e3) + " ms";
  const auto results = dir.dir + "/results.json";
  const auto g = grade({"questions", capture, "--answers", answers_file(dir.dir, a), "--gradescope", results});
  EXPECT_EQ(g.exit_code, 0) << g.doc.dump(2);
  std::ifstream in(results);
  const auto doc = json::parse(in);
  EXPECT_EQ(doc["score"].get<double>(), double(key.size()));
  // 5 % off: wrong.
  a["tcp.estimated_rtt.1.6"] = std::to_string(seconds(key.at("tcp.estimated_rtt.1.6")) * 1.05e3) + " ms";
  const auto wrong = grade({"questions", capture, "--answers", answers_file(dir.dir, a)});
  EXPECT_EQ(wrong.failed_names(), (std::set<std::string>{"tcp.estimated_rtt.1.6"})) << wrong.doc.dump(2);
}

}  // namespace questions_packets_test
