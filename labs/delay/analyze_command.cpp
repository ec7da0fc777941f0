// lab-delay analyze CAPTURE: reads a pcap/pcapng file, reassembles its TCP conversations
// (netlib::capture::replay_tcp) and prints each one's handshake RTT, RTT samples, goodput and
// inter-arrival statistics; with --rate, beside the model: goodput R·1448/1514 and full segments
// spaced 1514·8/R apart at the bottleneck. Goodput counts the bytes captured: payload the capture
// missed (gaps) is shown beside it per direction, and a truncated capture or missing bytes are
// also one line on stderr and "truncated"/"missing_bytes" in --json.
#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "common/report.hpp"
#include "netlib/app/json_stream.hpp"
#include "netlib/app/program.hpp"
#include "netlib/capture/tcp_replay.hpp"
#include "netlib/core/units.hpp"
#include "netlib/packet/packet_decoder.hpp"
#include "tcp_timing.hpp"

namespace netlab::lab_delay {
namespace {

using netlib::units::format_bps;
using netlib::units::format_seconds;
constexpr double full_frame_bytes = 1514, full_payload_bytes = 1448;

struct analyze_flags {
  std::string capture;
  double rate = 0;
  bool json = false;
};

nlohmann::json stats_json(const running_stats& s) {
  return {{"count", s.count}, {"min_s", s.min}, {"mean_s", s.mean()}, {"max_s", s.max}, {"stddev_s", s.stddev()}};
}

nlohmann::json direction_json(const direction_timing& d) {
  return {{"packets", d.packets},
          {"bytes", d.bytes},
          {"missing_bytes", d.missing_bytes},
          {"data_segments", d.data_segments},
          {"retransmitted_bytes", d.retransmitted_bytes},
          {"duration_s", d.duration_s()},
          {"goodput_bps", labs::or_null(d.goodput_bps())},
          {"rtt", stats_json(d.rtt_s)},
          {"interarrival", stats_json(d.interarrival_s)}};
}

std::string stats_text(const running_stats& s) {
  if (s.count == 0) return "none";
  return fmt::format("{} samples, min/avg/max/stddev = {}/{}/{}/{}", s.count, format_seconds(s.min),
                     format_seconds(s.mean()), format_seconds(s.max), format_seconds(s.stddev()));
}

void print_direction(const char* name, const direction_timing& d, double rate) {
  std::cout << fmt::format(
      "  {}: {} in {} data segments ({} retransmitted bytes{})\n", name, netlib::units::format_bytes(double(d.bytes)),
      d.data_segments, d.retransmitted_bytes,
      d.missing_bytes > 0 ? fmt::format(", {} bytes missing from the capture", d.missing_bytes) : "");
  if (d.data_segments == 0) return;
  std::cout << fmt::format(
      "    goodput        {}{}{}\n", d.goodput_bps() ? format_bps(*d.goodput_bps()) : "n/a",
      d.missing_bytes > 0 && d.goodput_bps() ? " (of the bytes captured only)" : "",
      rate > 0 && d.goodput_bps()
          ? fmt::format("   (model R·1448/1514 = {})", format_bps(rate * full_payload_bytes / full_frame_bytes))
          : "");
  std::cout << fmt::format("    RTT            {}\n", stats_text(d.rtt_s));
  std::cout << fmt::format(
      "    inter-arrival  {}{}\n", stats_text(d.interarrival_s),
      rate > 0 ? fmt::format("   (model 1514·8/R = {})", format_seconds(full_frame_bytes * 8 / rate)) : "");
}

int run_analyze(const analyze_flags& f) {
  auto reader = netlib::capture::capture_reader::open(f.capture);
  tcp_timing timing;
  // Malformed frames are counted; whatever decoded (a TCP header) is still fed.
  const auto stats = netlib::capture::replay_tcp(reader, timing);
  netlib::capture::require_some_packet(f.capture, stats);
  if (const auto note = netlib::capture::damage_note(f.capture, stats))
    std::cerr << netlib::app::program_name() << ": warning: " << *note << '\n';
  const std::uint64_t malformed = stats.decode_errors;
  const std::uint64_t not_tcp = stats.packets - stats.tcp_packets;
  auto conns = timing.connections();
  std::stable_sort(conns.begin(), conns.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
  if (f.json) {
    nlohmann::json doc{{"capture", f.capture},
                       {"packets", stats.packets},
                       {"malformed_packets", malformed},
                       {"ignored_packets", not_tcp},
                       {"connections", nlohmann::json::array()},
                       {"connections_not_kept", timing.dropped_connections()},
                       {"truncated", stats.truncated_records > 0},
                       {"missing_bytes", stats.missing_bytes}};
    if (f.rate > 0)
      doc["model"] = {{"rate_bps", f.rate},
                      {"goodput_bps", f.rate * full_payload_bytes / full_frame_bytes},
                      {"interarrival_s", full_frame_bytes * 8 / f.rate}};
    // Up to max_connections_kept connections: written one at a time, not built as one document.
    netlib::app::print_json_with_array(doc, "connections", conns.size(), [&](std::size_t i) {
      const auto& c = conns[i];
      return nlohmann::json{{"id", c.id},
                            {"client", c.client},
                            {"server", c.server},
                            {"state", c.state},
                            {"handshake_rtt_s", labs::or_null(c.handshake_rtt_s())},
                            {"syn_to_synack_s", labs::or_null(c.syn_to_synack_s)},
                            {"synack_to_ack_s", labs::or_null(c.synack_to_ack_s)},
                            {"client_to_server", direction_json(c.to_server)},
                            {"server_to_client", direction_json(c.to_client)}};
    });
    return netlib::app::exit_ok;
  }
  std::cout << fmt::format(
      "{}: {} packets ({} malformed, {} not TCP), {} TCP connections{}\n", f.capture, stats.packets, malformed, not_tcp,
      stats.conversations,
      timing.dropped_connections() > 0 ? fmt::format(" (the first {} to close are shown)", conns.size()) : "");
  for (const auto& c : conns) {
    std::cout << fmt::format("\nconnection {}: {} -> {} ({})\n", c.id, c.client, c.server, c.state);
    if (c.handshake_rtt_s())
      std::cout << fmt::format("  handshake RTT  {} (SYN→SYN-ACK {}, SYN-ACK→ACK {})\n",
                               format_seconds(*c.handshake_rtt_s()), format_seconds(*c.syn_to_synack_s),
                               format_seconds(*c.synack_to_ack_s));
    else
      std::cout << "  handshake RTT  not captured\n";
    print_direction("client -> server", c.to_server, f.rate);
    print_direction("server -> client", c.to_client, f.rate);
  }
  if (f.rate <= 0) std::cout << "\n(give --rate R to compare with the model's goodput and packet spacing)\n";
  std::cout.flush();
  return netlib::app::exit_ok;
}

}  // namespace

void add_analyze_command(CLI::App& app) {
  auto f = std::make_shared<analyze_flags>();
  auto* cmd = netlib::app::add_command(
      app, "analyze", "Per TCP connection in a capture: handshake RTT, RTT samples, goodput, inter-arrival",
      "lab-delay analyze transfer.pcapng --rate 10Mbps");
  cmd->add_option("capture", f->capture, "A pcap or pcapng file")->required()->check(netlib::app::input_file());
  netlib::app::add_quantity(*cmd, "--rate", f->rate, netlib::units::parse_rate_bps,
                            "Bottleneck rate R, to print the model's goodput and spacing beside the measurements");
  netlib::app::add_json_flag(*cmd, f->json);
  netlib::app::set_action(*cmd, [f] {
    try {
      return run_analyze(*f);
    } catch (const netlib::capture::capture_error& e) {
      throw netlib::app::failure(e.what());
    }
  });
}

}  // namespace netlab::lab_delay
