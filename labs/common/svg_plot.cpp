// Theory of operation: each panel maps its data box [x_min, x_max] × [0, y_max] linearly onto a
// fixed pixel rectangle (x_min is 0 unless the panel asks for the axis to start at its data);
// points outside the y range are clipped to the top edge (a line leaving the chart means
// "unbounded"), and a point with no value (NaN) breaks its line into pieces. Both axes start and
// end on a tick, so the largest value is labelled, and tick values are computed as i × step (not
// summed, which drifts); a panel may format its tick labels (percents, seconds) but not move them.
// Every series is drawn in order, its line first and then its markers, each element naming its
// series (data-series): a series that a later one covers stays visible if it is drawn wider, with
// bigger markers (lab-dc's MLU chart, where several routing schemes often have the same values,
// does so). Text never leaves the picture: the title, the subtitle and legend entries are wrapped
// at spaces to the room they have, measured with a conservative estimate of the width of a
// sans-serif character (tests/integration/delay and tests/integration/dc measure the result in
// Chromium). Text, hover titles included, is escaped for XML.
#include "common/svg_plot.hpp"

#include "netlib/core/svg.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace netlab::labs {
namespace {

constexpr double width = 820, panel_height = 300, margin_left = 80, margin_right = 240, margin_top = 40,
                 margin_bottom = 50;
constexpr double title_size = 16, title_line = 20, subtitle_size = 12, subtitle_line = 15, legend_size = 12,
                 legend_line = 15;

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
  double x0, y0, w, h, x_min, x_max, y_max;
  [[nodiscard]] double px(double x) const { return x0 + w * (x - x_min) / (x_max - x_min); }
  [[nodiscard]] double py(double y) const { return y0 + h - h * std::min(y, y_max) / y_max; }
};

// The ticks from first × step to last × step (i × step, not summed, which drifts) and their
// labels, escaped.
struct ticks {
  std::vector<double> values;
  std::vector<std::string> labels;
};
ticks make_ticks(const tick_format& format, int first, int last, double step) {
  ticks t;
  for (int i = first; i <= last; ++i) t.values.push_back(i * step);
  if (format) {
    t.labels = format(t.values, step);
    if (t.labels.size() != t.values.size())
      throw std::invalid_argument(
          fmt::format("svg plot: {} tick labels for {} ticks", t.labels.size(), t.values.size()));
  } else {
    for (double v : t.values) t.labels.push_back(tick_label(v, step));
  }
  for (auto& l : t.labels) l = escape(l);
  return t;
}

void axes(std::string& out, const box& b, double x_step, double y_step, const plot_panel& p) {
  out += fmt::format(R"svg(<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="#444"/>)svg", b.x0, b.y0, b.w,
                     b.h);
  const auto xs = make_ticks(p.x_ticks, int(std::lround(b.x_min / x_step)), int(std::lround(b.x_max / x_step)), x_step);
  const auto ys = make_ticks(p.y_ticks, 0, int(std::lround(b.y_max / y_step)), y_step);
  for (std::size_t i = 0; i < xs.values.size(); ++i) {
    const double x = xs.values[i];
    out += fmt::format(
        R"svg(<line x1="{:.1f}" x2="{:.1f}" y1="{:.1f}" y2="{:.1f}" stroke="#444"/><text class="xtick" x="{:.1f}" y="{:.1f}" font-size="11" text-anchor="middle">{}</text>)svg",
        b.px(x), b.px(x), b.y0 + b.h, b.y0 + b.h + 4, b.px(x), b.y0 + b.h + 16, xs.labels[i]);
  }
  for (std::size_t i = 0; i < ys.values.size(); ++i) {
    const double y = ys.values[i];
    out += fmt::format(
        R"svg(<line x1="{:.1f}" x2="{:.1f}" y1="{:.1f}" y2="{:.1f}" stroke="#ddd"/><text class="ytick" x="{:.1f}" y="{:.1f}" font-size="11" text-anchor="end">{}</text>)svg",
        b.x0, b.x0 + b.w, b.py(y), b.py(y), b.x0 - 5, b.py(y) + 4, ys.labels[i]);
  }
  out += fmt::format(R"svg(<text x="{:.1f}" y="{:.1f}" font-size="13" text-anchor="middle">{}</text>)svg",
                     b.x0 + b.w / 2, b.y0 + b.h + 36, escape(p.x_label));
  out += fmt::format(
      R"svg(<text x="{:.1f}" y="{:.1f}" font-size="13" text-anchor="middle" transform="rotate(-90 {:.1f} {:.1f})">{}</text>)svg",
      b.x0 - 60, b.y0 + b.h / 2, b.x0 - 60, b.y0 + b.h / 2, escape(p.y_label));
  if (!p.title.empty())
    out += fmt::format(R"svg(<text x="{:.1f}" y="{:.1f}" font-size="14" font-weight="bold">{}</text>)svg", b.x0,
                       b.y0 - 10, escape(p.title));
  for (const auto& r : p.references) {
    if (!(r.y >= 0 && r.y <= b.y_max)) continue;
    out += fmt::format(
        R"svg(<line class="reference" x1="{:.1f}" x2="{:.1f}" y1="{:.1f}" y2="{:.1f}" stroke="#999" stroke-dasharray="6 4"><title>{}</title></line>)svg",
        b.x0, b.x0 + b.w, b.py(r.y), b.py(r.y), escape(r.label));
  }
}

// A marker of the series' shape centred on (cx, cy); `attributes` (with a leading space) name it,
// `hover` (escaped) becomes its <title>.
std::string marker(const plot_series& s, double cx, double cy, double r, const std::string& attributes,
                   const std::string& hover) {
  std::string tag, shape;
  switch (s.marker) {
    case marker_shape::circle:
      tag = "circle";
      shape = fmt::format(R"svg(cx="{:.1f}" cy="{:.1f}" r="{:.1f}" fill="{}")svg", cx, cy, r, s.color);
      break;
    case marker_shape::square:
      tag = "rect";
      shape = fmt::format(R"svg(x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{:.1f}" fill="{}")svg", cx - r, cy - r,
                          2 * r, 2 * r, s.color);
      break;
    case marker_shape::diamond:
      tag = "polygon";
      shape = fmt::format(R"svg(points="{:.1f},{:.1f} {:.1f},{:.1f} {:.1f},{:.1f} {:.1f},{:.1f}" fill="{}")svg", cx,
                          cy - r * 1.3, cx + r * 1.3, cy, cx, cy + r * 1.3, cx - r * 1.3, cy, s.color);
      break;
    case marker_shape::triangle:
      tag = "polygon";
      shape = fmt::format(R"svg(points="{:.1f},{:.1f} {:.1f},{:.1f} {:.1f},{:.1f}" fill="{}")svg", cx, cy - r * 1.3,
                          cx + r * 1.2, cy + r, cx - r * 1.2, cy + r, s.color);
      break;
    case marker_shape::cross:
      tag = "path";
      shape = fmt::format(
          R"svg(d="M{:.1f},{:.1f} L{:.1f},{:.1f} M{:.1f},{:.1f} L{:.1f},{:.1f}" stroke="{}" stroke-width="2.5" fill="none")svg",
          cx - r, cy - r, cx + r, cy + r, cx - r, cy + r, cx + r, cy - r, s.color);
      break;
  }
  if (hover.empty()) return fmt::format("<{}{} {}/>", tag, attributes, shape);
  return fmt::format("<{0}{1} {2}><title>{3}</title></{0}>", tag, attributes, shape, hover);
}

std::string dash_attribute(const plot_series& s) {
  return s.dash.empty() ? std::string() : fmt::format(R"svg( stroke-dasharray="{}")svg", escape(s.dash));
}

// Each drawn element names its series (data-series), so a legend entry can be matched to what it
// stands for. A line is drawn in pieces between the points with no value; then the markers, on
// top of it.
void draw_series(std::string& out, const box& b, const plot_series& s) {
  const std::string name = escape(s.name);
  if (s.line) {
    std::string pts;
    const auto piece = [&] {
      if (pts.empty()) return;
      out +=
          fmt::format(R"svg(<polyline data-series="{}" fill="none" stroke="{}" stroke-width="{:g}"{} points="{}"/>)svg",
                      name, s.color, s.stroke_width, dash_attribute(s), pts);
      pts.clear();
    };
    for (std::size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
      if (!std::isfinite(s.y[i])) {
        piece();
        continue;
      }
      pts += fmt::format("{:.1f},{:.1f} ", b.px(s.x[i]), b.py(s.y[i]));
    }
    piece();
    if (!s.points) return;
  }
  const std::string attributes = fmt::format(R"svg( class="marker" data-series="{}")svg", name);
  for (std::size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
    if (!std::isfinite(s.y[i])) continue;
    const double x = b.px(s.x[i]), y = b.py(s.y[i]);
    if (i < s.error.size() && s.error[i] > 0)
      out += fmt::format(R"svg(<line x1="{:.1f}" x2="{:.1f}" y1="{:.1f}" y2="{:.1f}" stroke="{}"/>)svg", x, x,
                         b.py(s.y[i] - s.error[i]), b.py(s.y[i] + s.error[i]), s.color);
    out += marker(s, x, y, s.marker_radius, attributes, i < s.hover.size() ? escape(s.hover[i]) : std::string());
  }
}

// Legend right of the chart: one entry per series drawn (a sample of its line and of its marker,
// no wider than the room, then its name, wrapped), then the panel's notes in grey.
void legend(std::string& out, const box& b, const plot_panel& p) {
  const double x = b.x0 + b.w + 15;
  const double room = width - (x + 26) - 8;
  double y = b.y0 + 10;
  for (const auto& s : p.series) {
    out += fmt::format(R"svg(<g class="legend-entry" data-series="{}">)svg", escape(s.name));
    if (s.line)
      out += fmt::format(
          R"svg(<line x1="{:.1f}" x2="{:.1f}" y1="{:.1f}" y2="{:.1f}" stroke="{}" stroke-width="{:g}"{}/>)svg", x,
          x + 20, y, y, s.color, std::min(s.stroke_width, 4.0), dash_attribute(s));
    if (!s.line || s.points) out += marker(s, x + 10, y, std::min(s.marker_radius, 5.0), "", "");
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

std::string render_svg(const std::string& title, const std::vector<plot_panel>& panels, const std::string& subtitle) {
  const double text_room = width - 2 * margin_left + 40;
  const auto title_lines = wrap(title, text_room, title_size, true);
  const auto subtitle_lines = subtitle.empty() ? std::vector<std::string>{} : wrap(subtitle, text_room, subtitle_size);
  const double title_bottom = 24 + title_line * double(title_lines.size() - 1);  // the last line's baseline
  const double subtitle_top = title_bottom + 18;
  const double header = 14 + title_line * double(title_lines.size()) + subtitle_line * double(subtitle_lines.size());
  const double height = header + panel_height * double(panels.size());
  std::string out = fmt::format(
      R"svg(<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{:.0f}" viewBox="0 0 {} {:.0f}" font-family="sans-serif">)svg"
      "\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
      width, height, width, height);
  out += text_lines(margin_left - 20, 24, title_line, title_size, title_lines,
                    R"svg( class="title" font-weight="bold")svg") +
         "\n";
  if (!subtitle_lines.empty())
    out += text_lines(margin_left - 20, subtitle_top, subtitle_line, subtitle_size, subtitle_lines,
                      R"svg( class="subtitle" fill="#444")svg") +
           "\n";
  for (std::size_t i = 0; i < panels.size(); ++i) {
    const auto& p = panels[i];
    double x_max = p.x_max, y_max = p.y_max, x_min = HUGE_VAL;
    for (const auto& s : p.series)
      for (std::size_t k = 0; k < s.x.size() && k < s.y.size(); ++k) {
        if (p.x_max <= 0) x_max = std::max(x_max, s.x[k]);
        x_min = std::min(x_min, s.x[k]);
        if (p.y_max <= 0 && std::isfinite(s.y[k]))
          y_max = std::max(y_max, s.y[k] + (k < s.error.size() ? s.error[k] : 0));
      }
    if (x_max <= 0) x_max = 1;
    if (y_max <= 0) y_max = 1;
    // The x axis from 0, or from the round value at or below the smallest x.
    const double x_from = p.x_from_data && x_min < x_max ? x_min : 0;
    const double x_step = tick_step(x_max - x_from), y_step = tick_step(y_max * 1.05);
    const box b{margin_left,
                header + double(i) * panel_height + margin_top,
                width - margin_left - margin_right,
                panel_height - margin_top - margin_bottom,
                std::floor(x_from / x_step) * x_step,
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
