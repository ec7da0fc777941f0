// Theory of operation: each panel maps its data box [0, x_max] × [0, y_max] linearly onto a fixed
// pixel rectangle; points outside the y range are clipped to the top edge (a line leaving the
// chart means "unbounded"). Both axes end on a tick, so the largest value is labelled, and tick
// values are computed as i × step (not summed, which drifts). Text never leaves the picture: the
// title and legend entries are wrapped at spaces to the room they have, measured with a
// conservative estimate of the width of a sans-serif character (tests/integration/delay measure the
// result in Chromium). Text is escaped for XML.
#include "common/svg_plot.hpp"

#include "netlib/core/svg.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace netlab::labs {
namespace {

constexpr double width = 820, panel_height = 300, margin_left = 80, margin_right = 240, margin_top = 40,
                 margin_bottom = 50;
constexpr double title_size = 16, title_line = 20, legend_size = 12, legend_line = 15;

using netlib::svg::axis_end;
using netlib::svg::escape;
using netlib::svg::tick_label;
using netlib::svg::tick_step;

// Characters as drawn (UTF-8 continuation bytes are part of the previous character).
std::size_t glyphs(const std::string& s) {
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80 ? 1 : 0;
  return n;
}

// A generous width of text in a sans-serif font: 0.62 em per character (0.68 em in bold) is
// wider than the average of DejaVu Sans and Liberation Sans, the fonts Chromium picks on Linux.
double text_width(const std::string& s, double size, bool bold = false) {
  return double(glyphs(s)) * size * (bold ? 0.68 : 0.62);
}

// Splits text at spaces into lines no wider than `room`; a word wider than the room is cut.
std::vector<std::string> wrap(const std::string& text, double room, double size, bool bold = false) {
  std::vector<std::string> lines;
  std::string line;
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto space = text.find(' ', start);
    std::string word = text.substr(start, space == std::string::npos ? std::string::npos : space - start);
    while (text_width(word, size, bold) > room && word.size() > 1) word.pop_back();
    const std::string candidate = line.empty() ? word : line + " " + word;
    if (!line.empty() && text_width(candidate, size, bold) > room) {
      lines.push_back(line);
      line = word;
    } else {
      line = candidate;
    }
    if (space == std::string::npos) break;
    start = space + 1;
  }
  if (!line.empty() || lines.empty()) lines.push_back(line);
  return lines;
}

std::string text_lines(double x, double y, double line_height, double size, const std::vector<std::string>& lines,
                       const char* extra = "") {
  std::string out = fmt::format(R"svg(<text x="{:.1f}" y="{:.1f}" font-size="{}"{}>)svg", x, y, size, extra);
  for (std::size_t i = 0; i < lines.size(); ++i)
    out +=
        fmt::format(R"svg(<tspan x="{:.1f}" dy="{}">{}</tspan>)svg", x, i == 0 ? 0.0 : line_height, escape(lines[i]));
  return out + "</text>";
}

struct box {
  double x0, y0, w, h, x_max, y_max;
  [[nodiscard]] double px(double x) const { return x0 + w * x / x_max; }
  [[nodiscard]] double py(double y) const { return y0 + h - h * std::min(y, y_max) / y_max; }
};

void axes(std::string& out, const box& b, double x_step, double y_step, const plot_panel& p) {
  out += fmt::format(R"svg(<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="#444"/>)svg", b.x0, b.y0, b.w,
                     b.h);
  const int x_ticks = int(std::lround(b.x_max / x_step)), y_ticks = int(std::lround(b.y_max / y_step));
  for (int i = 0; i <= x_ticks; ++i) {
    const double x = i * x_step;
    out += fmt::format(
        R"svg(<line x1="{:.1f}" x2="{:.1f}" y1="{:.1f}" y2="{:.1f}" stroke="#444"/><text class="xtick" x="{:.1f}" y="{:.1f}" font-size="11" text-anchor="middle">{}</text>)svg",
        b.px(x), b.px(x), b.y0 + b.h, b.y0 + b.h + 4, b.px(x), b.y0 + b.h + 16, tick_label(x, x_step));
  }
  for (int i = 0; i <= y_ticks; ++i) {
    const double y = i * y_step;
    out += fmt::format(
        R"svg(<line x1="{:.1f}" x2="{:.1f}" y1="{:.1f}" y2="{:.1f}" stroke="#ddd"/><text class="ytick" x="{:.1f}" y="{:.1f}" font-size="11" text-anchor="end">{}</text>)svg",
        b.x0, b.x0 + b.w, b.py(y), b.py(y), b.x0 - 5, b.py(y) + 4, tick_label(y, y_step));
  }
  out += fmt::format(R"svg(<text x="{:.1f}" y="{:.1f}" font-size="13" text-anchor="middle">{}</text>)svg",
                     b.x0 + b.w / 2, b.y0 + b.h + 36, escape(p.x_label));
  out += fmt::format(
      R"svg(<text x="{:.1f}" y="{:.1f}" font-size="13" text-anchor="middle" transform="rotate(-90 {:.1f} {:.1f})">{}</text>)svg",
      b.x0 - 60, b.y0 + b.h / 2, b.x0 - 60, b.y0 + b.h / 2, escape(p.y_label));
  out += fmt::format(R"svg(<text x="{:.1f}" y="{:.1f}" font-size="14" font-weight="bold">{}</text>)svg", b.x0,
                     b.y0 - 10, escape(p.title));
}

// Each drawn element names its series (data-series), so a legend entry can be matched to what it
// stands for.
void draw_series(std::string& out, const box& b, const plot_series& s) {
  const std::string name = escape(s.name);
  if (s.line) {
    std::string pts;
    for (std::size_t i = 0; i < s.x.size(); ++i) {
      if (!std::isfinite(s.y[i])) continue;
      pts += fmt::format("{:.1f},{:.1f} ", b.px(s.x[i]), b.py(s.y[i]));
    }
    out += fmt::format(R"svg(<polyline data-series="{}" fill="none" stroke="{}" stroke-width="2" points="{}"/>)svg",
                       name, s.color, pts);
    return;
  }
  for (std::size_t i = 0; i < s.x.size(); ++i) {
    if (!std::isfinite(s.y[i])) continue;
    const double x = b.px(s.x[i]), y = b.py(s.y[i]);
    if (i < s.error.size() && s.error[i] > 0)
      out += fmt::format(R"svg(<line x1="{:.1f}" x2="{:.1f}" y1="{:.1f}" y2="{:.1f}" stroke="{}"/>)svg", x, x,
                         b.py(s.y[i] - s.error[i]), b.py(s.y[i] + s.error[i]), s.color);
    out += fmt::format(R"svg(<circle data-series="{}" cx="{:.1f}" cy="{:.1f}" r="3.5" fill="{}"/>)svg", name, x, y,
                       s.color);
  }
}

// Legend right of the chart: one entry per series drawn (its line or marker, then its name,
// wrapped), then the panel's notes in grey.
void legend(std::string& out, const box& b, const plot_panel& p) {
  const double x = b.x0 + b.w + 15;
  const double room = width - (x + 26) - 8;
  double y = b.y0 + 10;
  for (const auto& s : p.series) {
    out += fmt::format(R"svg(<g class="legend-entry" data-series="{}">)svg", escape(s.name));
    if (s.line)
      out +=
          fmt::format(R"svg(<line x1="{:.1f}" x2="{:.1f}" y1="{:.1f}" y2="{:.1f}" stroke="{}" stroke-width="2"/>)svg",
                      x, x + 20, y, y, s.color);
    else
      out += fmt::format(R"svg(<circle cx="{:.1f}" cy="{:.1f}" r="3.5" fill="{}"/>)svg", x + 10, y, s.color);
    const auto lines = wrap(s.name, room, legend_size);
    out += text_lines(x + 26, y + 4, legend_line, legend_size, lines) + "</g>";
    y += double(lines.size()) * legend_line + 6;
  }
  for (const auto& note : p.notes) {
    const auto lines = wrap(note, width - x - 8, legend_size);
    out += text_lines(x, y + 4, legend_line, legend_size, lines, R"svg( class="note" fill="#666")svg");
    y += double(lines.size()) * legend_line + 6;
  }
}

}  // namespace

std::string render_svg(const std::string& title, const std::vector<plot_panel>& panels) {
  const auto title_lines = wrap(title, width - 2 * margin_left + 40, title_size, true);
  const double header = 14 + title_line * double(title_lines.size());
  const double height = header + panel_height * double(panels.size());
  std::string out = fmt::format(
      R"svg(<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{:.0f}" viewBox="0 0 {} {:.0f}" font-family="sans-serif">)svg"
      "\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
      width, height, width, height);
  out += text_lines(margin_left - 20, 24, title_line, title_size, title_lines, R"svg( font-weight="bold")svg") + "\n";
  for (std::size_t i = 0; i < panels.size(); ++i) {
    const auto& p = panels[i];
    double x_max = p.x_max, y_max = p.y_max;
    for (const auto& s : p.series)
      for (std::size_t k = 0; k < s.x.size(); ++k) {
        if (p.x_max <= 0) x_max = std::max(x_max, s.x[k]);
        if (p.y_max <= 0 && std::isfinite(s.y[k]))
          y_max = std::max(y_max, s.y[k] + (k < s.error.size() ? s.error[k] : 0));
      }
    if (x_max <= 0) x_max = 1;
    if (y_max <= 0) y_max = 1;
    const double x_step = tick_step(x_max), y_step = tick_step(y_max * 1.05);
    const box b{margin_left,
                header + double(i) * panel_height + margin_top,
                width - margin_left - margin_right,
                panel_height - margin_top - margin_bottom,
                axis_end(x_max, x_step),
                axis_end(y_max * 1.05, y_step)};
    out += R"svg(<g class="panel">)svg";
    axes(out, b, x_step, y_step, p);
    for (const auto& s : p.series) draw_series(out, b, s);
    legend(out, b, p);
    out += "</g>\n";
  }
  out += "</svg>\n";
  return out;
}

}  // namespace netlab::labs
