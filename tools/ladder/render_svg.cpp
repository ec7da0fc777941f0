// SVG ladder: the client's and the server's time lines, one sloped arrow per segment with its
// flags, size and label, the time (s since the first packet) on the left and RTTs on the right.
// Rows are evenly spaced by default; with --spacing time the gap between two rows also grows with
// the time between their segments (one scale for the whole conversation, stated in the header),
// so a 16 ms RTT looks longer than a 0.01 ms one. A label that does not fit between the lifelines
// is wrapped onto a second line (its application label) and each line is shortened with "..." to
// the lane's width. Capture gaps are a red dashed band where the missing bytes belong. Long
// conversations are paged: page_size segments per SVG.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "ladder_model.hpp"
#include "netlib/core/svg.hpp"

namespace netlab::ladder {
namespace {

using netlib::svg::escape;  // one XML escaper (netlib/core/svg.hpp)

constexpr double width = 820, left_x = 170, right_x = 630, top = 90, row = 26, slope = 14, line_height = 12,
                 gap_row = 22;
// Monospace at 11 px: 0.6 em per character; a label keeps 10 px clear of each lifeline.
constexpr double char_width = 6.6;
constexpr std::size_t lane_chars = static_cast<std::size_t>((right_x - left_x - 20) / char_width);

std::string shorten(std::string s, std::size_t chars) {
  if (s.size() <= chars) return s;
  return s.substr(0, chars - 3) + "...";
}

// The label lines of a segment, each at most lane_chars characters.
std::vector<std::string> label_lines(const ladder_event& e) {
  std::string head = e.flags.empty() ? "(none)" : e.flags;
  head += fmt::format(" seq={}", e.seq);
  if (e.ack) head += fmt::format(" ack={}", *e.ack);
  if (e.length) head += fmt::format(" len={}", e.length);
  if (e.retransmission) head += " [retransmission]";
  if (e.label.empty()) return {shorten(head, lane_chars)};
  const std::string one = head + " " + e.label;
  if (one.size() <= lane_chars) return {one};
  return {shorten(head, lane_chars), shorten(e.label, lane_chars)};
}

struct placed {
  double y = 0;       // baseline of the first label line
  double gap_y = -1;  // where a capture gap band is drawn before the row (< 0: none)
};

// Vertical positions of all events (the scale is the whole conversation's, pages share it).
std::vector<placed> place(const ladder_model& m, const ladder_layout& layout, double& pixels_per_second) {
  std::vector<placed> out;
  const auto& ev = m.events;
  const double span = ev.empty() ? 0 : ev.back().time_s - ev.front().time_s;
  // Time gets 600 to 1000 px for the whole conversation (as much as the rows, within those bounds):
  // enough to see a 16 ms gap beside a 0.01 ms one, not so much that one long gap fills pages.
  const double budget = std::clamp(row * double(ev.size()), 600.0, 1000.0);
  pixels_per_second = layout.by_time && span > 0 ? budget / span : 0;
  double y = top;
  for (std::size_t i = 0; i < ev.size(); ++i) {
    placed p;
    if (i > 0) {
      const double extra_lines = double(label_lines(ev[i - 1]).size() - 1) * line_height;
      y += row + extra_lines + (ev[i].time_s - ev[i - 1].time_s) * pixels_per_second;
    }
    if (ev[i].missing_before > 0) {
      p.gap_y = y;
      y += gap_row;
    }
    p.y = y;
    out.push_back(p);
  }
  return out;
}

std::string scale_text(double pixels_per_second) {
  // The time one 100-pixel stretch stands for.
  const double seconds = 100 / pixels_per_second;
  return seconds >= 1      ? fmt::format("{:.3g} s", seconds)
         : seconds >= 1e-3 ? fmt::format("{:.3g} ms", seconds * 1e3)
                           : fmt::format("{:.3g} us", seconds * 1e6);
}

}  // namespace

std::size_t svg_pages(const ladder_model& m, const ladder_layout& layout) {
  if (layout.page_size == 0 || m.events.empty()) return 1;
  return (m.events.size() + layout.page_size - 1) / layout.page_size;
}

std::string render_ladder_svg(const ladder_model& m, const ladder_layout& layout, std::size_t page) {
  const auto& c = selected_summary(m).conversation;
  double pixels_per_second = 0;
  const auto all = place(m, layout, pixels_per_second);
  const std::size_t pages = svg_pages(m, layout);
  const std::size_t first = layout.page_size == 0 ? 0 : std::min(page * layout.page_size, m.events.size());
  const std::size_t last =
      layout.page_size == 0 ? m.events.size() : std::min(first + layout.page_size, m.events.size());
  const double shift = first < all.size() ? all[first].y - top - (all[first].gap_y >= 0 ? gap_row : 0) : 0;
  const double bottom_y =
      last > first ? all[last - 1].y - shift + double(label_lines(m.events[last - 1]).size()) * line_height : top;
  const double height = bottom_y + 50;
  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1:.0f}\" viewBox=\"0 0 {0} {1:.0f}\" "
      "font-family=\"monospace\" font-size=\"11\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      "<defs><marker id=\"a\" markerWidth=\"8\" markerHeight=\"8\" refX=\"8\" refY=\"4\" orient=\"auto\">"
      "<path d=\"M0,0 L8,4 L0,8 z\" fill=\"black\"/></marker></defs>\n",
      width, height);
  out += fmt::format("<text x=\"{}\" y=\"20\" text-anchor=\"middle\" font-weight=\"bold\">client {}</text>\n", left_x,
                     escape(c.client.to_string()));
  out += fmt::format("<text x=\"{}\" y=\"20\" text-anchor=\"middle\" font-weight=\"bold\">server {}</text>\n", right_x,
                     escape(c.server.to_string()));
  std::string note =
      pages > 1 ? fmt::format("segments {}-{} of {} (page {} of {})", first + 1, last, m.events.size(), page + 1, pages)
                : fmt::format("{} segments", m.events.size());
  if (layout.by_time && pixels_per_second > 0)
    note += fmt::format("; rows spaced by time, 100 px = {}", scale_text(pixels_per_second));
  if (m.events_truncated) note += fmt::format("; only the first {} are drawn", max_events);
  out += fmt::format("<text x=\"10\" y=\"42\" fill=\"#555\">{}</text>\n", escape(note));
  out += "<text x=\"10\" y=\"65\">time (s)</text><text x=\"660\" y=\"65\">RTT</text>\n";
  for (double x : {left_x, right_x}) {
    out += fmt::format("<line x1=\"{}\" y1=\"70\" x2=\"{}\" y2=\"{:.0f}\" stroke=\"gray\"/>\n", x, x, height - 30);
  }
  for (std::size_t i = first; i < last; ++i) {
    const auto& e = m.events[i];
    const double y = all[i].y - shift;
    if (all[i].gap_y >= 0) {
      const double gy = all[i].gap_y - shift + gap_row / 2;
      const bool from_client = e.direction == netlib::packet::tcp_direction::client_to_server;
      out += fmt::format(
          "<line x1=\"{}\" y1=\"{:.1f}\" x2=\"{}\" y2=\"{:.1f}\" stroke=\"red\" stroke-dasharray=\"5,4\"/>\n", left_x,
          gy, right_x, gy);
      out += fmt::format(
          "<text x=\"{}\" y=\"{:.1f}\" text-anchor=\"middle\" fill=\"red\">{} B from the {} not in the "
          "capture</text>\n",
          (left_x + right_x) / 2, gy - 3, e.missing_before, from_client ? "client" : "server");
    }
    const bool up = e.direction == netlib::packet::tcp_direction::client_to_server;
    const double x1 = up ? left_x : right_x, x2 = up ? right_x : left_x;
    const auto lines = label_lines(e);
    const double arrow_y = y + 6 + double(lines.size() - 1) * line_height;
    const char* color = e.flags.find("RST") != std::string::npos ? "red" : e.retransmission ? "orange" : "black";
    out += fmt::format("<text x=\"10\" y=\"{:.1f}\">{:.6f}</text>\n", y + 4, e.time_s);
    out += fmt::format("<line x1=\"{}\" y1=\"{:.1f}\" x2=\"{}\" y2=\"{:.1f}\" stroke=\"{}\" marker-end=\"url(#a)\"/>\n",
                       x1, arrow_y, x2, arrow_y + slope, color);
    for (std::size_t l = 0; l < lines.size(); ++l) {
      out += fmt::format("<text x=\"{}\" y=\"{:.1f}\" text-anchor=\"middle\" fill=\"{}\">{}</text>\n",
                         (left_x + right_x) / 2, y + 4 + double(l) * line_height, color, escape(lines[l]));
    }
    if (e.rtt_s) out += fmt::format("<text x=\"660\" y=\"{:.1f}\">{:.3f} ms</text>\n", y + 4, *e.rtt_s * 1000);
  }
  out += "</svg>\n";
  return out;
}

}  // namespace netlab::ladder
