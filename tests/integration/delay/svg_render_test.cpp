// The simulation's SVG plots rendered in headless Chromium: every text element lies inside the
// picture (measured by the browser, with its fonts), every legend entry stands for something drawn
// in its panel, and the x axis labels its largest intensity. Skipped without Chromium, except under
// CI=true.
#include <gtest/gtest.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

#include "support/peers.hpp"
#include "support/process.hpp"

namespace svg_render_test {  // named: unity batches share one translation unit

namespace fs = std::filesystem;
using netlab::test::bin_path;
using nlohmann::json;

struct temp_dir {
  fs::path path = fs::temp_directory_path() / ("netlab-svg-" + std::to_string(::getpid()));
  temp_dir() { fs::create_directories(path); }
  ~temp_dir() { fs::remove_all(path); }
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// Measures the SVG in Chromium: texts outside the picture, legend entries with nothing drawn for
// them in their panel, and the x tick labels of each panel.
const char* measure_script = R"JS(
const svg = document.querySelector('svg');
const box = svg.getBoundingClientRect();
const outside = [];
for (const t of svg.querySelectorAll('text')) {
  const b = t.getBoundingClientRect();
  if (b.width === 0) continue;
  if (b.left < box.left - 0.5 || b.top < box.top - 0.5 || b.right > box.right + 0.5 || b.bottom > box.bottom + 0.5)
    outside.push(t.textContent + ' [' + [b.left, b.top, b.right, b.bottom].map(Math.round).join(',') + ']');
}
const orphans = [];
const xticks = [];
for (const panel of svg.querySelectorAll('g.panel')) {
  for (const entry of panel.querySelectorAll('g.legend-entry')) {
    const name = entry.getAttribute('data-series');
    const drawn = [...panel.querySelectorAll('[data-series]')].filter(e => e !== entry && !e.closest('g.legend-entry') && e.getAttribute('data-series') === name);
    const marker = entry.querySelector('line, circle');
    if (drawn.length === 0 || !marker) orphans.push(name);
  }
  xticks.push([...panel.querySelectorAll('text.xtick')].map(t => t.textContent));
}
document.getElementById('result').textContent =
  'RESULT ' + JSON.stringify({texts: svg.querySelectorAll('text').length, outside, orphans, xticks});
)JS";

json measure(const fs::path& svg, const fs::path& dir) {
  const fs::path page = dir / (svg.stem().string() + ".html");
  std::ofstream(page) << "<!doctype html><html><body style=\"margin:0\">" << slurp(svg)
                      << "<pre id=\"result\"></pre><script>" << measure_script << "</script></body></html>";
  const auto profile = dir / ("profile-" + svg.stem().string());
  const auto r = netlab::test::run(
      {"/usr/bin/chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
       "--disable-component-update", "--no-first-run", "--disable-sync", "--user-data-dir=" + profile.string(),
       "--dump-dom", "file://" + page.string()},
      {}, std::chrono::seconds(90));
  const std::string marker = "<pre id=\"result\">RESULT ";
  const auto at = r.out.find(marker);
  if (r.exit_code != 0 || at == std::string::npos) {
    ADD_FAILURE() << "chromium exit " << r.exit_code << ": " << r.err.substr(0, 400);
    return json::object();
  }
  const auto end = r.out.find("</pre>", at);
  return json::parse(r.out.substr(at + marker.size(), end - at - marker.size()));
}

void expect_plot_fits(const std::vector<std::string>& args, const std::string& name) {
  temp_dir dir;
  const fs::path svg = dir.path / (name + ".svg");
  std::vector<std::string> argv{bin_path("lab-delay"), "simulate", "--packets", "2000", "--svg", svg.string()};
  argv.insert(argv.end(), args.begin(), args.end());
  const auto r = netlab::test::run(argv, {}, std::chrono::seconds(120));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto m = measure(svg, dir.path);
  ASSERT_TRUE(m.contains("texts")) << name;
  EXPECT_GT(m["texts"].get<int>(), 20) << name;
  EXPECT_TRUE(m["outside"].empty()) << name << ": text outside the picture: " << m["outside"].dump();
  EXPECT_TRUE(m["orphans"].empty()) << name << ": legend entries with nothing drawn: " << m["orphans"].dump();
  ASSERT_EQ(m["xticks"].size(), 2u) << name;
  for (const auto& ticks : m["xticks"]) {
    ASSERT_FALSE(ticks.empty()) << name;
    EXPECT_GE(std::stod(ticks.back().get<std::string>()), 1.2)
        << name << ": the last intensity is not labelled: " << ticks;
  }
}

TEST(SvgPlot, EveryTextFitsAndEveryLegendEntryIsDrawn) {
  NETLAB_REQUIRE_PEER("/usr/bin/chromium");
  expect_plot_fits({"--arrivals", "poisson", "--sizes", "exponential", "--buffer", "100"}, "mm1");
  // M/D/1 has a delay formula (below I = 1) and no loss formula: a note, not a legend entry with no line.
  expect_plot_fits({"--sizes", "fixed", "--buffer", "100"}, "md1");
  expect_plot_fits({"--arrivals", "deterministic", "--sizes", "fixed", "--buffer", "20"}, "dd1");
  expect_plot_fits({"--length", "1500B", "--rate", "1Gbps", "--buffer", "10000000", "--intensity", "0.25,0.5,0.75,1.2"},
                   "long_title");
}

}  // namespace svg_render_test
