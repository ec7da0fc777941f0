// Theory of operation: nodes sit in one row per tier (the highest at the top), spread evenly;
// every number that reaches the document is formatted with fixed precision, and names are
// escaped, so the output is well-formed for any topology file.
#include "svg.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "netlib/core/units.hpp"

namespace netlab::lab_dc {
namespace {

namespace dc = netlib::dc;

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

// Green at 0, yellow at 50 %, red from 100 %.
std::string util_colour(double u) {
  const double hue = 120.0 * (1.0 - std::clamp(u, 0.0, 1.0));
  return fmt::format("hsl({:.0f},80%,{}%)", hue, u >= 1 ? 32 : 40);
}

std::string percent(double u) { return fmt::format("{:.1f}%", 100 * u); }

}  // namespace

svg_document fabric_svg(const dc::topology& t, std::span<const double> arc_bytes, const dc::load_summary& s,
                       const std::string& title, const std::string& subtitle) {
  const int tiers = t.max_tier() + 1;
  std::vector<std::vector<dc::node_id>> rows(static_cast<std::size_t>(tiers));
  for (dc::node_id v = 0; v < t.nodes().size(); ++v) rows[static_cast<std::size_t>(t.nodes()[v].tier)].push_back(v);
  double width = 760;
  for (std::size_t r = 0; r < rows.size(); ++r) width = std::max(width, 80.0 + static_cast<double>(rows[r].size()) * (r == 0 ? 16.0 : 64.0));
  width = std::min(width, 6000.0);
  const double top = 86, row_h = 150, legend_h = 70;
  const double height = top + row_h * (tiers - 1) + 40 + legend_h;
  std::vector<double> x(t.nodes().size()), y(t.nodes().size());
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const double step = (width - 80) / static_cast<double>(std::max<std::size_t>(rows[r].size(), 1));
    for (std::size_t i = 0; i < rows[r].size(); ++i) {
      x[rows[r][i]] = 40 + step * (static_cast<double>(i) + 0.5);
      y[rows[r][i]] = top + row_h * static_cast<double>(tiers - 1 - static_cast<int>(r));
    }
  }
  double busiest = 0;
  for (double b : arc_bytes) busiest = std::max(busiest, b);
  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0:.0f}\" height=\"{1:.0f}\" viewBox=\"0 0 {0:.0f} {1:.0f}\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n"
      "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      "<text class=\"title\" x=\"20\" y=\"28\" font-size=\"17\" font-weight=\"bold\">{2}</text>\n"
      "<text class=\"subtitle\" x=\"20\" y=\"50\" font-size=\"12\" fill=\"#444\">{3}</text>\n",
      width, height, escape(title), escape(subtitle));
  out += "<g class=\"links\">\n";
  for (dc::arc_id a = 0; a < t.arc_count(); ++a) {
    const dc::node_id from = t.arc_from(a), to = t.arc_to(a);
    // Draw each link's two directions side by side: the one going up (or, within a tier, the
    // link's first direction) to the left.
    const bool up = t.nodes()[to].tier > t.nodes()[from].tier || (t.nodes()[to].tier == t.nodes()[from].tier && a % 2 == 0);
    const double dx = x[to] - x[from], dy = y[to] - y[from];
    const double len = std::max(std::hypot(dx, dy), 1e-9);
    const double off = up ? -2.5 : 2.5;
    const double ox = -dy / len * off, oy = dx / len * off;
    const double bytes = arc_bytes[a], u = s.utilisation[a];
    const double w = bytes > 0 && busiest > 0 ? 1.2 + 6.8 * bytes / busiest : 1.0;
    const std::string style = bytes > 0 ? fmt::format("stroke=\"{}\" stroke-width=\"{:.2f}\"", util_colour(u), w)
                                        : "stroke=\"#bbbbbb\" stroke-width=\"1\" stroke-dasharray=\"4 3\"";
    out += fmt::format(
        "<line class=\"arc\" data-from=\"{}\" data-to=\"{}\" data-bytes=\"{:.0f}\" data-util=\"{:.6f}\" x1=\"{:.1f}\" "
        "y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" {} stroke-linecap=\"round\"><title>{} -&gt; {}: {}, {} of {}</title></line>\n",
        escape(t.nodes()[from].name), escape(t.nodes()[to].name), bytes, u, x[from] + ox, y[from] + oy, x[to] + ox,
        y[to] + oy, style, escape(t.nodes()[from].name), escape(t.nodes()[to].name), netlib::units::format_bytes(bytes),
        percent(u), netlib::units::format_bps(t.capacity(a)));
  }
  out += "</g>\n<g class=\"nodes\">\n";
  const bool host_labels = rows[0].size() <= 48;
  for (dc::node_id v = 0; v < t.nodes().size(); ++v) {
    const auto& n = t.nodes()[v];
    if (n.kind == dc::node_kind::host) {
      out += fmt::format("<g class=\"node host\"><circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"5\" fill=\"#334\"/>", x[v], y[v]);
      if (host_labels) {
        out += fmt::format("<text class=\"label\" x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\" font-size=\"10\">{}</text>",
                           x[v], y[v] + 18, escape(n.name));
      }
      out += "</g>\n";
    } else {
      out += fmt::format(
          "<g class=\"node switch\"><rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"52\" height=\"20\" rx=\"4\" fill=\"#e8eef8\" "
          "stroke=\"#335\"/><text class=\"label\" x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\" font-size=\"{}\">{}</text></g>\n",
          x[v] - 26, y[v] - 10, x[v], y[v] + 4, n.name.size() > 8 ? 8 : 10, escape(n.name));
    }
  }
  out += "</g>\n";
  // Legend: the colour scale and what widths mean.
  const double ly = height - legend_h + 18;
  out += fmt::format("<g class=\"legend\"><text x=\"20\" y=\"{:.0f}\">utilisation</text>\n", ly);
  for (int i = 0; i <= 10; ++i) {
    out += fmt::format("<rect x=\"{}\" y=\"{:.0f}\" width=\"20\" height=\"10\" fill=\"{}\"/>", 100 + 20 * i, ly - 10,
                       util_colour(i / 10.0));
  }
  out += fmt::format(
      "\n<text x=\"100\" y=\"{0:.0f}\" font-size=\"10\">0%</text><text x=\"200\" y=\"{0:.0f}\" font-size=\"10\">50%</text>"
      "<text x=\"300\" y=\"{0:.0f}\" font-size=\"10\">100%+</text>\n"
      "<line x1=\"360\" y1=\"{1:.0f}\" x2=\"400\" y2=\"{1:.0f}\" stroke=\"#bbbbbb\" stroke-dasharray=\"4 3\"/>"
      "<text x=\"408\" y=\"{2:.0f}\">unused</text>\n"
      "<text x=\"20\" y=\"{3:.0f}\" fill=\"#444\">width: bytes relative to the busiest link ({4}); each link is two lines, "
      "up (or first) direction on the left</text></g>\n",
      ly + 12, ly - 5, ly, ly + 34, netlib::units::format_bytes(busiest));
  out += fmt::format("<text class=\"mlu\" x=\"{:.0f}\" y=\"28\" text-anchor=\"end\" font-size=\"15\">MLU {}</text>\n",
                     width - 20, percent(s.mlu));
  out += "</svg>\n";
  return {out, width, height};
}

std::string fabrics_svg(const std::vector<svg_document>& documents, const std::string& title) {
  // Nested <svg> elements keep each picture's own coordinates; stacked vertically.
  double total_h = 50, total_w = 0;
  for (const auto& d : documents) {
    total_h += d.height + 10;
    total_w = std::max(total_w, d.width);
  }
  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0:.0f}\" height=\"{1:.0f}\" viewBox=\"0 0 {0:.0f} {1:.0f}\" "
      "font-family=\"sans-serif\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      "<text class=\"title\" x=\"20\" y=\"32\" font-size=\"20\" font-weight=\"bold\">{2}</text>\n",
      total_w, total_h, escape(title));
  double y = 50;
  for (const auto& doc : documents) {
    std::string d = doc.text;
    d.replace(0, std::string("<svg ").size(), fmt::format("<svg y=\"{:.0f}\" ", y));
    out += d;
    y += doc.height + 10;
  }
  out += "</svg>\n";
  return out;
}

std::string series_svg(const std::string& title, const std::string& subtitle, const std::string& y_label,
                       const std::vector<double>& x, const std::vector<series>& lines) {
  static const char* colours[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#17becf"};
  const double width = 820, height = 480, left = 70, right = 170, top = 70, bottom = 60;
  const double pw = width - left - right, ph = height - top - bottom;
  double ymax = 0;
  for (const auto& l : lines) {
    for (double v : l.y) {
      if (std::isfinite(v)) ymax = std::max(ymax, v);
    }
  }
  // A round top: 1, 2 or 5 times a power of ten, at or above the data.
  double step = std::pow(10.0, std::floor(std::log10(std::max(ymax, 1e-9))));
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    if (step * m * 5 >= ymax) {
      step *= m;
      break;
    }
  }
  const double ytop = std::max(step * std::ceil(ymax / step), step);
  const double x0 = x.empty() ? 0 : x.front(), x1 = x.empty() ? 1 : std::max(x.back(), x.front() + 1e-9);
  const auto px = [&](double v) { return left + (v - x0) / (x1 - x0) * pw; };
  const auto py = [&](double v) { return top + ph - v / ytop * ph; };
  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0:.0f}\" height=\"{1:.0f}\" viewBox=\"0 0 {0:.0f} {1:.0f}\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      "<text class=\"title\" x=\"20\" y=\"28\" font-size=\"17\" font-weight=\"bold\">{2}</text>\n"
      "<text class=\"subtitle\" x=\"20\" y=\"48\" fill=\"#444\">{3}</text>\n",
      width, height, escape(title), escape(subtitle));
  for (double v = 0; v <= ytop + 1e-12; v += step) {
    out += fmt::format(
        "<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{2:.1f}\" y2=\"{1:.1f}\" stroke=\"#e4e4e4\"/><text x=\"{3:.1f}\" "
        "y=\"{4:.1f}\" text-anchor=\"end\">{5}</text>\n",
        left, py(v), left + pw, left - 6, py(v) + 4, percent(v));
  }
  if (ytop >= 1) {
    out += fmt::format("<line class=\"full\" x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{2:.1f}\" y2=\"{1:.1f}\" stroke=\"#999\" "
                       "stroke-dasharray=\"6 4\"/>\n",
                       left, py(1), left + pw);
  }
  const std::size_t ticks = std::min<std::size_t>(x.size(), 12);
  for (std::size_t i = 0; i < ticks; ++i) {
    const std::size_t k = ticks <= 1 ? 0 : i * (x.size() - 1) / (ticks - 1);
    out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{}</text>\n", px(x[k]), top + ph + 18,
                       netlib::units::format_seconds(x[k]));
  }
  out += fmt::format(
      "<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{2:.1f}\" y2=\"{1:.1f}\" stroke=\"#333\"/>"
      "<line x1=\"{0:.1f}\" y1=\"{3:.1f}\" x2=\"{0:.1f}\" y2=\"{1:.1f}\" stroke=\"#333\"/>\n"
      "<text x=\"{4:.1f}\" y=\"{5:.1f}\" text-anchor=\"middle\">time</text>\n"
      "<text x=\"18\" y=\"{6:.1f}\" transform=\"rotate(-90 18 {6:.1f})\" text-anchor=\"middle\">{7}</text>\n",
      left, top + ph, left + pw, top, left + pw / 2, height - 18, top + ph / 2, escape(y_label));
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const char* c = colours[i % std::size(colours)];
    std::string points;
    const auto flush = [&] {
      if (!points.empty()) {
        out += fmt::format("<polyline class=\"series\" data-name=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\" "
                           "points=\"{}\"/>\n",
                           escape(lines[i].name), c, points);
      }
      points.clear();
    };
    for (std::size_t k = 0; k < lines[i].y.size() && k < x.size(); ++k) {
      const double v = lines[i].y[k];
      if (!std::isfinite(v)) {
        flush();
        continue;
      }
      points += fmt::format("{}{:.1f},{:.1f}", points.empty() ? "" : " ", px(x[k]), py(v));
      out += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"2.5\" fill=\"{}\"><title>{} at {}: {}</title></circle>\n",
                         px(x[k]), py(v), c, escape(lines[i].name), netlib::units::format_seconds(x[k]), percent(v));
    }
    flush();
    const double ly = top + 14 + 22 * static_cast<double>(i);
    out += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{2:.1f}\" y2=\"{1:.1f}\" stroke=\"{3}\" stroke-width=\"3\"/>"
                       "<text class=\"legend\" x=\"{4:.1f}\" y=\"{5:.1f}\">{6}</text>\n",
                       left + pw + 16, ly, left + pw + 40, c, left + pw + 46, ly + 4, escape(lines[i].name));
  }
  out += "</svg>\n";
  return out;
}

}  // namespace netlab::lab_dc
