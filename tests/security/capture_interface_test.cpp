// Issue 31, item 14: a pcapng packet block names its interface by index into the Interface
// Description Blocks of its section (pcapng §4.2, §4.3). A packet for an interface the file never
// declared is a malformed file, as tshark says ("interface index ... is not less than ... interface
// count"): the analyzers stop with one clear error (exit 1) instead of reading on without a word.
#include <cstdio>
#include <fstream>

#include "security/security_env.hpp"
#include "support/ip_frames.hpp"

namespace capture_interface_test {

using namespace security_test;

void put32(std::string& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));  // little-endian section
}
void put16(std::string& out, std::uint16_t v) {
  out.push_back(static_cast<char>(v & 0xff));
  out.push_back(static_cast<char>(v >> 8));
}

std::string enhanced_packet(std::uint32_t interface_id, std::uint32_t microseconds,
                            const std::vector<std::byte>& frame) {
  std::string data(reinterpret_cast<const char*>(frame.data()), frame.size());
  while (data.size() % 4 != 0) data.push_back('\0');
  std::string b;
  const auto length = static_cast<std::uint32_t>(32 + data.size());
  put32(b, 6);
  put32(b, length);
  put32(b, interface_id);
  put32(b, 0);
  put32(b, 1'700'000'000u + microseconds);  // ticks (microseconds, the default resolution)
  put32(b, static_cast<std::uint32_t>(frame.size()));
  put32(b, static_cast<std::uint32_t>(frame.size()));
  b += data;
  put32(b, length);
  return b;
}

// A section with one Ethernet interface (index 0), a SYN on it, then a SYN-ACK on interface 5.
std::string capture_with_undeclared_interface() {
  std::string f;
  put32(f, 0x0A0D0D0A);  // Section Header Block
  put32(f, 28);
  put32(f, 0x1A2B3C4D);
  put16(f, 1);
  put16(f, 0);
  put32(f, 0xffffffff);
  put32(f, 0xffffffff);
  put32(f, 28);
  put32(f, 1);  // Interface Description Block: Ethernet, snaplen 65535
  put32(f, 20);
  put16(f, 1);
  put16(f, 0);
  put32(f, 65535);
  put32(f, 20);
  const netlab::test::ip_frame conn{"10.0.0.1", 40000, "10.0.0.2", 80};
  f += enhanced_packet(0, 0, conn.tcp(netlab::test::tcp_syn, 0));
  f += enhanced_packet(5, 1000, conn.reversed().tcp(netlab::test::tcp_syn | netlab::test::tcp_ack, 0));
  return f;
}

TEST(CaptureInterfaces, PacketForAnUndeclaredInterfaceIsAnError) {
  temp_dir dir("netlab-sec-pcapng-if");
  const fs::path capture = dir.path / "undeclared.pcapng";
  std::ofstream(capture, std::ios::binary) << capture_with_undeclared_interface();
  const std::string c = capture.string();
  const std::vector<std::vector<std::string>> analyzers{
      {netlab::test::bin_path("lab-http"), "analyze", c},  {netlab::test::bin_path("lab-ftp"), "analyze", c},
      {netlab::test::bin_path("lab-smtp"), "analyze", c},  {netlab::test::bin_path("lab-pop3"), "analyze", c},
      {netlab::test::bin_path("lab-delay"), "analyze", c}, {netlab::test::bin_path("netlab-ladder"), c}};
  for (const auto& argv : analyzers) {
    const auto r = netlab::test::run(argv, {}, std::chrono::seconds(30));
    const std::string first = r.err.substr(0, r.err.find('\n'));
    std::printf("%s: exit %d, %s\n", fs::path(argv[0]).filename().c_str(), r.exit_code, first.c_str());
    EXPECT_EQ(r.exit_code, 1) << argv[0] << ": " << r.out << r.err;
    EXPECT_NE(r.err.find("interface 5"), std::string::npos) << argv[0] << ": " << r.err;
  }
}

}  // namespace capture_interface_test
