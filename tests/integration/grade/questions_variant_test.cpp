// Per-student variants of `netlab-grade questions`: the same seed always gives the same questions,
// two seeds give different ones on a capture with enough candidates, a variant's key is the full
// key's answers for exactly the questions it asks (a few subjects per protocol, one question of
// each slot), --ask shows those questions without answers, grading with the variant grades those
// and only those, and Gradescope's submission metadata gives the seed. Every family takes part,
// the older ones (TCP, FTP, ARP) included.
#include <fstream>
#include <map>
#include <set>

#include "grade_fixture.hpp"

namespace questions_variant {

using namespace netlab::test;
using nlohmann::json;

json questions(const std::vector<std::string>& args) {
  std::vector<std::string> argv{bin_path("netlab-grade"), "questions"};
  argv.insert(argv.end(), args.begin(), args.end());
  argv.push_back("--json");
  const auto r = run(argv);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.exit_code == 0 ? json::parse(r.out) : json::object();
}

std::set<std::string> ids_of(const json& doc) {
  std::set<std::string> out;
  for (const auto& q : doc["questions"]) out.insert(q["id"].get<std::string>());
  return out;
}

const std::string dns = source_path("captures/dns/resolver.pcapng");

TEST(QuestionVariants, SameSeedSameQuestionsOtherSeedOtherQuestions) {
  const auto a1 = questions({dns, "--key", "--variant", "s1234567"});
  const auto a2 = questions({dns, "--key", "--variant", "s1234567"});
  const auto b = questions({dns, "--key", "--variant", "s7654321"});
  EXPECT_EQ(a1["questions"], a2["questions"]);
  EXPECT_EQ(a1["variant"], "s1234567");
  EXPECT_NE(ids_of(a1), ids_of(b));
  // Twenty students: twenty seeds give many different sets of DNS queries.
  std::set<std::set<std::string>> query_sets;
  for (int s = 0; s < 20; ++s) {
    std::set<std::string> subjects;
    const auto doc = questions({dns, "--key", "--variant", "student" + std::to_string(s)});
    for (const auto& q : doc["questions"]) {
      if (q["protocol"] == "dns" && q.contains("subject")) subjects.insert(q["subject"].get<std::string>());
    }
    EXPECT_EQ(subjects.size(), 3u);  // the default --variant-items
    query_sets.insert(subjects);
  }
  EXPECT_GE(query_sets.size(), 15u);  // C(20, 3) = 1140 possible sets
}

TEST(QuestionVariants, AVariantsKeyIsTheFullKeyForTheQuestionsItAsks) {
  const auto full = questions({dns, "--key"});
  std::map<std::string, json> by_id;
  for (const auto& q : full["questions"]) by_id[q["id"].get<std::string>()] = q;
  for (const std::string seed : {"alice@example.org", "bob", "42"}) {
    const auto v = questions({dns, "--key", "--variant", seed});
    ASSERT_GT(v["count"].get<int>(), 0);
    std::map<std::string, std::set<std::string>> subjects;                   // protocol -> subjects asked
    std::map<std::tuple<std::string, std::string, std::string>, int> slots;  // one question per slot
    for (const auto& q : v["questions"]) {
      const auto id = q["id"].get<std::string>();
      ASSERT_TRUE(by_id.contains(id)) << seed << ": " << id;
      EXPECT_EQ(q, by_id[id]) << seed;
      const auto protocol = q["protocol"].get<std::string>();
      const auto subject = q.value("subject", "");
      if (!subject.empty()) subjects[protocol].insert(subject);
      if (q.contains("slot")) ++slots[{protocol, subject, q["slot"].get<std::string>()}];
    }
    for (const auto& [protocol, s] : subjects) EXPECT_LE(s.size(), 3u) << seed << " " << protocol;
    EXPECT_EQ(subjects["dns"].size(), 3u);
    EXPECT_EQ(subjects["udp"].size(), 3u);
    for (const auto& [slot, n] : slots) EXPECT_EQ(n, 1) << seed << ": slot " << std::get<2>(slot);
    // Questions on the capture as a whole are always asked.
    EXPECT_TRUE(ids_of(v).contains("dns.queries"));
    EXPECT_TRUE(ids_of(v).contains("udp.protocol_number"));
  }
  const auto one = questions({dns, "--key", "--variant", "bob", "--variant-items", "1"});
  std::set<std::string> dns_subjects;
  for (const auto& q : one["questions"]) {
    if (q["protocol"] == "dns" && q.contains("subject")) dns_subjects.insert(q["subject"].get<std::string>());
  }
  EXPECT_EQ(dns_subjects.size(), 1u);
}

TEST(QuestionVariants, OlderFamiliesTakePart) {
  const auto ftp = source_path("captures/ftp/ftp-sessions.pcapng");
  const auto v = questions({ftp, "--key", "--variant", "carol"});
  std::map<std::string, std::set<std::string>> subjects;
  for (const auto& q : v["questions"]) subjects[q["protocol"].get<std::string>()].insert(q.value("subject", ""));
  subjects["tcp"].erase("");
  EXPECT_EQ(subjects["tcp"].size(), 3u);  // 3 of the 10 conversations
  EXPECT_EQ(subjects["ftp"].size(), 3u);  // 3 of the 6 data connections
  // Of each conversation, the client or the server endpoint and one byte count.
  std::map<std::string, int> per_conversation;
  for (const auto& q : v["questions"]) {
    // (the TCP timing questions about the same conversation have no slot: all of them are asked)
    if (q["protocol"] == "tcp" && q.contains("subject") && q.contains("slot")) {
      ++per_conversation[q["subject"].get<std::string>()];
    }
  }
  for (const auto& [c, n] : per_conversation) EXPECT_EQ(n, 2) << c;
  // ARP: 3 of the 6 requests and 6 replies; a request has 2 questions, a reply the MAC or the IP.
  const auto arp = questions({source_path("captures/switch/four_hosts.pcapng"), "--key", "--variant", "carol"});
  std::set<std::string> arp_subjects;
  int arp_questions = 0;
  for (const auto& q : arp["questions"]) {
    if (q["protocol"] != "arp") continue;  // the capture's IP and ICMP questions take part too (below)
    arp_subjects.insert(q["subject"].get<std::string>());
    ++arp_questions;
  }
  EXPECT_EQ(arp_subjects.size(), 3u);
  EXPECT_GE(arp_questions, 3);
  EXPECT_LE(arp_questions, 6);
  // The packet families (IP, ICMP, TLS, TCP timing): 3 numbered items per protocol.
  std::map<std::string, std::set<std::string>> packet_subjects;
  for (const auto& q : arp["questions"]) {
    if (q["protocol"] == "ip" || q["protocol"] == "icmp") packet_subjects[q["protocol"]].insert(q.value("subject", ""));
  }
  ASSERT_TRUE(packet_subjects.contains("ip"));
  packet_subjects["ip"].erase("");
  EXPECT_EQ(packet_subjects["ip"].size(), 3u);
  const auto timing = questions({source_path("captures/tcp/bulk-upload.pcapng"), "--key", "--variant", "carol"});
  std::set<std::string> tcp_subjects;
  for (const auto& q : timing["questions"]) {
    if (q["protocol"] == "tcp" && q.contains("subject")) tcp_subjects.insert(q["subject"].get<std::string>());
  }
  EXPECT_LE(tcp_subjects.size(), 3u);  // the timing questions join the TCP family's conversations
  EXPECT_FALSE(tcp_subjects.empty());
}

TEST(QuestionVariants, AskShowsTheVariantsQuestionsWithoutAnswers) {
  const auto key = questions({dns, "--key", "--variant", "dave"});
  const auto ask = questions({dns, "--ask", "--variant", "dave"});
  EXPECT_EQ(ids_of(ask), ids_of(key));
  for (const auto& q : ask["questions"]) EXPECT_FALSE(q.contains("answer")) << q.dump();
  const auto table = run({bin_path("netlab-grade"), "questions", dns, "--ask", "--variant", "dave"});
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_NE(table.out.find("questions for"), std::string::npos);
  EXPECT_NE(table.out.find("variant dave"), std::string::npos);
  for (const auto& q : key["questions"]) {
    if (q["answer"].get<std::string>().size() > 6) {
      EXPECT_EQ(table.out.find("  " + q["answer"].get<std::string>() + "  "), std::string::npos) << q["answer"];
    }
  }
}

std::string answers_file(const std::string& dir, const json& key, const std::string& name = "answers.txt") {
  const auto file = dir + "/" + name;
  std::ofstream out(file);
  for (const auto& q : key["questions"])
    out << q["id"].get<std::string>() << ": " << q["answer"].get<std::string>() << "\n";
  return file;
}

TEST(QuestionVariants, GradingAVariantGradesItsQuestionsOnly) {
  grade_site dir;
  const auto key = questions({dns, "--key", "--variant", "erin"});
  const auto g = grade({"questions", dns, "--answers", answers_file(dir.dir, key), "--variant", "erin"});
  EXPECT_EQ(g.exit_code, 0) << g.doc.dump(2);
  EXPECT_EQ(g.doc["max_score"], key["count"]);
  // Another student's answers (the variant of "frank") score less against erin's questions.
  const auto other = questions({dns, "--key", "--variant", "frank"});
  const auto copied =
      grade({"questions", dns, "--answers", answers_file(dir.dir, other, "copied.txt"), "--variant", "erin"});
  EXPECT_EQ(copied.exit_code, 1);
  EXPECT_LT(copied.doc["score"].get<double>(), copied.doc["max_score"].get<double>());
  EXPECT_NE(copied.err.find("is not a question of this capture's variant erin"), std::string::npos) << copied.err;
  // The full key's answers answer any variant.
  const auto full = questions({dns, "--key"});
  const auto all = grade({"questions", dns, "--answers", answers_file(dir.dir, full, "all.txt"), "--variant", "erin"});
  EXPECT_EQ(all.exit_code, 0);
  EXPECT_EQ(all.doc["score"], key["count"]);
}

TEST(QuestionVariants, GradescopeMetadataGivesTheSeed) {
  grade_site dir;
  const auto metadata = dir.dir + "/submission_metadata.json";
  std::ofstream(metadata) << R"({"id": 123456, "users": [{"email": "Zoe@Example.org", "id": 1, "name": "Zoe"},
                                  {"email": "alice@example.org", "id": 2, "name": "Alice"}]})";
  const auto from_metadata = questions({dns, "--key", "--gradescope-metadata", metadata});
  const auto from_seed = questions({dns, "--key", "--variant", "alice@example.org"});
  EXPECT_EQ(from_metadata["questions"], from_seed["questions"]);
  EXPECT_EQ(from_metadata["variant"], "alice@example.org");
  const auto bad = dir.dir + "/bad.json";
  std::ofstream(bad) << R"({"users": []})";
  const auto r = run({bin_path("netlab-grade"), "questions", dns, "--key", "--gradescope-metadata", bad});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("users[].email"), std::string::npos) << r.err;
  const auto both =
      run({bin_path("netlab-grade"), "questions", dns, "--key", "--gradescope-metadata", metadata, "--variant", "x"});
  EXPECT_EQ(both.exit_code, 2);
  const auto empty = run({bin_path("netlab-grade"), "questions", dns, "--key", "--variant", ""});
  EXPECT_EQ(empty.exit_code, 2);
}

}  // namespace questions_variant
