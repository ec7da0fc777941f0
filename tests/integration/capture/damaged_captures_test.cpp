// Issue 17 defect 9 (last item) and issue 18: a capture cut in the middle of its last record, or
// with bytes missing from a TCP stream, is said to be so by every analyzer: one line on stderr
// ("PROGRAM: warning: FILE: ...") and "truncated" / "missing_bytes" in --json, with the exit code
// of the intact capture; a capture cut inside its first record has nothing to analyze (exit 1,
// one line). The captures are made here: three HTTP connections (tests/support/synthetic_capture.hpp),
// then the same cut 10 bytes short, and the same without the first response's segment.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "netlib/capture/capture_reader.hpp"
#include "netlib/capture/capture_writer.hpp"
#include "netlib/packet/packet_decoder.hpp"
#include "support/process.hpp"
#include "support/synthetic_capture.hpp"

namespace {

namespace fs = std::filesystem;
using netlab::test::bin_path;
using nlohmann::json;

// The synthetic response: its head and a 100-byte body.
const std::size_t response_bytes = std::string("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n").size() + 100;

struct captures {
  fs::path intact, truncated, gap, first_record_cut;
};

// Copies `from` without the first record whose TCP segment comes from port 80 with payload.
void drop_first_response(const fs::path& from, const fs::path& to) {
  auto in = netlib::capture::capture_reader::open(from);
  auto out = netlib::capture::capture_writer::create(to);
  const auto iface = out.add_interface(netlib::packet::link_type::ethernet);
  bool dropped = false;
  while (auto rec = in.next()) {
    const auto p = netlib::packet::decode_packet(rec->link, rec->data);
    if (!dropped && p.tcp() && p.tcp()->src_port == 80 && !p.tcp()->payload.empty()) {
      dropped = true;
      continue;
    }
    out.write(iface, rec->ts, rec->data);
  }
  out.flush();
}

const captures& made() {
  static const captures c = [] {
    captures x;
    const fs::path dir = fs::path(::testing::TempDir()) / ("netlab-damaged-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    x.intact = dir / "http.pcap";
    netlab::test::write_closed_connections(x.intact, 3, std::chrono::microseconds(500), 100, true);
    std::ifstream in(x.intact, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    x.truncated = dir / "http-truncated.pcap";
    std::ofstream(x.truncated, std::ios::binary) << bytes.substr(0, bytes.size() - 10);
    x.first_record_cut = dir / "http-head.pcap";
    std::ofstream(x.first_record_cut, std::ios::binary) << bytes.substr(0, 24 + 16 + 20);
    x.gap = dir / "http-gap.pcap";
    drop_first_response(x.intact, x.gap);
    return x;
  }();
  return c;
}

// A loopback port nothing listens on (bound, then closed): netlab-replay's target.
int refused_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  socklen_t len = sizeof a;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  ::close(fd);
  return ntohs(a.sin_port);
}

struct analyzer {
  std::string name;
  std::vector<std::string> argv;  // "{}" stands for the capture
};

std::vector<analyzer> analyzers() {
  const std::string target = "127.0.0.1:" + std::to_string(refused_port());
  return {{"lab-http", {bin_path("lab-http"), "analyze", "{}", "--json"}},
          {"lab-ftp", {bin_path("lab-ftp"), "analyze", "{}", "--json"}},
          {"lab-smtp", {bin_path("lab-smtp"), "analyze", "{}", "--json"}},
          {"lab-pop3", {bin_path("lab-pop3"), "analyze", "{}", "--json"}},
          {"lab-delay", {bin_path("lab-delay"), "analyze", "{}", "--json"}},
          {"netlab-grade", {bin_path("netlab-grade"), "questions", "{}", "--key", "--json"}},
          {"netlab-ladder", {bin_path("netlab-ladder"), "{}", "--json"}},
          {"netlab-replay", {bin_path("netlab-replay"), "{}", "--target", target, "--timeout", "1", "--json"}}};
}

netlab::test::run_result run_on(const analyzer& a, const fs::path& capture) {
  auto argv = a.argv;
  std::replace(argv.begin(), argv.end(), std::string("{}"), capture.string());
  return netlab::test::run(argv, {}, std::chrono::seconds(60));
}

std::vector<std::string> warning_lines(const std::string& err, const std::string& program) {
  std::vector<std::string> out;
  std::size_t pos = 0;
  while (pos < err.size()) {
    const auto end = err.find('\n', pos);
    const std::string line = err.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
    if (line.starts_with(program + ": warning: ")) out.push_back(line);
    pos = end == std::string::npos ? err.size() : end + 1;
  }
  return out;
}

TEST(DamagedCaptures, ATruncatedLastRecordIsReportedByEveryAnalyzer) {
  for (const auto& a : analyzers()) {
    SCOPED_TRACE(a.name);
    const auto intact = run_on(a, made().intact);
    const auto cut = run_on(a, made().truncated);
    EXPECT_EQ(cut.exit_code, intact.exit_code) << cut.err;
    EXPECT_TRUE(warning_lines(intact.err, a.name).empty()) << intact.err;
    const auto lines = warning_lines(cut.err, a.name);
    ASSERT_EQ(lines.size(), 1u) << cut.err;
    EXPECT_NE(lines[0].find(made().truncated.string() + ": the capture is truncated"), std::string::npos) << lines[0];
    const auto j = json::parse(cut.out);
    EXPECT_EQ(j.at("truncated"), true);
    EXPECT_EQ(json::parse(intact.out).at("truncated"), false);
  }
}

TEST(DamagedCaptures, BytesMissingFromAStreamAreReportedByEveryAnalyzer) {
  for (const auto& a : analyzers()) {
    SCOPED_TRACE(a.name);
    const auto intact = run_on(a, made().intact);
    const auto gap = run_on(a, made().gap);
    EXPECT_EQ(gap.exit_code, intact.exit_code) << gap.err;
    const auto lines = warning_lines(gap.err, a.name);
    ASSERT_EQ(lines.size(), 1u) << gap.err;
    EXPECT_NE(lines[0].find(std::to_string(response_bytes) + " bytes of TCP payload are missing"), std::string::npos)
        << lines[0];
    const auto j = json::parse(gap.out);
    EXPECT_EQ(j.at("missing_bytes"), response_bytes);
    EXPECT_EQ(j.at("truncated"), false);
    EXPECT_EQ(json::parse(intact.out).at("missing_bytes"), 0);
  }
}

TEST(DamagedCaptures, LabDelayShowsTheMissingBytesBesideTheGoodput) {
  const auto r = netlab::test::run({bin_path("lab-delay"), "analyze", made().gap.string(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = json::parse(r.out);
  ASSERT_EQ(j.at("connections").size(), 3u);
  EXPECT_EQ(j["connections"][0]["server_to_client"]["missing_bytes"], response_bytes);
  EXPECT_EQ(j["connections"][0]["server_to_client"]["bytes"], 0);
  EXPECT_EQ(j["connections"][1]["server_to_client"]["missing_bytes"], 0);
  const auto text = netlab::test::run({bin_path("lab-delay"), "analyze", made().gap.string()});
  EXPECT_NE(text.out.find(std::to_string(response_bytes) + " bytes missing from the capture"), std::string::npos)
      << text.out;
}

TEST(DamagedCaptures, NothingReadableIsARuntimeFailure) {
  for (const auto& a : analyzers()) {
    SCOPED_TRACE(a.name);
    const auto r = run_on(a, made().first_record_cut);
    EXPECT_EQ(r.exit_code, 1) << r.out;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find("truncated"), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
}

}  // namespace
