// Malformed capture files given to netlab-ladder: a clear one-line error and exit 1 when the file
// is unusable (empty, bad magic, truncated header, corrupt length), a counted skip otherwise
// (truncated last packet, undecodable frames, snaplen-cut segments); never a crash.
#include <gtest/gtest.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

#include "netlib/capture/capture_reader.hpp"
#include "netlib/capture/capture_writer.hpp"
#include "support/process.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct files {
  fs::path dir = fs::temp_directory_path() / ("netlab-malformed-" + std::to_string(::getpid()));
  files() { fs::create_directories(dir); }
  ~files() { fs::remove_all(dir); }
  fs::path write(const std::string& name, const std::string& bytes) {
    std::ofstream(dir / name, std::ios::binary) << bytes;
    return dir / name;
  }
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

netlab::test::run_result ladder(const fs::path& p, bool json_out = false) {
  std::vector<std::string> argv{netlab::test::bin_path("netlab-ladder"), p.string()};
  if (json_out) argv.push_back("--json");
  return netlab::test::run(argv);
}

void expect_unusable(const fs::path& p, const std::string& reason) {
  const auto r = ladder(p);
  EXPECT_EQ(r.exit_code, 1) << p;
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_NE(r.err.find(reason), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(r.err.rfind("netlab-ladder: error: ", 0), 0u) << r.err;
}

const fs::path own_capture() {
  return netlab::test::source_path("captures/net/loopback-http-ipv6.pcap");
}

TEST(MalformedFiles, UnusableFilesAreOneLineErrors) {
  files f;
  const std::string good = slurp(own_capture());
  ASSERT_GT(good.size(), 100u);
  expect_unusable(f.write("empty.pcap", ""), "empty file");
  expect_unusable(f.write("magic.pcap", "not a capture at all"), "bad magic");
  expect_unusable(f.write("header.pcap", good.substr(0, 10)), "truncated file header");
  std::string corrupt = good;
  corrupt[24 + 8] = '\xff';  // first record's captured length: ~4 GB
  corrupt[24 + 9] = '\xff';
  corrupt[24 + 10] = '\xff';
  expect_unusable(f.write("corrupt.pcap", corrupt), "exceeds");
  // A file named on the command line that does not exist is a usage error (docs/conventions.md).
  const auto missing = ladder(f.dir / "missing.pcap");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("no such file"), std::string::npos) << missing.err;
  EXPECT_EQ(std::count(missing.err.begin(), missing.err.end(), '\n'), 1) << missing.err;
}

TEST(MalformedFiles, TruncatedLastPacketIsCountedAndSkipped) {
  files f;
  const std::string good = slurp(own_capture());
  const auto p = f.write("cut.pcap", good.substr(0, good.size() - 5));
  const auto r = ladder(p, true);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = json::parse(r.out);
  EXPECT_EQ(doc.at("truncated_records"), 1);
  EXPECT_EQ(doc.at("packets"), 11);
  const auto text = ladder(p);
  EXPECT_NE(text.out.find("1 truncated record skipped"), std::string::npos) << text.out;
}

TEST(MalformedFiles, GarbageFramesAndSnaplenCutsAreCounted) {
  files f;
  auto w = netlib::capture::capture_writer::create(f.dir / "mixed.pcapng");
  const auto eth = w.add_interface(netlib::packet::link_type::ethernet, "eth");
  const auto raw = w.add_interface(netlib::packet::link_type::raw, "raw");
  w.write(eth, netlib::from_nanoseconds(1), netlib::as_bytes("short"));  // truncated Ethernet
  w.write(raw, netlib::from_nanoseconds(2),
          netlib::as_bytes(std::string(40, '\x43')));  // IPv4, IHL 3: bad header length
  // Every frame of a real capture cut to 100 bytes (a snaplen cut): headers decode, payloads are short.
  auto reader = netlib::capture::capture_reader::open(own_capture());
  while (auto rec = reader.next()) {
    w.write(eth, rec->ts, rec->data.first(std::min<std::size_t>(rec->data.size(), 100)), rec->orig_len);
  }
  w.flush();
  const auto r = ladder(f.dir / "mixed.pcapng", true);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = json::parse(r.out);
  EXPECT_EQ(doc.at("packets"), 14);
  EXPECT_EQ(doc.at("decode_errors"), 2);
  ASSERT_EQ(doc.at("conversations").size(), 1u);
  // The payload bytes beyond the cut were never captured: reported as gaps, not invented.
  const auto& c = doc["conversations"][0];
  EXPECT_LT(c.at("client_payload_bytes").get<int>(), 84);
  EXPECT_GT(c.at("client_gap_bytes").get<int>() + c.at("server_gap_bytes").get<int>(), 0);
}

TEST(MalformedFiles, UsageErrors) {
  const auto none = netlab::test::run({netlab::test::bin_path("netlab-ladder")});
  EXPECT_EQ(none.exit_code, 2);
  const auto svg =
      netlab::test::run({netlab::test::bin_path("netlab-ladder"), own_capture().string(), "--svg", "x.svg"});
  EXPECT_EQ(svg.exit_code, 2);
  EXPECT_NE(svg.err.find("--svg needs --conversation"), std::string::npos);
  const auto missing = netlab::test::run({netlab::test::bin_path("netlab-ladder"), own_capture().string(), "-c", "7"});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("no conversation 7 (it has 1"), std::string::npos) << missing.err;
}

}  // namespace
