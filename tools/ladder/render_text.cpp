// Text output: the conversation table and the ladder of one conversation.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "ladder_model.hpp"
#include "netlib/core/units.hpp"

namespace netlab::ladder {
namespace {

using netlib::packet::tcp_direction;

constexpr std::size_t lane_width = 62;  // characters between the two vertical bars

std::string event_text(const ladder_event& e) {
  std::string s = e.flags.empty() ? "(none)" : e.flags;
  s += fmt::format(" seq={}", e.seq);
  if (e.ack) s += fmt::format(" ack={}", *e.ack);
  if (e.length > 0) s += fmt::format(" len={}", e.length);
  if (e.retransmission) s += " [retransmission]";
  if (!e.label.empty()) s += fmt::format(" \"{}\"", e.label);
  return s;
}

std::string arrow(const ladder_event& e) {
  std::string text = event_text(e);
  const std::size_t room = lane_width - 8;
  if (text.size() > room) text = text.substr(0, room - 3) + "...";
  const std::size_t fill = lane_width - text.size() - 2;
  if (e.direction == tcp_direction::client_to_server) {
    return "|-- " + text + " " + std::string(fill - 4, '-') + ">|";
  }
  return "|<" + std::string(fill - 4, '-') + " " + text + " --|";
}

std::string format_rtt(double s) {
  return s < 1 ? fmt::format("{:.3f} ms", s * 1000) : fmt::format("{:.3f} s", s);
}

// An empty stretch of both lifelines, optionally with a note in the lane.
std::string lane_line(const std::string& note = {}) {
  const std::string text = note.size() > lane_width - 4 ? note.substr(0, lane_width - 7) + "..." : note;
  const std::size_t pad = lane_width - text.size();
  return fmt::format("{:>10}  |{}{}{}|\n", "", std::string(pad / 2, ' '), text, std::string(pad - pad / 2, ' '));
}

}  // namespace

std::string render_conversations_text(const ladder_model& m) {
  std::string out = fmt::format(
      "{}: {}, {} TCP, {}", m.file,
      netlib::units::format_count(static_cast<long long>(m.stats.packets), "packet", "packets"), m.stats.tcp_packets,
      netlib::units::format_count(static_cast<long long>(m.conversations.size()), "conversation", "conversations"));
  if (m.stats.decode_errors > 0) {
    out += fmt::format(", {} undecodable frames (first: {})", m.stats.decode_errors, m.stats.first_decode_error);
  }
  if (m.stats.truncated_records > 0) out += fmt::format(", {} truncated record skipped", m.stats.truncated_records);
  if (m.stats.missing_bytes > 0) out += fmt::format(", {} payload bytes missing", m.stats.missing_bytes);
  if (m.stats.late_packets > 0) {
    out += fmt::format(", {} packets after their conversation ended (counted here only)", m.stats.late_packets);
  }
  out += "\n";
  if (m.conversations.empty()) return out;
  out += fmt::format("{:>4}  {:<42} {:<42} {:>7} {:>12} {:>12} {:>11} {:>11}  {}\n", "id", "client", "server",
                     "packets", "client_bytes", "server_bytes", "start_s", "duration_s", "state");
  for (const auto& s : m.conversations) {
    const auto& c = s.conversation;
    std::string state(netlib::packet::state_name(c.state));
    if (!c.handshake_seen) state += ", no handshake";
    const auto gaps = c.to_server.gap_bytes + c.to_client.gap_bytes;
    if (gaps > 0) state += fmt::format(", {} B missing", gaps);
    out += fmt::format("{:>4}  {:<42} {:<42} {:>7} {:>12} {:>12} {:>11.6f} {:>11.6f}  {}\n", c.id, c.client.to_string(),
                       c.server.to_string(), c.packets, c.to_server.payload_bytes, c.to_client.payload_bytes,
                       netlib::to_seconds(c.first_ts - m.capture_start), netlib::to_seconds(c.last_ts - c.first_ts),
                       state);
  }
  return out;
}

std::string render_ladder_text(const ladder_model& m, const ladder_layout& layout) {
  const auto& c = selected_summary(m).conversation;
  std::string out = fmt::format("conversation {}: {} over {:.6f} s, {}\n", c.id,
                                netlib::units::format_count(static_cast<long long>(c.packets), "packet", "packets"),
                                netlib::to_seconds(c.last_ts - c.first_ts), netlib::packet::state_name(c.state));
  const std::string client = "client " + c.client.to_string();
  const std::string server = "server " + c.server.to_string();
  const std::size_t client_width = lane_width + 1 - std::min(server.size(), lane_width / 2);
  out += fmt::format("{:>10}  {:<{}}{}\n", "time_s", client, client_width, server);
  // --spacing time: empty lines between rows in proportion to the time between them, at most
  // as many in all as there are rows (and 20 for one gap).
  const double span = m.events.empty() ? 0 : m.events.back().time_s - m.events.front().time_s;
  const double lines_per_second = layout.by_time && span > 0 ? std::max(20.0, double(m.events.size())) / span : 0;
  if (lines_per_second > 0)
    out += lane_line(fmt::format("(rows spaced by time: one line = {})", format_rtt(1 / lines_per_second)));
  for (std::size_t i = 0; i < m.events.size(); ++i) {
    const auto& e = m.events[i];
    if (i > 0 && lines_per_second > 0) {
      const auto blank = std::min<long>(20, std::lround((e.time_s - m.events[i - 1].time_s) * lines_per_second));
      for (long k = 0; k < blank; ++k) out += lane_line();
    }
    if (e.missing_before > 0) {
      out += lane_line(fmt::format("~~ {} B from the {} not in the capture ~~", e.missing_before,
                                   e.direction == tcp_direction::client_to_server ? "client" : "server"));
    }
    out += fmt::format("{:>10.6f}  {}", e.time_s, arrow(e));
    if (e.rtt_s) out += "  rtt " + format_rtt(*e.rtt_s);
    out += '\n';
  }
  if (m.events_truncated) out += fmt::format("(only the first {} segments are shown)\n", max_events);
  const auto gaps = c.to_server.gaps + c.to_client.gaps;
  out += fmt::format("client sent {} B, server sent {} B", c.to_server.payload_bytes, c.to_client.payload_bytes);
  if (gaps > 0) out += fmt::format("; {} gaps, {} B not captured", gaps, c.to_server.gap_bytes + c.to_client.gap_bytes);
  out += '\n';
  return out;
}

}  // namespace netlab::ladder
