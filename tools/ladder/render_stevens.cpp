// Theory of operation. One pass over the capture records the chosen conversation's trace
// (netlib::packet::tcp_trace_recorder: relative sequence numbers, scaled windows, which segments
// resend bytes). The plot maps [x_min, x_max] s × [0, y_max] bytes linearly onto a fixed box whose
// axes end on ticks (netlib::svg). Each data segment of the drawn direction is a vertical bar
// from its first sequence number to its last (with short end caps, as tcptrace draws them), at
// the time it passed the capture point; the other side's ACKs are a step line of acknowledgement
// numbers, the receive window a step line at ACK + window. y_max covers the data and the ACKs,
// and the window line unless it reaches beyond three times the data (a large scaled window
// would flatten the data into a line): then it is clipped at the top and the picture says so.
// Every drawn element carries data-series (its legend entry) so tests can match them.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "netlib/capture/tcp_replay.hpp"
#include "netlib/core/svg.hpp"
#include "stevens.hpp"

namespace netlab::ladder {

namespace {

namespace pk = netlib::packet;
using netlib::svg::escape;

// The picture's layout (named apart from render_svg.cpp's, which shares a unity batch).
constexpr double g_width = 900, g_height = 580, g_left = 100, g_right = 200, g_top = 78, g_bottom = 62;
constexpr double plot_w = g_width - g_left - g_right, plot_h = g_height - g_top - g_bottom;

struct scale {
  double x_min, x_max, y_max;
  [[nodiscard]] double px(double t) const { return g_left + plot_w * (t - x_min) / (x_max - x_min); }
  [[nodiscard]] double py(double seq) const { return g_top + plot_h - plot_h * std::min(seq, y_max) / y_max; }
};

std::string side_name(const pk::tcp_conversation& c, pk::tcp_direction d) {
  return d == pk::tcp_direction::client_to_server ? fmt::format("client {}", c.client)
                                                  : fmt::format("server {}", c.server);
}

}  // namespace

std::optional<stevens_graph> read_stevens(const std::filesystem::path& file, std::uint64_t id,
                                          std::optional<pk::tcp_direction> direction) {
  pk::tcp_trace_recorder recorder([id](const pk::tcp_conversation& c) { return c.id == id; }, stevens_max_segments, 1);
  auto reader = netlib::capture::capture_reader::open(file);
  const auto stats = netlib::capture::replay_tcp(reader, recorder);
  auto traces = recorder.take();
  const auto it = traces.find(id);
  if (it == traces.end()) return std::nullopt;
  stevens_graph g;
  g.file = file.string();
  g.capture_start = stats.first_ts;
  g.trace = std::move(it->second);
  g.direction = direction.value_or(pk::data_sender(g.trace));
  return g;
}

std::string render_stevens_svg(const stevens_graph& g) {
  const auto& t = g.trace;
  const auto& c = t.conversation;
  const auto d = g.direction;
  const auto secs = [&](netlib::time_point ts) { return netlib::to_seconds(ts - g.capture_start); };
  // Extents.
  double t0 = 0, t1 = 0, data_max = 0, ack_max = 0, window_max = 0;
  bool any = false;
  std::size_t segments = 0, retransmitted = 0;
  for (const auto& s : t.segments) {
    const double x = secs(s.ts);
    t0 = any ? std::min(t0, x) : x;
    t1 = any ? std::max(t1, x) : x;
    any = true;
    if (s.direction == d && s.length > 0) {
      ++segments;
      retransmitted += s.retransmission ? 1 : 0;
      data_max = std::max(data_max, double(s.seq) + s.length);
    } else if (s.direction != d && s.has(pk::tcp_flag::ack) && !s.has(pk::tcp_flag::syn)) {
      ack_max = std::max(ack_max, double(s.ack));
      window_max = std::max(window_max, double(s.ack) + double(s.window));
    }
  }
  const double content = std::max({data_max, ack_max, 1.0});
  const bool clip_window = window_max > 3 * content;
  const double y_top = clip_window ? content * 1.1 : std::max(content, window_max);
  const double y_step = netlib::svg::tick_step(y_top);
  const double span = std::max(t1 - t0, 1e-6);
  const double x_step = netlib::svg::tick_step(span);
  const double x_min = std::floor(t0 / x_step) * x_step;
  const double x_max = std::max(x_min + x_step, netlib::svg::axis_end(t1, x_step));
  const scale sc{x_min, x_max, netlib::svg::axis_end(y_top, y_step)};

  std::string out = fmt::format(
      R"svg(<svg xmlns="http://www.w3.org/2000/svg" width="{0}" height="{1}" viewBox="0 0 {0} {1}" font-family="sans-serif">)svg"
      "\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
      g_width, g_height);
  out += fmt::format(R"svg(<text class="title" x="{}" y="24" font-size="15" font-weight="bold">{}</text>)svg", g_left,
                     escape(fmt::format("Time-sequence graph (Stevens): TCP conversation {}", c.id)));
  out += "\n";
  out += fmt::format(R"svg(<text class="subtitle" x="{}" y="44" font-size="12" fill="#444">{}</text>)svg", g_left,
                     escape(fmt::format("data from the {} to {}", side_name(c, d),
                                        side_name(c, d == pk::tcp_direction::client_to_server
                                                         ? pk::tcp_direction::server_to_client
                                                         : pk::tcp_direction::client_to_server))));
  out += "\n";
  std::string note = fmt::format("{} data segments, {} retransmitted", segments, retransmitted);
  if (t.segments_not_kept > 0) note += fmt::format("; only the first {} segments are drawn", t.segments.size());
  if (clip_window) note += "; window line clipped at the top";
  out += fmt::format(R"svg(<text class="note" x="{}" y="62" font-size="11" fill="#666">{}</text>)svg", g_left,
                     escape(note));
  out += "\n";
  // Axes: the box, ticks, labels.
  out += fmt::format(R"svg(<rect class="plot" x="{}" y="{}" width="{}" height="{}" fill="none" stroke="#444"/>)svg",
                     g_left, g_top, plot_w, plot_h);
  out += "\n";
  const int x_ticks = static_cast<int>(std::lround((sc.x_max - sc.x_min) / x_step));
  for (int i = 0; i <= x_ticks; ++i) {
    const double v = sc.x_min + i * x_step, x = sc.px(v);
    out += fmt::format(
        R"svg(<line x1="{0:.1f}" x2="{0:.1f}" y1="{1}" y2="{2}" stroke="#444"/><text class="xtick" x="{0:.1f}" y="{3}" font-size="11" text-anchor="middle">{4}</text>)svg",
        x, g_top + plot_h, g_top + plot_h + 4, g_top + plot_h + 17, netlib::svg::tick_label(v, x_step));
  }
  const int y_ticks = static_cast<int>(std::lround(sc.y_max / y_step));
  for (int i = 0; i <= y_ticks; ++i) {
    const double v = i * y_step, y = sc.py(v);
    out += fmt::format(
        R"svg(<line x1="{0}" x2="{1}" y1="{2:.1f}" y2="{2:.1f}" stroke="#e4e4e4"/><text class="ytick" x="{3}" y="{4:.1f}" font-size="11" text-anchor="end">{5}</text>)svg",
        g_left, g_left + plot_w, y, g_left - 5, y + 4, netlib::svg::tick_label(v, y_step));
  }
  out += "\n";
  out += fmt::format(
      R"svg(<text class="xlabel" x="{}" y="{}" font-size="13" text-anchor="middle">time (s since the capture began)</text>)svg",
      g_left + plot_w / 2, g_height - 18);
  out += fmt::format(
      R"svg(<text class="ylabel" x="{0}" y="{1}" font-size="13" text-anchor="middle" transform="rotate(-90 {0} {1})">sequence number (bytes, relative)</text>)svg",
      26, g_top + plot_h / 2);
  out += "\n";
  // ACK and window step lines.
  std::string acks, window;
  std::optional<double> last_ack, last_window;
  for (const auto& s : t.segments) {
    if (s.direction == d || !s.has(pk::tcp_flag::ack) || s.has(pk::tcp_flag::syn)) continue;
    const double x = sc.px(secs(s.ts));
    const double a = sc.py(s.ack), w = sc.py(double(s.ack) + double(s.window));
    if (last_ack) acks += fmt::format("{:.1f},{:.1f} ", x, *last_ack);
    acks += fmt::format("{:.1f},{:.1f} ", x, a);
    if (last_window) window += fmt::format("{:.1f},{:.1f} ", x, *last_window);
    window += fmt::format("{:.1f},{:.1f} ", x, w);
    last_ack = a;
    last_window = w;
  }
  if (!window.empty())
    out +=
        fmt::format(
            R"svg(<polyline class="window" data-series="window" fill="none" stroke="#d89000" stroke-width="1.2" points="{}"/>)svg",
            window) +
        "\n";
  if (!acks.empty())
    out +=
        fmt::format(
            R"svg(<polyline class="acks" data-series="ack" fill="none" stroke="#1a9641" stroke-width="1.2" points="{}"/>)svg",
            acks) +
        "\n";
  // Data segments.
  for (const auto& s : t.segments) {
    if (s.direction != d || s.length == 0) continue;
    const double x = sc.px(secs(s.ts)), y1 = sc.py(s.seq), y2 = sc.py(double(s.seq) + s.length);
    const char* series = s.retransmission ? "retransmission" : "data";
    const char* color = s.retransmission ? "#d7191c" : "#2b5fad";
    out += fmt::format(
        R"svg(<g class="segment" data-series="{0}" data-seq="{1}" data-len="{2}" data-t="{3:.6f}" stroke="{4}"><line x1="{5:.1f}" x2="{5:.1f}" y1="{6:.1f}" y2="{7:.1f}"/><line x1="{8:.1f}" x2="{9:.1f}" y1="{7:.1f}" y2="{7:.1f}"/></g>)svg",
        series, s.seq, s.length, secs(s.ts), color, x, y1, y2, x - 2, x + 2);
  }
  out += "\n";
  // Slow start's end and the recovery, when the sender retransmitted.
  if (const auto loss = pk::first_loss(t, d)) {
    const auto marker = [&](std::size_t index, const char* cls, const char* color, const std::string& label,
                            double dy) {
      const double x = sc.px(secs(t.segments[index].ts));
      out += fmt::format(
          R"svg(<g class="marker {0}" data-series="{0}"><line x1="{1:.1f}" x2="{1:.1f}" y1="{2}" y2="{3}" stroke="{4}" stroke-dasharray="4,3"/><text x="{5:.1f}" y="{6}" font-size="11" fill="{4}">{7}</text></g>)svg",
          cls, x, g_top, g_top + plot_h, color, x + 3, g_top + dy, escape(label));
      out += "\n";
    };
    marker(loss->first_retransmission, "slow-start-end", "#d7191c",
           fmt::format("first retransmission {:.3f} s", secs(t.segments[loss->first_retransmission].ts)), 14);
    if (loss->recovered)
      marker(*loss->recovered, "recovery-end", "#1a9641",
             fmt::format("recovered {:.3f} s", secs(t.segments[*loss->recovered].ts)), 28);
  }
  // Legend: one entry per kind of thing drawn.
  struct entry {
    const char* series;
    const char* color;
    const char* label;
    bool shown;
  };
  bool any_data = false, any_retransmission = false;
  for (const auto& s : t.segments) {
    any_data = any_data || (s.direction == d && s.length > 0 && !s.retransmission);
    any_retransmission = any_retransmission || (s.direction == d && s.length > 0 && s.retransmission);
  }
  const entry entries[] = {{"data", "#2b5fad", "data segment", any_data},
                           {"retransmission", "#d7191c", "retransmitted", any_retransmission},
                           {"ack", "#1a9641", "ACK number", !acks.empty()},
                           {"window", "#d89000", "ACK + window", !window.empty()}};
  double ly = g_top + 12;
  const double lx = g_left + plot_w + 16;
  for (const auto& e : entries) {
    if (!e.shown) continue;
    out += fmt::format(
        R"svg(<g class="legend-entry" data-series="{0}"><line x1="{1}" x2="{2}" y1="{3}" y2="{3}" stroke="{4}" stroke-width="2"/><text x="{5}" y="{6}" font-size="12">{7}</text></g>)svg",
        e.series, lx, lx + 20, ly, e.color, lx + 26, ly + 4, e.label);
    out += "\n";
    ly += 20;
  }
  if (!any) {
    out += fmt::format(R"svg(<text class="note" x="{}" y="{}" font-size="12">no segments</text>)svg", g_left + 10,
                       g_top + 20);
  }
  out += "</svg>\n";
  return out;
}

}  // namespace netlab::ladder
