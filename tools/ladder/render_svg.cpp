// SVG ladder: the client's and the server's time lines, one sloped arrow per segment with its
// flags, size and label, the time (s since the first packet) on the left and RTTs on the right.
// Vertical position follows time, stretched so that consecutive arrows stay readable.
#include <fmt/format.h>

#include <algorithm>

#include "ladder_model.hpp"

namespace netlab::ladder {
namespace {

std::string xml_escape(std::string_view s) {
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

constexpr double left_x = 170, right_x = 630, top = 70, row = 26, slope = 14;

std::vector<double> rows_for(const std::vector<ladder_event>& events) {
  std::vector<double> y;
  const double span = events.empty() ? 0 : events.back().time_s;
  const double per_second = span > 0 ? std::min(4000.0, (row * static_cast<double>(events.size())) / span) : 0;
  for (const auto& e : events) {
    const double by_time = top + e.time_s * per_second;
    y.push_back(y.empty() ? top : std::max(y.back() + row, by_time));
  }
  return y;
}

}  // namespace

std::string render_ladder_svg(const ladder_model& m) {
  const auto& c = selected_summary(m).conversation;
  const auto y = rows_for(m.events);
  const double height = (y.empty() ? top : y.back()) + 60;
  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"820\" height=\"{:.0f}\" font-family=\"monospace\" "
      "font-size=\"11\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      "<defs><marker id=\"a\" markerWidth=\"8\" markerHeight=\"8\" refX=\"8\" refY=\"4\" orient=\"auto\">"
      "<path d=\"M0,0 L8,4 L0,8 z\" fill=\"black\"/></marker></defs>\n",
      height);
  out += fmt::format("<text x=\"{}\" y=\"20\" text-anchor=\"middle\" font-weight=\"bold\">client {}</text>\n", left_x,
                     xml_escape(c.client.to_string()));
  out += fmt::format("<text x=\"{}\" y=\"20\" text-anchor=\"middle\" font-weight=\"bold\">server {}</text>\n", right_x,
                     xml_escape(c.server.to_string()));
  out += fmt::format("<text x=\"10\" y=\"45\">time (s)</text><text x=\"660\" y=\"45\">RTT</text>\n");
  for (double x : {left_x, right_x}) {
    out += fmt::format("<line x1=\"{}\" y1=\"50\" x2=\"{}\" y2=\"{:.0f}\" stroke=\"gray\"/>\n", x, x, height - 30);
  }
  for (std::size_t i = 0; i < m.events.size(); ++i) {
    const auto& e = m.events[i];
    const bool up = e.direction == netlib::packet::tcp_direction::client_to_server;
    const double x1 = up ? left_x : right_x, x2 = up ? right_x : left_x;
    std::string text = e.flags + fmt::format(" seq={}", e.seq);
    if (e.ack) text += fmt::format(" ack={}", *e.ack);
    if (e.length) text += fmt::format(" len={}", e.length);
    if (!e.label.empty()) text += " " + e.label.substr(0, 40);
    const char* color = e.flags.find("RST") != std::string::npos ? "red" : e.retransmission ? "orange" : "black";
    out += fmt::format("<text x=\"10\" y=\"{:.1f}\">{:.6f}</text>\n", y[i] + 4, e.time_s);
    out += fmt::format("<line x1=\"{}\" y1=\"{:.1f}\" x2=\"{}\" y2=\"{:.1f}\" stroke=\"{}\" marker-end=\"url(#a)\"/>\n", x1,
                       y[i] + 6, x2, y[i] + 6 + slope, color);
    out += fmt::format("<text x=\"{}\" y=\"{:.1f}\" text-anchor=\"middle\" fill=\"{}\">{}</text>\n", (left_x + right_x) / 2,
                       y[i] + 4, color, xml_escape(text));
    if (e.rtt_s) out += fmt::format("<text x=\"660\" y=\"{:.1f}\">{:.3f} ms</text>\n", y[i] + 4, *e.rtt_s * 1000);
  }
  out += "</svg>\n";
  return out;
}

}  // namespace netlab::ladder
