// netlab-ladder --stevens: the time-sequence graph of the committed bulk upload
// (captures/tcp/bulk-upload.pcapng) and of a download (captures/net/loopback-http.pcapng), checked
// segment by segment against tshark (every data segment of the drawn side is one bar, with
// tshark's relative sequence number, length and time, and the retransmitted ones are the ones
// tshark flags), then rendered in headless Chromium: every bar, line, marker and text lies inside
// the picture, the bars inside the plot, the axes are labelled with ticks that cover the data,
// and every legend entry stands for something drawn. Usage errors exit 2.
#include <gtest/gtest.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "support/chromium.hpp"
#include "support/peers.hpp"
#include "support/process.hpp"

namespace stevens_graph_test {  // named: unity batches share one translation unit

namespace fs = std::filesystem;
using netlab::test::bin_path;
using netlab::test::source_path;
using nlohmann::json;

struct temp_dir {
  fs::path path = fs::temp_directory_path() / ("netlab-stevens-" + std::to_string(::getpid()));
  temp_dir() { fs::create_directories(path); }
  ~temp_dir() { fs::remove_all(path); }
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

struct bar {
  std::string series;
  long long seq = 0, len = 0;
  double t = 0;
};

// The bars of the SVG, in the order drawn.
std::vector<bar> bars_of(const std::string& svg) {
  static const std::regex segment(
      R"re(<g class="segment" data-series="([a-z]+)" data-seq="([0-9]+)" data-len="([0-9]+)" data-t="([0-9.]+)")re");
  std::vector<bar> out;
  for (std::sregex_iterator it(svg.begin(), svg.end(), segment), end; it != end; ++it) {
    out.push_back({(*it)[1], std::stoll((*it)[2]), std::stoll((*it)[3]), std::stod((*it)[4])});
  }
  return out;
}

// tshark's data segments of one side of stream 0: relative seq, length, time, retransmission flag.
std::vector<bar> tshark_bars(const std::string& capture, int stream, const std::string& side_filter) {
  const auto r = netlab::test::run({"/usr/bin/tshark",
                                    "-n",
                                    "-r",
                                    capture,
                                    "-Y",
                                    "tcp.stream == " + std::to_string(stream) + " && tcp.len > 0 && " + side_filter,
                                    "-T",
                                    "fields",
                                    "-e",
                                    "tcp.seq",
                                    "-e",
                                    "tcp.len",
                                    "-e",
                                    "frame.time_relative",
                                    "-e",
                                    "tcp.analysis.retransmission",
                                    "-e",
                                    "tcp.analysis.fast_retransmission",
                                    "-e",
                                    "tcp.analysis.spurious_retransmission"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::vector<bar> out;
  std::istringstream in(r.out);
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    std::string item;
    std::istringstream cols(line);
    while (std::getline(cols, item, '\t')) f.push_back(item);
    f.resize(6);
    const bool resent = !f[3].empty() || !f[4].empty() || !f[5].empty();
    out.push_back({resent ? "retransmission" : "data", std::stoll(f[0]), std::stoll(f[1]), std::stod(f[2])});
  }
  return out;
}

void expect_bars_match_tshark(const std::vector<bar>& drawn, const std::vector<bar>& tshark) {
  ASSERT_EQ(drawn.size(), tshark.size());
  for (std::size_t i = 0; i < drawn.size(); ++i) {
    SCOPED_TRACE("data segment " + std::to_string(i + 1));
    EXPECT_EQ(drawn[i].seq, tshark[i].seq);
    EXPECT_EQ(drawn[i].len, tshark[i].len);
    EXPECT_NEAR(drawn[i].t, tshark[i].t, 1e-6);
    EXPECT_EQ(drawn[i].series, tshark[i].series);
  }
}

// Measured in Chromium: what lies outside the picture or the plot, the axis labels and ticks,
// the legend entries with nothing drawn.
const char* measure = R"JS(
const box = svg.getBoundingClientRect();
const plot = svg.querySelector('rect.plot').getBoundingClientRect();
const inside = (b, r, slack) => b.left >= r.left - slack && b.top >= r.top - slack && b.right <= r.right + slack && b.bottom <= r.bottom + slack;
const where = b => '[' + [b.left, b.top, b.right, b.bottom].map(Math.round).join(',') + ']';
const outside = [];
for (const e of svg.querySelectorAll('text, line, polyline, g.segment, g.marker')) {
  const b = e.getBoundingClientRect();
  if (b.width === 0 && b.height === 0) continue;
  if (!inside(b, box, 0.5)) outside.push(e.tagName + ' ' + (e.textContent || e.getAttribute('class') || '') + ' ' + where(b));
}
const off_plot = [];
for (const e of svg.querySelectorAll('g.segment, polyline, g.marker line')) {
  const b = e.getBoundingClientRect();
  if (!inside(b, plot, 3)) off_plot.push((e.getAttribute('class') || e.tagName) + ' ' + where(b));
}
const orphans = [];
for (const entry of svg.querySelectorAll('g.legend-entry')) {
  const name = entry.getAttribute('data-series');
  const drawn = [...svg.querySelectorAll('[data-series]')].filter(e => !e.closest('g.legend-entry') && e.getAttribute('data-series') === name);
  if (drawn.length === 0) orphans.push(name);
}
result = {
  outside, off_plot, orphans,
  segments: svg.querySelectorAll('g.segment').length,
  xlabel: (svg.querySelector('text.xlabel') || {}).textContent || '',
  ylabel: (svg.querySelector('text.ylabel') || {}).textContent || '',
  xticks: [...svg.querySelectorAll('text.xtick')].map(t => parseFloat(t.textContent)),
  yticks: [...svg.querySelectorAll('text.ytick')].map(t => parseFloat(t.textContent)),
  legend: [...svg.querySelectorAll('g.legend-entry')].map(e => e.getAttribute('data-series')),
  markers: [...svg.querySelectorAll('g.marker')].map(e => e.getAttribute('data-series')),
};
)JS";

void expect_renders_well(const fs::path& svg, const temp_dir& dir, const std::vector<bar>& bars, bool loss) {
  if (!netlab::test::find_program("/usr/bin/chromium")) {
    if (netlab::test::in_ci()) FAIL() << "peer program '/usr/bin/chromium' is missing in CI";
    GTEST_SKIP() << "chromium is not installed: the picture is not measured";
  }
  const auto m = netlab::test::measure_svg(svg, dir.path, measure);
  ASSERT_TRUE(m.contains("segments")) << m.dump();
  EXPECT_EQ(m["segments"].get<std::size_t>(), bars.size());
  EXPECT_TRUE(m["outside"].empty()) << "outside the picture: " << m["outside"].dump();
  EXPECT_TRUE(m["off_plot"].empty()) << "outside the plot: " << m["off_plot"].dump();
  EXPECT_TRUE(m["orphans"].empty()) << "legend entries with nothing drawn: " << m["orphans"].dump();
  EXPECT_EQ(m["xlabel"], "time (s since the capture began)");
  EXPECT_EQ(m["ylabel"], "sequence number (bytes, relative)");
  ASSERT_GE(m["xticks"].size(), 3u);
  ASSERT_GE(m["yticks"].size(), 3u);
  double last_t = 0;
  long long top = 0;
  for (const auto& b : bars) {
    last_t = std::max(last_t, b.t);
    top = std::max(top, b.seq + b.len);
  }
  EXPECT_GE(m["xticks"].back().get<double>(), last_t) << "the time axis ends before the last segment";
  EXPECT_GE(m["yticks"].back().get<double>(), double(top)) << "the sequence axis ends below the data";
  EXPECT_LE(m["xticks"].front().get<double>(), bars.front().t);
  const auto legend = m["legend"].get<std::vector<std::string>>();
  EXPECT_NE(std::find(legend.begin(), legend.end(), "data"), legend.end());
  EXPECT_NE(std::find(legend.begin(), legend.end(), "ack"), legend.end());
  EXPECT_NE(std::find(legend.begin(), legend.end(), "window"), legend.end());
  const auto markers = m["markers"].get<std::vector<std::string>>();
  if (loss) {
    EXPECT_NE(std::find(legend.begin(), legend.end(), "retransmission"), legend.end());
    EXPECT_EQ(markers, (std::vector<std::string>{"slow-start-end", "recovery-end"}));
  } else {
    EXPECT_TRUE(markers.empty()) << m["markers"].dump();
  }
}

TEST(StevensGraph, BulkUploadAgreesWithTsharkAndRendersInChromium) {
  NETLAB_REQUIRE_PEER("tshark");
  temp_dir dir;
  const auto capture = source_path("captures/tcp/bulk-upload.pcapng");
  const fs::path svg = dir.path / "upload.svg";
  const auto r = netlab::test::run({bin_path("netlab-ladder"), capture, "-c", "0", "--stevens", svg.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("time-sequence graph written to " + svg.string()), std::string::npos) << r.out;
  const auto text = slurp(svg);
  const auto drawn = bars_of(text);
  // The client uploads: its data segments, as tshark sees them (the client is the SYN's sender).
  const auto tshark = tshark_bars(capture, 0, "tcp.dstport == 8080");
  expect_bars_match_tshark(drawn, tshark);
  EXPECT_NE(text.find("data from the client 10.28.5.2:"), std::string::npos);
  expect_renders_well(svg, dir, drawn, true);
}

TEST(StevensGraph, DownloadDrawsTheServersDataAndNoLossMarker) {
  NETLAB_REQUIRE_PEER("tshark");
  temp_dir dir;
  const auto capture = source_path("captures/net/loopback-http.pcapng");
  const fs::path svg = dir.path / "download.svg";
  const auto r = netlab::test::run({bin_path("netlab-ladder"), capture, "-c", "1", "--stevens", svg.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto drawn = bars_of(slurp(svg));
  expect_bars_match_tshark(drawn, tshark_bars(capture, 1, "tcp.srcport == 18080"));
  expect_renders_well(svg, dir, drawn, false);
  // --stevens-data client: the client's one request segment instead.
  const fs::path client = dir.path / "client.svg";
  ASSERT_EQ(netlab::test::run({bin_path("netlab-ladder"), capture, "-c", "1", "--stevens", client.string(),
                               "--stevens-data", "client"})
                .exit_code,
            0);
  expect_bars_match_tshark(bars_of(slurp(client)), tshark_bars(capture, 1, "tcp.dstport == 18080"));
}

TEST(StevensGraph, UsageErrors) {
  const auto capture = source_path("captures/tcp/bulk-upload.pcapng");
  const auto no_conversation = netlab::test::run({bin_path("netlab-ladder"), capture, "--stevens", "x.svg"});
  EXPECT_EQ(no_conversation.exit_code, 2);
  EXPECT_NE(no_conversation.err.find("--stevens needs --conversation N"), std::string::npos) << no_conversation.err;
  const auto side_alone =
      netlab::test::run({bin_path("netlab-ladder"), capture, "-c", "0", "--stevens-data", "server"});
  EXPECT_EQ(side_alone.exit_code, 2);
  const auto missing = netlab::test::run({bin_path("netlab-ladder"), capture, "-c", "5", "--stevens", "x.svg"});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("no conversation 5"), std::string::npos) << missing.err;
}

}  // namespace stevens_graph_test
