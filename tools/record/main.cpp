// netlab-record: record an interface to pcap or pcapng (chosen by the output's extension) until
// N packets, S seconds, or SIGINT/SIGTERM; the file is flushed after every packet, so it is
// complete whenever the program stops.
#include <fmt/format.h>

#include <csignal>
#include <chrono>
#include <iostream>

#include "netlib/app/program.hpp"
#include "netlib/capture/capture_writer.hpp"
#include "netlib/capture/live_capture.hpp"

namespace {

volatile std::sig_atomic_t stop_requested = 0;
void on_signal(int) { stop_requested = 1; }

}  // namespace

int main(int argc, char** argv) {
  auto app = netlib::app::make_app("netlab-record", "Record a network interface to a pcap or pcapng file",
                                   "netlab-record --interface lo --filter 'tcp port 8080' --output session.pcapng --seconds 10");
  netlib::capture::live_options live;
  std::string output;
  std::uint64_t count = 0;
  double seconds = 0;
  bool json = false;
  app->add_option("--interface,-i", live.interface, "Interface to record (e.g. lo; root needed)")->required();
  app->add_option("--filter,-f", live.filter, "BPF filter, as for tcpdump (e.g. 'tcp port 80')");
  app->add_option("--output,-o", output, "Output file: .pcap or .pcapng")->required();
  app->add_option("--count,-c", count, "Stop after this many packets")->check(CLI::PositiveNumber);
  app->add_option("--seconds,-s", seconds, "Stop after this many seconds")->check(CLI::PositiveNumber);
  app->add_flag("--promiscuous", live.promiscuous, "Put the interface in promiscuous mode");
  netlib::app::add_json_flag(*app, json);
  return netlib::app::run(*app, argc, argv, [&]() -> int {
    if (!netlib::capture::capture_writer::format_for(output)) {
      throw netlib::app::usage_error(fmt::format("--output {}: use a .pcap or .pcapng file name", output));
    }
    auto cap = netlib::capture::live_capture::open(live);
    auto writer = netlib::capture::capture_writer::create(output);
    writer.set_pcap_precision(netlib::capture::pcap_precision::nanoseconds);
    const auto iface = writer.add_interface(cap.link(), live.interface, static_cast<std::uint32_t>(live.snaplen));
    writer.flush();
    std::signal(SIGINT, on_signal);
    std::signal(SIGTERM, on_signal);
    std::cout << "capturing on " << live.interface << (live.filter.empty() ? "" : " (" + live.filter + ")") << std::endl;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (!stop_requested && (count == 0 || writer.packets_written() < count) &&
           (seconds == 0 || std::chrono::steady_clock::now() < deadline)) {
      if (auto rec = cap.next()) {
        rec->interface_id = iface;
        writer.write(*rec);
        writer.flush();
      }
    }
    // Packets already captured when a signal or the deadline came still go to the file: read
    // until the interface is quiet for one poll timeout (at most 1 s more).
    const auto drain_end = std::chrono::steady_clock::now() + std::chrono::seconds(1);
    while ((count == 0 || writer.packets_written() < count) && std::chrono::steady_clock::now() < drain_end) {
      auto rec = cap.next();
      if (!rec) break;
      rec->interface_id = iface;
      writer.write(*rec);
      writer.flush();
    }
    const auto stats = cap.stats();
    if (json) {
      netlib::app::print_json({{"file", output},
                               {"interface", live.interface},
                               {"packets", writer.packets_written()},
                               {"dropped", stats.dropped},
                               {"format", writer.format() == netlib::capture::capture_format::pcap ? "pcap" : "pcapng"}});
    } else {
      std::cout << fmt::format("wrote {} packets to {}", writer.packets_written(), output);
      if (stats.dropped) std::cout << fmt::format(" ({} dropped by the kernel)", stats.dropped);
      std::cout << std::endl;
    }
    return netlib::app::exit_ok;
  });
}
