// Theory of operation: each panel maps its data box [0, x_max] × [0, y_max] linearly onto a fixed
// pixel rectangle; points outside the y range are clipped to the top edge (a line leaving the
// chart means "unbounded"). Text is escaped for XML.
#include "svg_plot.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace netlab::lab_delay {
namespace {

constexpr double width = 760, panel_height = 300, left = 80, right = 200, top = 40, bottom = 50;

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '&') out += "&amp;";
    else out += c;
  }
  return out;
}

// A "nice" tick step for a range.
double tick_step(double range) {
  const double raw = range / 5;
  const double mag = std::pow(10, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (raw <= m * mag) return m * mag;
  return 10 * mag;
}

struct box {
  double x0, y0, w, h, x_max, y_max;
  [[nodiscard]] double px(double x) const { return x0 + w * x / x_max; }
  [[nodiscard]] double py(double y) const { return y0 + h - h * std::min(y, y_max) / y_max; }
};

void axes(std::string& out, const box& b, const plot_panel& p) {
  out += fmt::format(R"svg(<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="#444"/>)svg", b.x0, b.y0, b.w, b.h);
  const double xs = tick_step(b.x_max), ys = tick_step(b.y_max);
  for (double x = 0; x <= b.x_max * 1.0001; x += xs)
    out += fmt::format(R"svg(<text x="{:.1f}" y="{:.1f}" font-size="11" text-anchor="middle">{:g}</text>)svg", b.px(x),
                       b.y0 + b.h + 15, x);
  for (double y = 0; y <= b.y_max * 1.0001; y += ys)
    out += fmt::format(R"svg(<line x1="{:.1f}" x2="{:.1f}" y1="{:.1f}" y2="{:.1f}" stroke="#ddd"/><text x="{:.1f}" y="{:.1f}" font-size="11" text-anchor="end">{:.3g}</text>)svg",
                       b.x0, b.x0 + b.w, b.py(y), b.py(y), b.x0 - 5, b.py(y) + 4, y);
  out += fmt::format(R"svg(<text x="{:.1f}" y="{:.1f}" font-size="13" text-anchor="middle">{}</text>)svg", b.x0 + b.w / 2,
                     b.y0 + b.h + 35, escape(p.x_label));
  out += fmt::format(R"svg(<text x="{:.1f}" y="{:.1f}" font-size="13" text-anchor="middle" transform="rotate(-90 {:.1f} {:.1f})">{}</text>)svg",
                     b.x0 - 55, b.y0 + b.h / 2, b.x0 - 55, b.y0 + b.h / 2, escape(p.y_label));
  out += fmt::format(R"svg(<text x="{:.1f}" y="{:.1f}" font-size="14" font-weight="bold">{}</text>)svg", b.x0, b.y0 - 10, escape(p.title));
}

void draw_series(std::string& out, const box& b, const plot_series& s) {
  if (s.line) {
    std::string pts;
    for (std::size_t i = 0; i < s.x.size(); ++i) {
      if (!std::isfinite(s.y[i])) continue;
      pts += fmt::format("{:.1f},{:.1f} ", b.px(s.x[i]), b.py(s.y[i]));
    }
    out += fmt::format(R"svg(<polyline fill="none" stroke="{}" stroke-width="2" points="{}"/>)svg", s.color, pts);
    return;
  }
  for (std::size_t i = 0; i < s.x.size(); ++i) {
    if (!std::isfinite(s.y[i])) continue;
    const double x = b.px(s.x[i]), y = b.py(s.y[i]);
    if (i < s.error.size() && s.error[i] > 0)
      out += fmt::format(R"svg(<line x1="{:.1f}" x2="{:.1f}" y1="{:.1f}" y2="{:.1f}" stroke="{}"/>)svg", x, x,
                         b.py(s.y[i] - s.error[i]), b.py(s.y[i] + s.error[i]), s.color);
    out += fmt::format(R"svg(<circle cx="{:.1f}" cy="{:.1f}" r="3.5" fill="{}"/>)svg", x, y, s.color);
  }
}

void legend(std::string& out, const box& b, const plot_panel& p) {
  double y = b.y0 + 10;
  for (const auto& s : p.series) {
    const double x = b.x0 + b.w + 15;
    if (s.line)
      out += fmt::format(R"svg(<line x1="{:.1f}" x2="{:.1f}" y1="{:.1f}" y2="{:.1f}" stroke="{}" stroke-width="2"/>)svg", x, x + 20, y, y, s.color);
    else
      out += fmt::format(R"svg(<circle cx="{:.1f}" cy="{:.1f}" r="3.5" fill="{}"/>)svg", x + 10, y, s.color);
    out += fmt::format(R"svg(<text x="{:.1f}" y="{:.1f}" font-size="12">{}</text>)svg", x + 26, y + 4, escape(s.name));
    y += 20;
  }
}

}  // namespace

std::string render_svg(const std::string& title, const std::vector<plot_panel>& panels) {
  const double height = 40 + panel_height * double(panels.size());
  std::string out = fmt::format(
      R"svg(<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" viewBox="0 0 {} {}" font-family="sans-serif">)svg"
      "\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      R"svg(<text x="{}" y="24" font-size="16" font-weight="bold">{}</text>)svg"
      "\n",
      width, height, width, height, left, escape(title));
  for (std::size_t i = 0; i < panels.size(); ++i) {
    const auto& p = panels[i];
    double x_max = 0, y_max = p.y_max;
    for (const auto& s : p.series)
      for (std::size_t k = 0; k < s.x.size(); ++k) {
        x_max = std::max(x_max, s.x[k]);
        if (p.y_max <= 0 && std::isfinite(s.y[k]))
          y_max = std::max(y_max, s.y[k] + (k < s.error.size() ? s.error[k] : 0));
      }
    if (x_max <= 0) x_max = 1;
    if (y_max <= 0) y_max = 1;
    const box b{left, 40 + double(i) * panel_height + top, width - left - right, panel_height - top - bottom, x_max,
                y_max * 1.05};
    axes(out, b, p);
    for (const auto& s : p.series) draw_series(out, b, s);
    legend(out, b, p);
    out += "\n";
  }
  out += "</svg>\n";
  return out;
}

}  // namespace netlab::lab_delay
