// lab-dc's SVG pictures in a real browser (Debian's chromium, headless): each picture is put
// inline in a page whose script measures what the browser laid out (every link line inside the
// picture, switch labels not overlapping, unused links drawn dashed, the MLU chart's lines inside
// the plot) and writes the findings into the page, which --dump-dom prints.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <cstring>
#include <sstream>

#include "support/peers.hpp"
#include "support/process.hpp"
#include "support/third_party.hpp"

namespace dc_browser_test {

using netlab::test::bin_path;
using netlab::test::run;

const char* const checks = R"(
<pre id="result"></pre>
<script>
const out = {};
const root = document.querySelector('svg');
const W = root.viewBox.baseVal.width, H = root.viewBox.baseVal.height;
const inside = (r, box) => r.x >= box.x - 0.5 && r.y >= box.y - 0.5 && r.x + r.width <= box.x + box.width + 0.5 &&
                           r.y + r.height <= box.y + box.height + 0.5;
const page = root.getBoundingClientRect();
const arcs = [...document.querySelectorAll('line.arc')];
out.arcs = arcs.length;
out.outside = arcs.filter(a => !inside(a.getBoundingClientRect(), page)).length;
out.zero = arcs.filter(a => { const r = a.getBoundingClientRect(); return r.width + r.height < 1; }).length;
out.unused_dashed = arcs.filter(a => +a.dataset.bytes === 0 && a.getAttribute('stroke-dasharray')).length;
out.unused = arcs.filter(a => +a.dataset.bytes === 0).length;
const labels = [...document.querySelectorAll('g.switch text.label')];
let overlaps = 0;
for (let i = 0; i < labels.length; ++i) {
  const a = labels[i].getBoundingClientRect();
  for (let j = i + 1; j < labels.length; ++j) {
    const b = labels[j].getBoundingClientRect();
    if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom) ++overlaps;
  }
}
out.labels = labels.length;
out.overlaps = overlaps;
out.titles_inside = [...document.querySelectorAll('text.title, text.mlu')].every(t => inside(t.getBoundingClientRect(), page));
const lines = [...document.querySelectorAll('polyline.series')];
out.series = new Set(lines.map(l => l.dataset.name)).size;
out.series_outside = lines.filter(l => !inside(l.getBoundingClientRect(), page)).length;
// Per nested picture: unused aggregation-to-core uplinks.
out.agg_core_unused = [...root.querySelectorAll(':scope > svg')].map(s =>
    [...s.querySelectorAll('line.arc')].filter(a => a.dataset.from.startsWith('agg') && a.dataset.to.startsWith('core') &&
                                                 +a.dataset.bytes === 0).length);
document.getElementById('result').textContent = JSON.stringify(out);
</script>
)";

// Renders the SVG file in chromium; returns the script's findings.
nlohmann::json render(const std::string& dir, const std::string& svg_file) {
  std::ifstream in(svg_file);
  std::stringstream svg;
  svg << in.rdbuf();
  const std::string page = dir + "/page.html";
  std::ofstream(page) << "<!doctype html><html><body style=\"margin:0\">" << svg.str() << checks << "</body></html>";
  const auto r = run({"chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                      "--disable-component-update", "--no-first-run", "--disable-sync", "--disable-dev-shm-usage",
                      "--user-data-dir=" + dir + "/profile", "--window-size=6000,4000", "--dump-dom", "file://" + page},
                     {}, std::chrono::seconds(60));
  EXPECT_EQ(r.exit_code, 0) << r.err.substr(r.err.size() > 2000 ? r.err.size() - 2000 : 0);
  std::smatch m;
  static const std::regex result(R"(<pre id="result">([^<]*)</pre>)");
  if (!std::regex_search(r.out, m, result)) {
    ADD_FAILURE() << "no result in the page: " << r.out.substr(0, 2000);
    return {};
  }
  std::string text = m[1];
  for (auto [from, to] : {std::pair{"&quot;", "\""}, {"&amp;", "&"}}) {
    for (auto p = text.find(from); p != std::string::npos; p = text.find(from)) text.replace(p, std::strlen(from), to);
  }
  return nlohmann::json::parse(text);
}

TEST(dc_browser, ecmp_fabric_is_drawn_inside_the_picture) {
  NETLAB_REQUIRE_PEER("chromium");
  const auto dir = netlab::test::make_temp_folder("dc-svg");
  const auto r = run({bin_path("lab-dc"), "ecmp", "--topology", "leaf-spine:4x2", "--flows", "12", "--svg", dir + "/f.svg"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = render(dir, dir + "/f.svg");
  EXPECT_EQ(j["arcs"], 32);  // 16 links, two directions each
  EXPECT_EQ(j["outside"], 0);
  EXPECT_EQ(j["zero"], 0);
  EXPECT_EQ(j["labels"], 6);
  EXPECT_EQ(j["overlaps"], 0);
  EXPECT_GT(j["unused"].get<int>(), 0);  // 12 flows leave some links idle
  EXPECT_EQ(j["unused_dashed"], j["unused"]);
  EXPECT_TRUE(j["titles_inside"].get<bool>());
  std::filesystem::remove_all(dir);
}

TEST(dc_browser, polarization_pictures_show_the_idle_core_uplinks) {
  NETLAB_REQUIRE_PEER("chromium");
  const auto dir = netlab::test::make_temp_folder("dc-svg");
  const auto r = run({bin_path("lab-dc"), "polarize", "--topology", "fat-tree:4", "--flows", "2000", "--hash", "linux",
                      "--svg", dir + "/p.svg"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = render(dir, dir + "/p.svg");
  EXPECT_EQ(j["arcs"], 3 * 2 * 48);
  EXPECT_EQ(j["outside"], 0);
  EXPECT_EQ(j["overlaps"], 0);
  EXPECT_EQ(j["labels"], 3 * 20);
  EXPECT_EQ(j["agg_core_unused"], nlohmann::json::array({8, 0, 0}));
  EXPECT_EQ(j["unused_dashed"], j["unused"]);
  std::filesystem::remove_all(dir);
}

TEST(dc_browser, mlu_chart_has_a_line_per_scheme_inside_the_plot) {
  NETLAB_REQUIRE_PEER("chromium");
  const auto dir = netlab::test::make_temp_folder("dc-svg");
  const auto r = run({bin_path("lab-dc"), "te", "--generate", "--matrices", "8", "--svg", dir + "/t.svg"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = render(dir, dir + "/t.svg");
  EXPECT_EQ(j["series"], 5);
  EXPECT_EQ(j["series_outside"], 0);
  EXPECT_TRUE(j["titles_inside"].get<bool>());
  std::filesystem::remove_all(dir);
}

}  // namespace dc_browser_test
