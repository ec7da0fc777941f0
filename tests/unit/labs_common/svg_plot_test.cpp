// The labs' shared SVG chart (labs/common/svg_plot.hpp) as text: lines broken where a value is
// missing, markers of each shape with their hover text, tick labels as the panel formats them, an
// x axis that starts at the data when asked, reference lines only inside the y range, the
// subtitle. tests/integration/delay and tests/integration/dc measure the pictures in Chromium.
#include <gtest/gtest.h>

#include <cmath>
#include <regex>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/svg_plot.hpp"

namespace svg_plot_test {

using netlab::labs::marker_shape;
using netlab::labs::plot_panel;
using netlab::labs::plot_series;
using netlab::labs::render_svg;

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

// The texts of the elements with this class, in order.
std::vector<std::string> texts(const std::string& svg, const std::string& cls) {
  std::vector<std::string> out;
  const std::regex re("<text class=\"" + cls + "\"[^>]*>([^<]*)</text>");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), re); it != std::sregex_iterator(); ++it)
    out.push_back((*it)[1]);
  return out;
}

plot_series line(std::vector<double> x, std::vector<double> y) {
  plot_series s;
  s.name = "s";
  s.color = "#123456";
  s.line = true;
  s.x = std::move(x);
  s.y = std::move(y);
  return s;
}

TEST(SvgPlot, a_missing_value_breaks_the_line) {
  plot_panel p;
  p.series.push_back(line({0, 1, 2, 3, 4}, {1, 2, NAN, 3, 4}));
  const auto svg = render_svg("t", {p});
  EXPECT_EQ(count(svg, "<polyline"), 2u) << svg;
  EXPECT_EQ(count(svg, "nan"), 0u);
  p.series[0].y[2] = 2.5;
  EXPECT_EQ(count(render_svg("t", {p}), "<polyline"), 1u);
  // A line with no value at all draws nothing.
  p.series[0].y.assign(5, NAN);
  EXPECT_EQ(count(render_svg("t", {p}), "<polyline"), 0u);
}

TEST(SvgPlot, markers_on_a_line_have_their_shape_and_hover_text) {
  plot_panel p;
  const marker_shape shapes[] = {marker_shape::circle, marker_shape::square, marker_shape::diamond,
                                 marker_shape::triangle, marker_shape::cross};
  const char* const tags[] = {"<circle class=\"marker\"", "<rect class=\"marker\"", "<polygon class=\"marker\"",
                              "<polygon class=\"marker\"", "<path class=\"marker\""};
  for (int i = 0; i < 5; ++i) {
    auto s = line({0, 1, 2}, {1, NAN, 2});
    s.name = "s" + std::to_string(i);
    s.points = true;
    s.marker = shapes[i];
    s.dash = "9 4";
    s.stroke_width = 5 - i;
    s.hover = {"a<b", "none", "c&d"};
    p.series.push_back(s);
    const auto svg = render_svg("t", {p});
    // Two markers (the NaN has none) drawn, none in the legend; s2's diamonds are polygons too.
    EXPECT_EQ(count(svg, tags[i]), i == 3 ? 4u : 2u) << svg;
  }
  const auto svg = render_svg("t", {p});
  EXPECT_EQ(count(svg, "class=\"marker\""), 10u);
  EXPECT_EQ(count(svg, "<title>a&lt;b</title>"), 5u);
  EXPECT_EQ(count(svg, "<title>c&amp;d</title>"), 5u);
  EXPECT_EQ(count(svg, "none</title>"), 0u);
  // Diamonds have four corners, triangles three.
  EXPECT_EQ(count(svg, "<polygon class=\"marker\" data-series=\"s2\""), 2u);
  const std::regex triangle(R"re(<polygon class="marker" data-series="s3" points="[^ "]+ [^ "]+ [^ "]+")re");
  EXPECT_TRUE(std::regex_search(svg, triangle));
  // The line's dash and width, in the plot and in the legend's sample (no wider than 4).
  EXPECT_EQ(count(svg, "stroke-width=\"5\" stroke-dasharray=\"9 4\" points="), 2u);  // two pieces
  EXPECT_EQ(count(svg, "stroke-width=\"4\" stroke-dasharray=\"9 4\"/>"), 2u);        // s0's and s1's samples
}

TEST(SvgPlot, tick_labels_as_the_panel_formats_them) {
  plot_panel p;
  p.series.push_back(line({100, 130, 160}, {0.2, 0.9, 1.3}));
  auto svg = render_svg("t", {p});
  auto x = texts(svg, "xtick");
  ASSERT_FALSE(x.empty());
  EXPECT_EQ(x.front(), "0");
  EXPECT_EQ(x.back(), "200");
  p.x_from_data = true;
  p.x_ticks = [](const std::vector<double>& values, double) {
    std::vector<std::string> out;
    for (double v : values) out.push_back(std::to_string(int(v)) + " s");
    return out;
  };
  p.y_ticks = [](const std::vector<double>& values, double) {
    std::vector<std::string> out;
    for (double v : values) out.push_back("<" + std::to_string(int(std::lround(100 * v))) + "%");
    return out;
  };
  svg = render_svg("t", {p});
  x = texts(svg, "xtick");
  ASSERT_GE(x.size(), 4u);
  EXPECT_EQ(x.front(), "100 s");  // the round value at or below the smallest x
  EXPECT_EQ(x.back(), "160 s");
  const auto y = texts(svg, "ytick");
  ASSERT_GE(y.size(), 4u);
  EXPECT_EQ(y.front(), "&lt;0%");
  EXPECT_EQ(y.back(), "&lt;150%");  // the axis ends on a tick at or above 1.3 × 1.05
  // A format gives one label per tick.
  p.y_ticks = [](const std::vector<double>&, double) { return std::vector<std::string>{"one"}; };
  EXPECT_THROW(render_svg("t", {p}), std::invalid_argument);
}

TEST(SvgPlot, reference_lines_inside_the_y_range_only) {
  plot_panel p;
  p.series.push_back(line({0, 1}, {0.5, 2}));
  p.references = {{1, "full & more"}, {10, "far"}};
  const auto svg = render_svg("t", {p});
  EXPECT_EQ(count(svg, "class=\"reference\""), 1u);
  EXPECT_EQ(count(svg, "<title>full &amp; more</title>"), 1u);
  EXPECT_EQ(count(svg, "far"), 0u);
}

TEST(SvgPlot, the_subtitle_wraps_under_the_title_and_pushes_the_panels_down) {
  plot_panel p;
  p.series.push_back(line({0, 1}, {1, 2}));
  const auto height = [](const std::string& svg) {
    std::smatch m;
    EXPECT_TRUE(std::regex_search(svg, m, std::regex(R"re(height="([0-9]+)")re")));
    return std::stoi(m[1]);
  };
  const auto plain = render_svg("title", {p});
  EXPECT_EQ(count(plain, "class=\"title\""), 1u);
  EXPECT_EQ(count(plain, "subtitle"), 0u);
  std::string long_subtitle;
  for (int i = 0; i < 30; ++i) long_subtitle += "word<" + std::to_string(i) + " ";
  const auto with = render_svg("title", {p}, long_subtitle);
  EXPECT_EQ(count(with, "class=\"subtitle\""), 1u);
  const auto lines = count(with, "<tspan") - count(plain, "<tspan");  // the subtitle's
  EXPECT_GE(lines, 2u);
  EXPECT_EQ(height(with), height(plain) + 15 * int(lines));
  EXPECT_EQ(count(with, "word&lt;29"), 1u);
}

}  // namespace svg_plot_test
