// netlab-ladder's layout on a long conversation built for the purpose (a 16 ms handshake, a
// request with a 300-character path, 394 data segments with 100 bytes missing from the capture):
// rows spaced by time, labels that fit between the lifelines, the gap drawn where it occurs, and
// the SVG paged. With Chromium installed, every SVG text is also measured inside the picture.
#include <gtest/gtest.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <regex>

#include "support/peers.hpp"
#include "support/process.hpp"

namespace ladder_layout_test {  // named: unity batches share one translation unit

namespace fs = std::filesystem;
using netlab::test::bin_path;
using nlohmann::json;

// Writes the conversation as a classic pcap (Ethernet, IPv4 and TCP with valid checksums).
const char* make_capture = R"PY(
import struct, sys
out = open(sys.argv[1], 'wb')
out.write(struct.pack('<IHHiIII', 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
def csum(data):
    if len(data) % 2: data += b'\0'
    s = sum(struct.unpack('!%dH' % (len(data) // 2), data))
    while s >> 16: s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff
C, S = bytes([10, 0, 0, 1]), bytes([10, 0, 0, 2])
def pkt(t, up, seq, ack, flags, payload=b''):
    src, dst = (C, S) if up else (S, C)
    sport, dport = (40000, 80) if up else (80, 40000)
    tcp = struct.pack('!HHIIBBHHH', sport, dport, seq, ack, 5 << 4, flags, 65535, 0, 0) + payload
    tcp = tcp[:16] + struct.pack('!H', csum(src + dst + struct.pack('!BBH', 0, 6, len(tcp)) + tcp)) + tcp[18:]
    ip = struct.pack('!BBHHHBBH4s4s', 0x45, 0, 20 + len(tcp), 0, 0x4000, 64, 6, 0, src, dst)
    ip = ip[:10] + struct.pack('!H', csum(ip)) + ip[12:] + tcp
    eth = (b'\x02\0\0\0\0\x02' + b'\x02\0\0\0\0\x01' if up else b'\x02\0\0\0\0\x01' + b'\x02\0\0\0\0\x02') + b'\x08\x00' + ip
    usec = int(round(t * 1e6))
    out.write(struct.pack('<IIII', usec // 1000000, usec % 1000000, len(eth), len(eth)) + eth)
SYN, ACK, PSH = 0x02, 0x10, 0x08
pkt(1.0, True, 1000, 0, SYN)
pkt(1.016, False, 5000, 1001, SYN | ACK)
pkt(1.01601, True, 1001, 5001, ACK)
req = b'GET /' + b'a' * 60 + b' HTTP/1.1\r\nHost: example\r\n\r\n'
pkt(1.02, True, 1001, 5001, PSH | ACK, req)
for i in range(395):
    if i == 50: continue  # these 100 bytes are not in the capture
    pkt(1.03 + i * 0.0001, False, 5001 + 100 * i, 1001 + len(req), ACK, b'x' * 100)
)PY";

struct temp_dir {
  fs::path path = fs::temp_directory_path() / ("netlab-ladder-layout-" + std::to_string(::getpid()));
  temp_dir() { fs::create_directories(path); }
  ~temp_dir() { fs::remove_all(path); }
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

fs::path build_capture(const temp_dir& dir) {
  const auto file = dir.path / "long.pcap";
  const auto r = netlab::test::run({"/usr/bin/python3", "-c", make_capture, file.string()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return file;
}

// The y of each row: the time labels at x = 10.
std::vector<double> row_ys(const std::string& svg) {
  std::vector<double> ys;
  static const std::regex time_text(R"re(<text x="10" y="([0-9.]+)">[0-9]+\.[0-9]{6}</text>)re");
  for (std::sregex_iterator it(svg.begin(), svg.end(), time_text), end; it != end; ++it)
    ys.push_back(std::stod((*it)[1]));
  return ys;
}

TEST(LadderLayout, LongConversationIsPagedSpacedByTimeWithItsGapAndFittingLabels) {
  NETLAB_REQUIRE_PEER("/usr/bin/python3");
  temp_dir dir;
  const auto capture = build_capture(dir);
  const auto svg = dir.path / "ladder.svg";
  const auto r = netlab::test::run(
      {bin_path("netlab-ladder"), capture.string(), "-c", "0", "--spacing", "time", "--svg", svg.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // Text: the gap where it occurs, the time scale, and the pages written.
  EXPECT_NE(r.out.find("~~ 100 B from the server not in the capture ~~"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("rows spaced by time"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("ladder written to 4 pages"), std::string::npos) << r.out;
  // Pages: 398 segments, 100 per page.
  std::size_t arrows = 0;
  std::vector<std::string> pages;
  for (const char* name : {"ladder.svg", "ladder-2.svg", "ladder-3.svg", "ladder-4.svg"}) {
    ASSERT_TRUE(fs::exists(dir.path / name)) << name;
    pages.push_back(slurp(dir.path / name));
    std::size_t n = 0;
    for (auto pos = pages.back().find("marker-end"); pos != std::string::npos;
         pos = pages.back().find("marker-end", pos + 1))
      ++n;
    EXPECT_LE(n, 100u) << name;
    arrows += n;
  }
  EXPECT_EQ(arrows, 398u);
  EXPECT_FALSE(fs::exists(dir.path / "ladder-5.svg"));
  EXPECT_NE(pages[3].find("segments 301-398 of 398 (page 4 of 4)"), std::string::npos);
  // Time spacing: the 16 ms handshake gap is drawn longer than the 0.01 ms one after it.
  const auto ys = row_ys(pages[0]);
  ASSERT_GE(ys.size(), 3u);
  EXPECT_GT(ys[1] - ys[0], 2 * (ys[2] - ys[1])) << ys[0] << " " << ys[1] << " " << ys[2];
  // The gap is drawn on the page where it occurs.
  EXPECT_NE(pages[0].find("100 B from the server not in the capture"), std::string::npos);
  // Labels: no middle text wider than the lane (66 monospace characters at 11 px between x = 170
  // and x = 630); the long request line is wrapped and shortened.
  static const std::regex middle(R"re(<text x="400" y="[0-9.]+" text-anchor="middle" fill="[a-z]+">([^<]*)</text>)re");
  std::size_t labels = 0;
  for (std::sregex_iterator it(pages[0].begin(), pages[0].end(), middle), end; it != end; ++it, ++labels) {
    std::string text = (*it)[1];
    text = std::regex_replace(text, std::regex("&(amp|lt|gt|quot);"), "x");
    EXPECT_LE(text.size(), 66u) << text;
  }
  EXPECT_GE(labels, 100u);
  EXPECT_NE(pages[0].find(">GET /aaaaaaaa"), std::string::npos);
  EXPECT_NE(pages[0].find("aaa...</text>"), std::string::npos);
  // JSON: the missing bytes on the segment after them.
  const auto j = netlab::test::run({bin_path("netlab-ladder"), capture.string(), "-c", "0", "--json"});
  ASSERT_EQ(j.exit_code, 0) << j.err;
  const auto doc = json::parse(j.out);
  int with_gap = 0;
  for (const auto& step : doc["ladder"]) {
    if (step.contains("missing_bytes_before")) {
      ++with_gap;
      EXPECT_EQ(step["missing_bytes_before"], 100);
      EXPECT_EQ(step["seq"], 1 + 100 * 51);
    }
  }
  EXPECT_EQ(with_gap, 1);
}

TEST(LadderLayout, SvgTextStaysInsideThePictureInChromium) {
  NETLAB_REQUIRE_PEER("/usr/bin/python3");
  NETLAB_REQUIRE_PEER("/usr/bin/chromium");
  temp_dir dir;
  const auto capture = build_capture(dir);
  const auto svg = dir.path / "ladder.svg";
  ASSERT_EQ(
      netlab::test::run({bin_path("netlab-ladder"), capture.string(), "-c", "0", "--svg", svg.string()}).exit_code, 0);
  const auto page = dir.path / "page.html";
  std::ofstream(page)
      << "<!doctype html><html><body style=\"margin:0\">" << slurp(svg)
      << "<pre id=\"result\"></pre><script>"
         "const svg = document.querySelector('svg'); const box = svg.getBoundingClientRect();"
         "const bad = [];"
         "for (const t of svg.querySelectorAll('text')) { const b = t.getBoundingClientRect();"
         "  const middle = t.getAttribute('text-anchor') === 'middle' && t.getAttribute('x') === '400';"
         "  const lo = middle ? box.left + 170 : box.left, hi = middle ? box.left + 630 : box.right;"
         "  if (b.left < lo - 0.5 || b.right > hi + 0.5 || b.top < box.top - 0.5 || b.bottom > box.bottom + 0.5)"
         "    bad.push(t.textContent); }"
         "document.getElementById('result').textContent = 'RESULT ' + JSON.stringify({n: "
         "svg.querySelectorAll('text').length, bad});"
         "</script></body></html>";
  const auto r = netlab::test::run(
      {"/usr/bin/chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
       "--disable-component-update", "--no-first-run", "--disable-sync",
       "--user-data-dir=" + (dir.path / "profile").string(), "--dump-dom", "file://" + page.string()},
      {}, std::chrono::seconds(90));
  const std::string marker = "<pre id=\"result\">RESULT ";
  const auto at = r.out.find(marker);
  ASSERT_NE(at, std::string::npos) << r.err.substr(0, 400);
  const auto doc = json::parse(r.out.substr(at + marker.size(), r.out.find("</pre>", at) - at - marker.size()));
  EXPECT_GT(doc["n"].get<int>(), 200);
  EXPECT_TRUE(doc["bad"].empty()) << "text crossing a lifeline or the edge: " << doc["bad"].dump();
}

}  // namespace ladder_layout_test
