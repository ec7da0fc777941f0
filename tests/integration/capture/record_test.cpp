// netlab-record on the loopback interface while a small TCP exchange happens (a Python stdlib
// server and client on 127.0.0.1, port 0), then netlab-ladder --json on the file it wrote.
#include <gtest/gtest.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <csignal>
#include <filesystem>

#include "netlib/core/sha256.hpp"
#include "support/peers.hpp"
#include "support/process.hpp"

namespace {

namespace fs = std::filesystem;
using netlab::test::bin_path;
using nlohmann::json;

// Answers one line with "pong: " + the line, then closes.
const char* server_py =
    "import socket,sys\n"
    "s=socket.socket(); s.bind(('127.0.0.1',0)); s.listen(1)\n"
    "print('listening on 127.0.0.1:%d' % s.getsockname()[1], flush=True)\n"
    "c,_=s.accept(); data=b''\n"
    "while not data.endswith(b'\\n'):\n"
    "  chunk=c.recv(4096)\n"
    "  if not chunk: break\n"
    "  data+=chunk\n"
    "c.sendall(b'pong: '+data); c.close()\n";

const char* client_py =
    "import socket,sys\n"
    "c=socket.create_connection(('127.0.0.1',int(sys.argv[1])))\n"
    "c.sendall(b'ping 12345\\n'); out=b''\n"
    "while True:\n"
    "  chunk=c.recv(4096)\n"
    "  if not chunk: break\n"
    "  out+=chunk\n"
    "sys.stdout.write(out.decode()); c.close()\n";

fs::path temp_file(const std::string& name) {
  const auto dir = fs::temp_directory_path() / ("netlab-record-test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir / name;
}

#define REQUIRE_ROOT() \
  if (::geteuid() != 0) GTEST_SKIP() << "capturing on lo needs root (CAP_NET_RAW)"

void record_exchange(const std::string& name) {
  REQUIRE_ROOT();
  NETLAB_REQUIRE_PEER("/usr/bin/python3");
  netlab::test::process server({"/usr/bin/python3", "-c", server_py});
  const std::string port = std::to_string(netlab::test::process::port_of(server.wait_listening()));
  const auto file = temp_file(name);
  netlab::test::process rec({bin_path("netlab-record"), "--interface", "lo", "--filter", "tcp port " + port, "--output",
                             file.string(), "--seconds", "30"});
  ASSERT_TRUE(rec.wait_for_line("capturing on lo")) << rec.err();
  const auto client = netlab::test::run({"/usr/bin/python3", "-c", client_py, port});
  ASSERT_EQ(client.exit_code, 0) << client.err;
  EXPECT_EQ(client.out, "pong: ping 12345\n");
  EXPECT_EQ(server.wait(), 0);
  rec.signal(SIGINT);
  ASSERT_EQ(rec.wait(), 0) << rec.err();
  EXPECT_NE(rec.out().find("packets to " + file.string()), std::string::npos) << rec.out();

  const auto ladder = netlab::test::run({bin_path("netlab-ladder"), file.string(), "--json"});
  ASSERT_EQ(ladder.exit_code, 0) << ladder.err;
  const auto doc = json::parse(ladder.out);
  ASSERT_EQ(doc.at("conversations").size(), 1u);
  const auto& c = doc["conversations"][0];
  EXPECT_EQ(c.at("server"), "127.0.0.1:" + port);
  EXPECT_EQ(c.at("client_payload_bytes"), 11);
  EXPECT_EQ(c.at("server_payload_bytes"), 17);
  EXPECT_EQ(c.at("client_sha256"), netlib::sha256::hex(netlib::as_bytes("ping 12345\n")));
  EXPECT_EQ(c.at("server_sha256"), netlib::sha256::hex(netlib::as_bytes("pong: ping 12345\n")));
  EXPECT_TRUE(c.at("handshake_seen").get<bool>());
  EXPECT_EQ(c.at("state"), "closed");
  EXPECT_GE(c.at("packets").get<int>(), 7);  // SYN, SYN-ACK, ACK, 2 data, 2 FIN at least
  fs::remove_all(file.parent_path());
}

TEST(Record, LoopbackExchangeToPcapng) {
  record_exchange("exchange.pcapng");
}
TEST(Record, LoopbackExchangeToPcap) {
  record_exchange("exchange.pcap");
}

TEST(Record, StopsAfterCountWithJsonReport) {
  REQUIRE_ROOT();
  netlab::test::process server({"/usr/bin/python3", "-c", server_py});
  const std::string port = std::to_string(netlab::test::process::port_of(server.wait_listening()));
  const auto file = temp_file("count.pcap");
  netlab::test::process rec(
      {bin_path("netlab-record"), "-i", "lo", "-f", "tcp port " + port, "-o", file.string(), "--count", "3", "--json"});
  // With --json the readiness line is on stderr and stdout is exactly one JSON document.
  ASSERT_TRUE(rec.wait_for_err_line("capturing on lo")) << rec.err();
  netlab::test::run({"/usr/bin/python3", "-c", client_py, port});
  ASSERT_EQ(rec.wait(), 0) << rec.err();
  const auto report = json::parse(rec.out());
  EXPECT_EQ(report.at("packets"), 3);
  EXPECT_EQ(report.at("format"), "pcap");
  const auto ladder = netlab::test::run({bin_path("netlab-ladder"), file.string(), "--json"});
  ASSERT_EQ(ladder.exit_code, 0) << ladder.err;
  EXPECT_EQ(json::parse(ladder.out).at("packets"), 3);
  fs::remove_all(file.parent_path());
}

TEST(Record, ErrorsAreOneLine) {
  auto bad_ext = netlab::test::run({bin_path("netlab-record"), "-i", "lo", "-o", temp_file("x.txt").string()});
  EXPECT_EQ(bad_ext.exit_code, 2);
  EXPECT_NE(bad_ext.err.find(".pcap or .pcapng"), std::string::npos) << bad_ext.err;
  REQUIRE_ROOT();
  auto no_iface = netlab::test::run({bin_path("netlab-record"), "-i", "nosuchif0", "-o", temp_file("x.pcap").string()});
  EXPECT_EQ(no_iface.exit_code, 1);
  EXPECT_NE(no_iface.err.find("nosuchif0: no such interface"), std::string::npos) << no_iface.err;
  auto bad_filter = netlab::test::run(
      {bin_path("netlab-record"), "-i", "lo", "-f", "tcp port banana", "-o", temp_file("x.pcap").string()});
  EXPECT_EQ(bad_filter.exit_code, 1);
  EXPECT_NE(bad_filter.err.find("bad filter"), std::string::npos) << bad_filter.err;
  for (const auto* r : {&bad_ext, &no_iface, &bad_filter}) EXPECT_EQ(std::count(r->err.begin(), r->err.end(), '\n'), 1);
  fs::remove_all(temp_file("x").parent_path());
}

}  // namespace
