// Theory of operation: nodes sit in one row per tier (the highest at the top), spread evenly.
// Each link is two parallel lines, one per direction, set apart along the normal of the link's
// own upward (or a-to-b) direction, so the two never share pixels; each carries its utilisation
// as a number placed beside the line near the end it leaves from, at the first spot along it that
// no other number, node or label occupies. Text is wrapped to the picture's width from a
// conservative estimate of its width (0.64 em a character), so titles never run off the edge.
// Every number that reaches the document is formatted with fixed precision, and names are
// escaped, so the output is well-formed for any topology file.
#include "svg.hpp"

#include "netlib/core/svg.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "netlib/core/units.hpp"

namespace netlab::lab_dc {
namespace {

namespace dc = netlib::dc;

using netlib::svg::escape;  // one XML escaper (netlib/core/svg.hpp)

// Green at 0, yellow at 50 %, red from 100 %.
std::string util_colour(double u) {
  const double hue = 120.0 * (1.0 - std::clamp(u, 0.0, 1.0));
  return fmt::format("hsl({:.0f},80%,{}%)", hue, u >= 1 ? 32 : 40);
}

std::string percent(double u) {
  return fmt::format("{:.1f}%", 100 * u);
}

// A short utilisation for a link's label: "24%", "3.5%", "0".
std::string short_percent(double u) {
  if (u <= 0) return "0";
  if (u >= 0.095) return fmt::format("{:.0f}%", 100 * u);
  return fmt::format("{:.1f}%", 100 * u);
}

// A generous estimate of a text's width in sans-serif (DejaVu Sans, Chromium's default on Debian:
// digits 0.64 em, '%' 0.95 em, most letters about 0.6 em; bold a little more).
double text_width(const std::string& s, double font_px, bool bold = false) {
  double em = 0;
  for (char c : s) {
    if (c == '%' || c == 'm' || c == 'w' || c == 'M' || c == 'W')
      em += 0.98;
    else if (c == '.' || c == ',' || c == ':' || c == ' ' || c == 'i' || c == 'l')
      em += 0.36;
    else
      em += 0.66;
  }
  return em * font_px * (bold ? 1.1 : 1.0);
}

// Lines of at most `width` pixels, broken after "; " where possible, else at spaces.
std::vector<std::string> wrap(const std::string& text, double width, double font_px, bool bold = false) {
  const auto max_chars = std::max<std::size_t>(8, static_cast<std::size_t>(width / (font_px * (bold ? 0.7 : 0.64))));
  std::vector<std::string> lines;
  std::string rest = text;
  while (rest.size() > max_chars) {
    std::size_t cut = rest.rfind("; ", max_chars);
    std::size_t skip = 2;
    if (cut == std::string::npos || cut < max_chars / 3) {
      cut = rest.rfind(' ', max_chars);
      skip = 1;
      if (cut == std::string::npos || cut == 0) {
        cut = max_chars;
        skip = 0;
      }
    }
    lines.push_back(rest.substr(0, cut + (skip == 2 ? 1 : 0)));
    rest = rest.substr(cut + skip);
  }
  if (!rest.empty() || lines.empty()) lines.push_back(rest);
  return lines;
}

// A text element per line; returns the y below the last line.
double text_lines(std::string& out, const std::vector<std::string>& lines, double x, double y, double font_px,
                  const std::string& attributes) {
  for (const auto& l : lines) {
    out += fmt::format("<text {} x=\"{:.0f}\" y=\"{:.1f}\" font-size=\"{:.0f}\">{}</text>\n", attributes, x, y, font_px,
                       escape(l));
    y += font_px * 1.3;
  }
  return y;
}

struct box {
  double x0, y0, x1, y1;
  [[nodiscard]] bool overlaps(const box& o) const noexcept { return x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1; }
};

}  // namespace

svg_document fabric_svg(const dc::topology& t, std::span<const double> arc_bytes, const dc::load_summary& s,
                        const std::string& title, const std::string& subtitle) {
  const int tiers = t.max_tier() + 1;
  std::vector<std::vector<dc::node_id>> rows(static_cast<std::size_t>(tiers));
  for (dc::node_id v = 0; v < t.nodes().size(); ++v) rows[static_cast<std::size_t>(t.nodes()[v].tier)].push_back(v);
  double width = 760;
  for (std::size_t r = 0; r < rows.size(); ++r)
    width = std::max(width, 80.0 + static_cast<double>(rows[r].size()) * (r == 0 ? 16.0 : 64.0));
  width = std::min(width, 6000.0);
  // The header: title, subtitle and MLU, wrapped to the width.
  std::string header;
  double y_text = 28;
  y_text =
      text_lines(header, wrap(title, width - 40, 17, true), 20, y_text, 17, "class=\"title\" font-weight=\"bold\"");
  y_text = text_lines(header, wrap(subtitle, width - 40, 12), 20, y_text + 2, 12, "class=\"subtitle\" fill=\"#444\"");
  y_text = text_lines(header, {fmt::format("MLU {} on {}", percent(s.mlu), t.arc_name(s.busiest))}, 20, y_text + 2, 14,
                      "class=\"mlu\" font-weight=\"bold\"");
  const double top = y_text + 30, row_h = 150;
  // The legend, wrapped too.
  double busiest = 0;
  for (double b : arc_bytes) busiest = std::max(busiest, b);
  const bool numbers = t.arc_count() <= 600;
  const std::vector<std::string> legend_text =
      wrap(fmt::format("Each link is two lines, one per direction: the upward one (or a to b) on the left as seen "
                       "going up; width: bytes relative to the busiest direction ({}); colour: utilisation; {}",
                       netlib::units::format_bytes(busiest),
                       numbers ? "the number beside a line is that direction's utilisation, near the end it leaves from"
                               : "hover a line for its bytes and utilisation (too many links to number them)"),
           width - 40, 12);
  const double legend_h = 34 + 16 * static_cast<double>(legend_text.size()) + 10;
  const double height = top + row_h * (tiers - 1) + 40 + legend_h;
  std::vector<double> x(t.nodes().size()), y(t.nodes().size());
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const double step = (width - 80) / static_cast<double>(std::max<std::size_t>(rows[r].size(), 1));
    for (std::size_t i = 0; i < rows[r].size(); ++i) {
      x[rows[r][i]] = 40 + step * (static_cast<double>(i) + 0.5);
      y[rows[r][i]] = top + row_h * static_cast<double>(tiers - 1 - static_cast<int>(r));
    }
  }
  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0:.0f}\" height=\"{1:.0f}\" viewBox=\"0 0 {0:.0f} {1:.0f}\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n"
      "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
      width, height);
  out += header;
  // Where labels may not go: the nodes and their names.
  const bool host_labels = rows[0].size() <= 48;
  std::vector<box> taken;
  for (dc::node_id v = 0; v < t.nodes().size(); ++v) {
    if (t.is_host(v)) {
      taken.push_back({x[v] - 6, y[v] - 6, x[v] + 6, y[v] + 6});
      if (host_labels) {
        const double w = text_width(t.nodes()[v].name, 10) / 2;
        taken.push_back({x[v] - w, y[v] + 8, x[v] + w, y[v] + 21});
      }
    } else {
      taken.push_back({x[v] - 27, y[v] - 11, x[v] + 27, y[v] + 11});
    }
  }
  const double offset = 4.5;  // each direction's line this far from the link's centre line
  std::string lines, labels;
  std::size_t left_out = 0;
  for (dc::arc_id a = 0; a < t.arc_count(); ++a) {
    const dc::node_id from = t.arc_from(a), to = t.arc_to(a);
    // The link's own direction: from its lower end up (or from a to b within a tier). The arc in
    // that direction goes on its left, the other on its right: the offsets have opposite signs
    // along one normal, whichever way the arc itself runs.
    const dc::node_id lo = t.links()[a / 2].a, hi = t.links()[a / 2].b;
    const bool swap = t.nodes()[lo].tier > t.nodes()[hi].tier;
    const dc::node_id base = swap ? hi : lo, tip = swap ? lo : hi;
    const double cx = x[tip] - x[base], cy = y[tip] - y[base];
    const double len = std::max(std::hypot(cx, cy), 1e-9);
    const double nx = cy / len, ny = -cx / len;  // the left normal of the link's own direction
    const bool along = from == base;
    const double side = along ? 1.0 : -1.0;
    const double ox = nx * offset * side, oy = ny * offset * side;
    const double bytes = arc_bytes[a], u = s.utilisation[a];
    const double w = bytes > 0 && busiest > 0 ? 1.2 + 6.8 * bytes / busiest : 1.0;
    const std::string style = bytes > 0 ? fmt::format("stroke=\"{}\" stroke-width=\"{:.2f}\"", util_colour(u), w)
                                        : "stroke=\"#bbbbbb\" stroke-width=\"1\" stroke-dasharray=\"4 3\"";
    lines += fmt::format(
        "<line class=\"arc\" data-arc=\"{}\" data-from=\"{}\" data-to=\"{}\" data-bytes=\"{:.0f}\" "
        "data-util=\"{:.6f}\" "
        "x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" {} stroke-linecap=\"butt\"><title>{} -&gt; {}: {}, {} "
        "of "
        "{}</title></line>\n",
        a, escape(t.nodes()[from].name), escape(t.nodes()[to].name), bytes, u, x[from] + ox, y[from] + oy, x[to] + ox,
        y[to] + oy, style, escape(t.nodes()[from].name), escape(t.nodes()[to].name), netlib::units::format_bytes(bytes),
        percent(u), netlib::units::format_bps(t.capacity(a)));
    if (!numbers) continue;
    // The number: beside its own line, on its own side, at the first free spot from the end the
    // traffic leaves.
    const std::string text = short_percent(u);
    const double tw = text_width(text, 9) + 2, th = 12;
    bool placed = false;
    for (double f : {0.2, 0.28, 0.36, 0.44, 0.52, 0.14, 0.6, 0.68}) {
      const double px =
          x[from] + (x[to] - x[from]) * f + nx * side * (offset + 3 + tw / 2 * std::abs(ny) + th / 2 * std::abs(nx));
      const double py =
          y[from] + (y[to] - y[from]) * f + ny * side * (offset + 3 + tw / 2 * std::abs(ny) + th / 2 * std::abs(nx));
      const box b{px - tw / 2, py - th / 2, px + tw / 2, py + th / 2};
      if (b.x0 < 1 || b.x1 > width - 1 || b.y0 < top - 20 || b.y1 > height - legend_h) continue;
      if (std::any_of(taken.begin(), taken.end(), [&](const box& o) { return o.overlaps(b); })) continue;
      taken.push_back(b);
      labels += fmt::format(
          "<text class=\"num\" data-arc=\"{}\" x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\" "
          "font-size=\"9\" fill=\"#222\">{}</text>\n",
          a, px, py + 3.3, text);
      placed = true;
      break;
    }
    left_out += !placed;
  }
  out += "<g class=\"links\">\n" + lines + "</g>\n<g class=\"numbers\">\n" + labels + "</g>\n<g class=\"nodes\">\n";
  for (dc::node_id v = 0; v < t.nodes().size(); ++v) {
    const auto& n = t.nodes()[v];
    if (n.kind == dc::node_kind::host) {
      out +=
          fmt::format("<g class=\"node host\"><circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"5\" fill=\"#334\"/>", x[v], y[v]);
      if (host_labels) {
        out += fmt::format(
            "<text class=\"label\" x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\" font-size=\"10\">{}</text>", x[v],
            y[v] + 18, escape(n.name));
      }
      out += "</g>\n";
    } else {
      out += fmt::format(
          "<g class=\"node switch\"><rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"52\" height=\"20\" rx=\"4\" "
          "fill=\"#e8eef8\" "
          "stroke=\"#335\"/><text class=\"label\" x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\" "
          "font-size=\"{}\">{}</text></g>\n",
          x[v] - 26, y[v] - 10, x[v], y[v] + 4, n.name.size() > 8 ? 8 : 10, escape(n.name));
    }
  }
  out += "</g>\n";
  // Legend: the colour scale and what widths and numbers mean.
  const double ly = height - legend_h + 18;
  out += fmt::format("<g class=\"legend\"><text x=\"20\" y=\"{:.0f}\">utilisation</text>\n", ly);
  for (int i = 0; i <= 10; ++i) {
    out += fmt::format("<rect x=\"{}\" y=\"{:.0f}\" width=\"20\" height=\"10\" fill=\"{}\"/>", 100 + 20 * i, ly - 10,
                       util_colour(i / 10.0));
  }
  out += fmt::format(
      "\n<text x=\"100\" y=\"{0:.0f}\" font-size=\"10\">0%</text><text x=\"200\" y=\"{0:.0f}\" "
      "font-size=\"10\">50%</text>"
      "<text x=\"300\" y=\"{0:.0f}\" font-size=\"10\">100%+</text>\n"
      "<line x1=\"360\" y1=\"{1:.0f}\" x2=\"400\" y2=\"{1:.0f}\" stroke=\"#bbbbbb\" stroke-dasharray=\"4 3\"/>"
      "<text x=\"408\" y=\"{2:.0f}\">unused</text>\n",
      ly + 12, ly - 5, ly);
  auto notes = legend_text;
  if (left_out)
    notes.push_back(
        fmt::format("{} number{} left out for lack of room: hover a line", left_out, left_out == 1 ? "" : "s"));
  double ny = ly + 30;
  for (const auto& l : notes) {
    out += fmt::format("<text x=\"20\" y=\"{:.0f}\" fill=\"#444\">{}</text>\n", ny, escape(l));
    ny += 16;
  }
  out += "</g>\n</svg>\n";
  // The legend's height counted the notes; one more line for a left-out note.
  const double full_height = std::max(height, ny);
  if (full_height > height) {
    const auto old_size = fmt::format("height=\"{0:.0f}\" viewBox=\"0 0 {1:.0f} {0:.0f}\"", height, width);
    const auto at = out.find(old_size);
    if (at != std::string::npos) {
      out.replace(at, old_size.size(),
                  fmt::format("height=\"{0:.0f}\" viewBox=\"0 0 {1:.0f} {0:.0f}\"", full_height, width));
    }
  }
  return {out, width, full_height};
}

std::string fabrics_svg(const std::vector<svg_document>& documents, const std::string& title) {
  // Nested <svg> elements keep each picture's own coordinates; stacked vertically.
  double total_w = 0;
  for (const auto& d : documents) total_w = std::max(total_w, d.width);
  std::string header;
  const double below =
      text_lines(header, wrap(title, total_w - 40, 20, true), 20, 32, 20, "class=\"title\" font-weight=\"bold\"");
  double total_h = below + 4;
  for (const auto& d : documents) total_h += d.height + 10;
  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0:.0f}\" height=\"{1:.0f}\" viewBox=\"0 0 {0:.0f} {1:.0f}\" "
      "font-family=\"sans-serif\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
      total_w, total_h);
  out += header;
  double y = below + 4;
  for (const auto& doc : documents) {
    std::string d = doc.text;
    d.replace(0, std::string("<svg ").size(), fmt::format("<svg y=\"{:.0f}\" ", y));
    out += d;
    y += doc.height + 10;
  }
  out += "</svg>\n";
  return out;
}

}  // namespace netlab::lab_dc
