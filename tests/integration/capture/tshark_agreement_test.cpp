// Every capture in captures/ (net, http, ftp, mail, switch, golden) against tshark as the oracle,
// one parameterized test per capture file (so ctest runs them in parallel):
//   - TCP: per conversation (netlab-ladder --json) the endpoints, the packet count and both
//     directions' payload size and SHA-256 equal tshark's stream (`-z follow,tcp,raw,N`);
//   - the protocols the capture holds (the table below; golden captures list theirs in their
//     facts file): HTTP methods and status codes per connection (lab-http analyze --json), FTP
//     commands and reply codes per control connection (lab-ftp analyze), SMTP and POP3 commands
//     per session (lab-smtp / lab-pop3 analyze); tshark decodes the server ports the analyzers
//     report (`-d tcp.port==P,PROTO`: the recipes use non-standard ports);
//   - every frame: the ARP sender MAC and the VLAN ids (netlib's packet decoder) equal tshark's
//     arp.src.hw_mac and vlan.id; for switch captures, lab-switch replay --json sees every frame
//     with tshark's eth.src.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "golden_checks.hpp"
#include "netlib/capture/capture_reader.hpp"
#include "netlib/packet/packet_decoder.hpp"
#include "replay/capture/tshark_oracle.hpp"
#include "support/peers.hpp"

namespace {

namespace fs = std::filesystem;
using netlab::test::bin_path;
using nlohmann::json;

// The protocols each captures/ folder holds; golden/ captures name theirs in NAME.facts.json.
// A capture in a folder missing here fails CapturesTable.EveryCaptureIsListed.
const std::map<std::string, std::vector<std::string>>& folder_protocols() {
  static const std::map<std::string, std::vector<std::string>> table{
      {"net", {"http"}},
      {"http", {"http"}},
      {"ftp", {"ftp"}},
      {"mail", {"smtp", "pop3"}},
      {"switch", {"switch"}},
      {"golden", {}},
      // DNS, DHCP and the NAT's UDP and TCP: their decoders against tshark in packet_decoders_tshark_test.cpp.
      {"dns", {}},
      {"dhcp", {}},
      {"nat", {}},
      // IP/ICMP, TLS and the TCP lab: their questions are checked against tshark field by field by
      // tests/integration/grade/tshark_answers_test.cpp; here, as every capture, TCP and ARP.
      {"ip", {}},
      {"tls", {}},
      {"tcp", {}}};
  return table;
}

std::vector<std::string> all_captures() {
  std::vector<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(netlab::test::source_path("captures"))) {
    const auto ext = e.path().extension();
    if (e.is_regular_file() && (ext == ".pcap" || ext == ".pcapng")) out.push_back(e.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> protocols_of(const fs::path& capture_file) {
  const auto folder = capture_file.parent_path().filename().string();
  if (folder == "golden") {
    const auto facts = capture_file.parent_path() / (capture_file.stem().string() + ".facts.json");
    return netlab::test::load_json(facts).at("protocols").get<std::vector<std::string>>();
  }
  return folder_protocols().at(folder);
}

json run_json(const std::vector<std::string>& argv) {
  auto a = argv;
  a.front() = bin_path(a.front());
  const auto r = netlab::test::run(a);
  EXPECT_EQ(r.exit_code, 0) << argv.front() << ": " << r.err;
  return json::parse(r.out, nullptr, false);
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(s);
  while (std::getline(in, item, sep)) out.push_back(item);
  if (!s.empty() && s.back() == sep) out.push_back("");
  return out;
}

// tshark's per-frame fields: tcp.stream and the protocol fields below, all occurrences.
const std::vector<std::string> tshark_fields{"tcp.stream",
                                             "http.request.method",
                                             "http.response.code",
                                             "ftp.request.command",
                                             "ftp.response.code",
                                             "smtp.req.command",
                                             "pop.request.command",
                                             "arp.src.hw_mac",
                                             "vlan.id",
                                             "eth.src"};

struct tshark_frame {
  int stream = -1;
  std::map<std::string, std::vector<std::string>> values;  // field -> its occurrences in the frame
};

std::vector<tshark_frame> tshark_frames(const std::string& file, const std::vector<std::string>& decode_as) {
  std::vector<std::string> argv{"/usr/bin/tshark", "-n", "-r", file};
  for (const auto& d : decode_as) argv.insert(argv.end(), {"-d", d});
  argv.insert(argv.end(), {"-T", "fields", "-E", "occurrence=a", "-E", "aggregator=,"});
  for (const auto& f : tshark_fields) argv.insert(argv.end(), {"-e", f});
  const auto r = netlab::test::run(argv);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::vector<tshark_frame> frames;
  for (const auto& line : split(r.out, '\n')) {
    if (line.empty()) continue;
    const auto cols = split(line, '\t');
    tshark_frame f;
    for (std::size_t i = 0; i < tshark_fields.size() && i < cols.size(); ++i) {
      if (cols[i].empty()) continue;
      if (i == 0)
        f.stream = std::stoi(cols[i]);
      else
        f.values[tshark_fields[i]] = split(cols[i], ',');
    }
    frames.push_back(std::move(f));
  }
  return frames;
}

// field's occurrences per tcp.stream, in frame order.
std::map<int, std::vector<std::string>> per_stream(const std::vector<tshark_frame>& frames, const std::string& field) {
  std::map<int, std::vector<std::string>> out;
  for (const auto& f : frames) {
    const auto it = f.values.find(field);
    if (it != f.values.end()) out[f.stream].insert(out[f.stream].end(), it->second.begin(), it->second.end());
  }
  return out;
}

std::string port_of(const std::string& endpoint) {
  return endpoint.substr(endpoint.rfind(':') + 1);
}

class Captures : public testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    NETLAB_REQUIRE_PEER("tshark");
    file_ = GetParam();
    ladder_ = run_json({"netlab-ladder", file_, "--json"});
    ASSERT_TRUE(ladder_.is_object());
    for (const auto& c : ladder_.at("conversations")) {
      conversation_ids_[c.at("client").get<std::string>() + " " + c.at("server").get<std::string>()] = c.at("id");
    }
  }
  int conversation_of(const json& session) const {
    const auto it =
        conversation_ids_.find(session.at("client").get<std::string>() + " " + session.at("server").get<std::string>());
    return it == conversation_ids_.end() ? -1 : it->second;
  }
  std::string file_;
  json ladder_;
  std::map<std::string, int> conversation_ids_;
};

void expect_conversations_agree(const json& ladder, const std::vector<tshark_frame>& frames, const std::string& file) {
  std::map<int, std::size_t> packets;
  for (const auto& f : frames) {
    if (f.stream >= 0) ++packets[f.stream];
  }
  EXPECT_EQ(ladder.at("packets"), frames.size());
  const auto& convs = ladder.at("conversations");
  ASSERT_EQ(convs.size(), packets.size());
  if (convs.empty()) return;
  const auto oracle = netlab::test::tshark_read(file);
  ASSERT_TRUE(oracle.ok) << oracle.error;
  for (const auto& c : convs) {
    const int id = c.at("id");
    SCOPED_TRACE("conversation " + std::to_string(id));
    const auto& t = oracle.streams.at(id);
    EXPECT_EQ(c.at("client"), t.node0);
    EXPECT_EQ(c.at("server"), t.node1);
    EXPECT_EQ(c.at("packets"), packets.at(id));
    EXPECT_EQ(c.at("client_payload_bytes"), t.data0.size());
    EXPECT_EQ(c.at("server_payload_bytes"), t.data1.size());
    EXPECT_EQ(c.at("client_sha256"), netlab::test::sha256_hex(t.data0));
    EXPECT_EQ(c.at("server_sha256"), netlab::test::sha256_hex(t.data1));
  }
}

// Per frame: ARP sender MAC and VLAN ids from netlib's decoder, as tshark prints them.
void expect_link_layer_agrees(const std::string& file, const std::vector<tshark_frame>& frames) {
  auto reader = netlib::capture::capture_reader::open(file);
  std::size_t i = 0;
  while (auto rec = reader.next()) {
    ASSERT_LT(i, frames.size());
    const auto d = netlib::packet::decode_packet(rec->link, rec->data);
    std::vector<std::string> arp, vlans;
    if (const auto* a = d.arp()) arp.push_back(a->sender_mac.to_string());
    if (d.ethernet) {
      for (const auto& tag : d.ethernet->tags) vlans.push_back(std::to_string(tag.vid));
    }
    const auto& t = frames[i].values;
    EXPECT_EQ(arp, t.count("arp.src.hw_mac") ? t.at("arp.src.hw_mac") : std::vector<std::string>{})
        << "frame " << i + 1;
    EXPECT_EQ(vlans, t.count("vlan.id") ? t.at("vlan.id") : std::vector<std::string>{}) << "frame " << i + 1;
    ++i;
  }
  EXPECT_EQ(i, frames.size());
}

using stream_lists = std::map<int, std::vector<std::string>>;

void expect_http_agrees(const json& out, const std::vector<tshark_frame>& frames) {
  ASSERT_FALSE(out.at("transactions").empty()) << "lab-http analyze found no HTTP";
  stream_lists methods, codes;
  for (const auto& t : out.at("transactions")) {
    const int id = t.at("connection");
    methods[id].push_back(t.at("method"));
    for (const auto& i : t.at("interim")) codes[id].push_back(std::to_string(i.get<int>()));
    if (t.at("status").get<int>() != 0) codes[id].push_back(std::to_string(t.at("status").get<int>()));
  }
  EXPECT_EQ(methods, per_stream(frames, "http.request.method"));
  EXPECT_EQ(codes, per_stream(frames, "http.response.code"));
}

// FTP: per control connection the commands and the reply codes (greeting first; tshark's 1xx
// preliminary replies left out, as lab-ftp keeps each command's final reply).
void expect_ftp_agrees(const json& out, const std::vector<tshark_frame>& frames,
                       const std::map<std::string, int>& ids) {
  ASSERT_FALSE(out.at("sessions").empty()) << "lab-ftp analyze found no FTP session";
  stream_lists verbs, codes;
  for (const auto& s : out.at("sessions")) {
    const int id = ids.at(s.at("client").get<std::string>() + " " + s.at("server").get<std::string>());
    codes[id].push_back(std::to_string(s.at("greeting").get<int>()));
    for (const auto& c : s.at("commands")) {
      verbs[id].push_back(c.at("verb"));
      if (c.at("reply_code").get<int>() != 0) codes[id].push_back(std::to_string(c.at("reply_code").get<int>()));
    }
  }
  auto tshark_codes = per_stream(frames, "ftp.response.code");
  for (auto& [id, list] : tshark_codes) std::erase_if(list, [](const std::string& c) { return c.starts_with("1"); });
  EXPECT_EQ(verbs, per_stream(frames, "ftp.request.command"));
  EXPECT_EQ(codes, tshark_codes);
}

// SMTP and POP3: per session the commands in order (tshark stops at STARTTLS, as the session
// is encrypted after it). tshark's smtp.req.command keeps a command's first 4 letters
// (STARTTLS is "STAR"): `letters` cuts the analyzer's verbs the same way.
void expect_commands_agree(const json& out, const std::vector<tshark_frame>& frames, const std::string& field,
                           const std::map<std::string, int>& ids, std::size_t letters = std::string::npos) {
  ASSERT_FALSE(out.at("sessions").empty()) << "the analyzer found no session for " << field;
  stream_lists verbs;
  for (const auto& s : out.at("sessions")) {
    const int id = ids.at(s.at("client").get<std::string>() + " " + s.at("server").get<std::string>());
    for (const auto& c : s.at("commands")) verbs[id].push_back(c.at("verb").get<std::string>().substr(0, letters));
  }
  // Commands are case-insensitive (RFC 5321 §2.4, RFC 1939 §3): tshark keeps them as sent
  // (smtplib sends "ehlo"), the analyzers upper-case them.
  auto seen = per_stream(frames, field);
  for (auto& [id, list] : seen) {
    for (auto& v : list) std::transform(v.begin(), v.end(), v.begin(), [](unsigned char c) { return std::toupper(c); });
  }
  EXPECT_EQ(verbs, seen);
}

// Switch captures: lab-switch replay --json sees every frame, each with tshark's source MAC.
void expect_switch_agrees(const std::string& file, const std::vector<tshark_frame>& frames) {
  std::vector<std::string> argv{"lab-switch", "replay", file, "--json"};
  const auto conf = fs::path(file).replace_extension(".vlan.conf");
  if (fs::exists(conf)) argv.insert(argv.end(), {"--vlan-config", conf.string()});
  const auto out = run_json(argv);
  const auto& replayed = out.at("frames");
  ASSERT_EQ(replayed.size(), frames.size());
  for (std::size_t i = 0; i < frames.size(); ++i) {
    const auto it = frames[i].values.find("eth.src");
    const auto& src = replayed[i].at("src");
    if (it == frames[i].values.end() || src.is_null()) {
      EXPECT_TRUE(it == frames[i].values.end() || it->second.empty())
          << "frame " << i + 1 << ": lab-switch saw no source MAC";
      continue;
    }
    EXPECT_EQ(src, it->second.front()) << "frame " << i + 1;
  }
}

const std::map<std::string, std::string>& decode_names() {
  static const std::map<std::string, std::string> names{
      {"http", "http"}, {"ftp", "ftp"}, {"smtp", "smtp"}, {"pop3", "pop"}};
  return names;
}

TEST_P(Captures, AgreeWithTshark) {
  const auto protocols = protocols_of(file_);
  std::map<std::string, json> outputs;
  std::set<std::string> decode_as;
  for (const auto& p : protocols) {
    if (p == "switch") continue;
    outputs[p] = run_json({"lab-" + p, "analyze", file_, "--json"});
    ASSERT_TRUE(outputs[p].is_object());
    const auto& convs = ladder_.at("conversations");
    for (const auto& item : outputs[p].value(p == "http" ? "transactions" : "sessions", json::array())) {
      const std::string server =
          p == "http" ? convs.at(item.at("connection").get<std::size_t>()).at("server") : item.at("server");
      decode_as.insert("tcp.port==" + port_of(server) + "," + decode_names().at(p));
    }
  }
  const auto frames = tshark_frames(file_, {decode_as.begin(), decode_as.end()});
  ASSERT_FALSE(frames.empty());
  expect_conversations_agree(ladder_, frames, file_);
  expect_link_layer_agrees(file_, frames);
  for (const auto& p : protocols) {
    SCOPED_TRACE(p);
    if (p == "http") expect_http_agrees(outputs[p], frames);
    if (p == "ftp") expect_ftp_agrees(outputs[p], frames, conversation_ids_);
    if (p == "smtp") expect_commands_agree(outputs[p], frames, "smtp.req.command", conversation_ids_, 4);
    if (p == "pop3") expect_commands_agree(outputs[p], frames, "pop.request.command", conversation_ids_);
    if (p == "switch") expect_switch_agrees(file_, frames);
  }
}

std::string test_name(const testing::TestParamInfo<std::string>& info) {
  const fs::path p(info.param);
  std::string name = p.parent_path().filename().string() + "_" + p.filename().string();
  for (auto& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

}  // namespace

INSTANTIATE_TEST_SUITE_P(All, Captures, testing::ValuesIn(all_captures()), test_name);

// Every capture folder is in the table above, and every capture is in a folder (so none is left
// out of the tshark comparison).
TEST(CapturesTable, EveryCaptureIsListed) {
  const auto captures = all_captures();
  EXPECT_GE(captures.size(), 12u);
  for (const auto& c : captures) {
    const auto folder = fs::path(c).parent_path().filename().string();
    EXPECT_TRUE(folder_protocols().count(folder)) << c << ": add its folder to folder_protocols()";
    if (folder == "golden") {
      EXPECT_NO_THROW(protocols_of(c)) << c << ": a golden capture needs its facts file";
    }
  }
}
