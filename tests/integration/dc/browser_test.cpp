// lab-dc's SVG pictures in a real browser (Debian's chromium, headless): each picture is put
// inline in a page whose script measures what the browser laid out (the two lines of every link
// apart, every text inside the picture, the numbers on the links not overlapping, switch labels
// not overlapping, unused links drawn dashed, every MLU chart series visible where others have
// the same values) and writes the findings into the page, which --dump-dom prints.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <regex>
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
const inside = (r, box) => r.x >= box.x - 0.5 && r.y >= box.y - 0.5 && r.x + r.width <= box.x + box.width + 0.5 &&
                           r.y + r.height <= box.y + box.height + 0.5;
const page = root.getBoundingClientRect();
const arcs = [...document.querySelectorAll('line.arc')];
out.arcs = arcs.length;
out.outside = arcs.filter(a => !inside(a.getBoundingClientRect(), page)).length;
out.zero = arcs.filter(a => { const r = a.getBoundingClientRect(); return r.width + r.height < 1; }).length;
out.unused_dashed = arcs.filter(a => +a.dataset.bytes === 0 && a.getAttribute('stroke-dasharray')).length;
out.unused = arcs.filter(a => +a.dataset.bytes === 0).length;
// The two lines of a link (arcs 2l and 2l + 1 of one picture): where the browser drew them.
const centre = e => { const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; };
let links = 0, apart = 0, closest = 1e9, farthest = 0;
for (const svg of [root, ...root.querySelectorAll(':scope > svg')]) {
  const byArc = new Map();
  for (const a of svg.querySelectorAll(':scope > g.links > line.arc')) byArc.set(+a.dataset.arc, a);
  for (const [arc, a] of byArc) {
    if (arc % 2) continue;
    const b = byArc.get(arc + 1);
    if (!b) continue;
    ++links;
    const [ax, ay] = centre(a), [bx, by] = centre(b);
    const d = Math.hypot(ax - bx, ay - by);
    closest = Math.min(closest, d);
    farthest = Math.max(farthest, d);
    if (d >= 4) ++apart;
  }
}
out.links = links;
out.links_apart = apart;
out.closest_pair_px = closest;
out.farthest_pair_px = farthest;
// Every text inside the picture, and inside its own nested picture.
const texts = [...document.querySelectorAll('svg text')];
out.texts = texts.length;
out.text_outside = texts.filter(t => {
  const own = t.closest('svg').getBoundingClientRect();
  const r = t.getBoundingClientRect();
  return !inside(r, page) || !inside(r, own);
}).map(t => t.textContent.slice(0, 60));
out.titles = document.querySelectorAll('text.title').length;
out.mlu_texts = document.querySelectorAll('text.mlu').length;
// Numbers on the links: one per line, none on another.
const nums = [...document.querySelectorAll('text.num')];
out.numbers = nums.length;
let num_overlaps = 0;
const boxes = nums.map(n => n.getBoundingClientRect());
for (let i = 0; i < boxes.length; ++i)
  for (let j = i + 1; j < boxes.length; ++j) {
    const a = boxes[i], b = boxes[j];
    if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5) ++num_overlaps;
  }
out.number_overlaps = num_overlaps;
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
const lines = [...document.querySelectorAll('polyline[data-series]')];
out.series = new Set(lines.map(l => l.dataset.series)).size;
out.series_outside = lines.filter(l => !inside(l.getBoundingClientRect(), page)).length;
out.series_styles = new Set(lines.map(l => (l.getAttribute('stroke-dasharray') || 'solid') + ' ' + l.getAttribute('stroke'))).size;
// Per series: the share of its markers of which some pixel is on top (elementFromPoint on a 7 x 7
// grid over the marker's box).
const markers = [...document.querySelectorAll('.marker')].filter(m => !m.closest('title'));
const visible = {}, total = {}, shapes = {};
for (const m of markers) {
  const s = m.dataset.series;
  shapes[s] = m.tagName + (m.tagName === 'polygon' ? m.getAttribute('points').split(' ').length : '');
  const r = m.getBoundingClientRect();
  if (m.closest('g.legend-entry')) continue;  // the legend's sample
  total[s] = (total[s] || 0) + 1;
  let hit = false;
  for (let i = 0; i < 7 && !hit; ++i)
    for (let k = 0; k < 7 && !hit; ++k) {
      const e = document.elementFromPoint(r.x + 0.7 + (r.width - 1.4) * i / 6, r.y + 0.7 + (r.height - 1.4) * k / 6);
      hit = e && e.dataset && e.dataset.series === s && e.classList.contains('marker');
    }
  if (hit) visible[s] = (visible[s] || 0) + 1;
}
out.marker_shapes = new Set(Object.values(shapes)).size;
out.markers_visible = Object.keys(total).map(s => (visible[s] || 0) / total[s]);
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

// The checks every fabric picture passes: the two directions of every link drawn apart (about
// 9 px between their centres, never on one line), every text inside the picture, the numbers on
// the links not on one another.
void expect_readable_fabric(const nlohmann::json& j, std::size_t links) {
  std::cout << "svg checks: " << j["links_apart"] << " of " << j["links"]
            << " links with their two lines apart (centres " << j["closest_pair_px"] << " to " << j["farthest_pair_px"]
            << " px), " << j["texts"] << " texts, " << j["text_outside"].size() << " outside, " << j["numbers"]
            << " numbers, " << j["number_overlaps"] << " overlapping\n";
  EXPECT_EQ(j["links"], links);
  EXPECT_EQ(j["links_apart"], links) << "closest pair " << j["closest_pair_px"];
  EXPECT_GE(j["closest_pair_px"].get<double>(), 6.0);
  EXPECT_LE(j["farthest_pair_px"].get<double>(), 12.0);
  EXPECT_EQ(j["text_outside"], nlohmann::json::array());
  EXPECT_EQ(j["number_overlaps"], 0);
  EXPECT_EQ(j["outside"], 0);
  EXPECT_EQ(j["zero"], 0);
  EXPECT_EQ(j["overlaps"], 0);
  EXPECT_EQ(j["unused_dashed"], j["unused"]);
}

TEST(DcBrowser, ecmp_fabric_is_drawn_inside_the_picture) {
  NETLAB_REQUIRE_PEER("chromium");
  const auto dir = netlab::test::make_temp_folder("dc-svg");
  const auto r =
      run({bin_path("lab-dc"), "ecmp", "--topology", "leaf-spine:4x2", "--flows", "12", "--svg", dir + "/f.svg"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = render(dir, dir + "/f.svg");
  EXPECT_EQ(j["arcs"], 32);  // 16 links, two directions each
  expect_readable_fabric(j, 16);
  EXPECT_EQ(j["numbers"], 32);  // a number on every line
  EXPECT_EQ(j["labels"], 6);
  EXPECT_GT(j["unused"].get<int>(), 0);  // 12 flows leave some links idle
  EXPECT_EQ(j["mlu_texts"], 1);
  EXPECT_TRUE(j["titles_inside"].get<bool>());
  std::filesystem::remove_all(dir);
}

// The handout's first picture, with a long subtitle (per-switch seeds, a Pareto source).
TEST(DcBrowser, long_titles_wrap_inside_the_picture) {
  NETLAB_REQUIRE_PEER("chromium");
  const auto dir = netlab::test::make_temp_folder("dc-svg");
  const auto r = run({bin_path("lab-dc"), "ecmp", "--topology", "leaf-spine:4x2x3", "--flows", "200", "--pareto", "1.2",
                      "--hash", "toeplitz", "--seed", "per-switch", "--hash-seed", "123456", "--svg", dir + "/f.svg"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = render(dir, dir + "/f.svg");
  expect_readable_fabric(j, 20);
  std::filesystem::remove_all(dir);
}

TEST(DcBrowser, polarization_pictures_show_the_idle_core_uplinks) {
  NETLAB_REQUIRE_PEER("chromium");
  const auto dir = netlab::test::make_temp_folder("dc-svg");
  const auto r = run({bin_path("lab-dc"), "polarize", "--topology", "fat-tree:4", "--flows", "2000", "--hash", "linux",
                      "--svg", dir + "/p.svg"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = render(dir, dir + "/p.svg");
  EXPECT_EQ(j["arcs"], 3 * 2 * 48);
  expect_readable_fabric(j, 3 * 48);
  EXPECT_EQ(j["labels"], 3 * 20);
  EXPECT_EQ(j["mlu_texts"], 3);
  EXPECT_GE(j["numbers"].get<int>(), 3 * 2 * 48 * 9 / 10);  // nearly every line numbered in a k = 4 fat-tree
  EXPECT_EQ(j["agg_core_unused"], nlohmann::json::array({8, 0, 0}));
  std::filesystem::remove_all(dir);
}

TEST(DcBrowser, mlu_chart_has_a_visible_line_per_scheme_inside_the_plot) {
  NETLAB_REQUIRE_PEER("chromium");
  const auto dir = netlab::test::make_temp_folder("dc-svg");
  // A symmetric fabric: optimal, predicted and robust have the same values at every matrix, the
  // case where one line used to hide another.
  const auto r = run({bin_path("lab-dc"), "te", "--generate", "--matrices", "8", "--svg", dir + "/t.svg"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = render(dir, dir + "/t.svg");
  EXPECT_EQ(j["series"], 5);
  EXPECT_EQ(j["series_styles"], 5);  // five colours with five dash patterns
  EXPECT_EQ(j["marker_shapes"], 5);
  ASSERT_EQ(j["markers_visible"].size(), 5u);
  for (const auto& share : j["markers_visible"]) EXPECT_GE(share.get<double>(), 0.9) << j["markers_visible"];
  EXPECT_EQ(j["series_outside"], 0);
  EXPECT_EQ(j["text_outside"], nlohmann::json::array());
  EXPECT_EQ(j["titles"], 1);
  EXPECT_TRUE(j["titles_inside"].get<bool>());
  std::filesystem::remove_all(dir);
}

}  // namespace dc_browser_test
