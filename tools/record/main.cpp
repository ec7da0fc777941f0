// netlab-record: record an interface to pcap or pcapng (chosen by the output's extension) until
// N packets, S seconds, or SIGINT/SIGTERM; the file is flushed after every packet, so it is
// complete whenever the program stops. With --golden NAME -- CMD..., record while a reference
// session command runs and turn the capture into a golden test (golden.hpp).
#include <fmt/format.h>

#include <chrono>
#include <iostream>

#include "golden.hpp"
#include "golden_facts.hpp"
#include "netlib/app/program.hpp"
#include "netlib/core/stop_signals.hpp"
#include "recorder.hpp"

namespace {

constexpr const char* example =
    "netlab-record --interface lo --filter 'tcp port 8080' --output session.pcapng --seconds 10\n"
    "  netlab-record --golden http-proxy --filter 'tcp port 18092 or tcp port 18093' -- sh "
    "captures/golden/http-proxy.sh\n\n"
    "Golden tests: --golden NAME runs the command after -- while recording (BIN is set to the folder\n"
    "of the netlab binaries), stops when it exits, and writes DIR/NAME.pcapng, DIR/NAME.facts.json\n"
    "(the outputs of netlab-ladder --json and of lab-http/lab-ftp/lab-smtp/lab-pop3 analyze --json for\n"
    "each protocol recognised) and DIR/NAME.recipe (the command line). The facts file is the test\n"
    "entry: integration_capture Golden.* checks every captures/golden/*.facts.json, so adding a golden\n"
    "needs no C++ edit; commit the three files. After an analyzer's JSON output changed on purpose,\n"
    "--golden NAME --refresh-facts rewrites NAME.facts.json from the committed capture (no root).";

int record_plain(const netlib::capture::live_options& live, const std::string& output, std::uint64_t count,
                 double seconds, bool json) {
  if (live.interface.empty()) throw netlib::app::usage_error("--interface is required (e.g. --interface lo)");
  if (output.empty())
    throw netlib::app::usage_error("--output is required (a .pcap or .pcapng file), or use --golden NAME");
  if (!netlib::capture::capture_writer::format_for(output)) {
    throw netlib::app::usage_error(fmt::format("--output {}: use a .pcap or .pcapng file name", output));
  }
  netlab::record::recorder rec(live, output);
  netlib::catch_stop_signals();
  // With --json, stdout holds only the one JSON document: this line goes to stderr.
  (json ? std::cerr : std::cout) << "capturing on "
                                 << live.interface << (live.filter.empty() ? "" : " (" + live.filter + ")")
                                 << std::endl;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (!netlib::stop_requested() && (count == 0 || rec.packets() < count) &&
         (seconds == 0 || std::chrono::steady_clock::now() < deadline)) {
    rec.poll_once();
  }
  rec.drain(count);
  if (json) {
    netlib::app::print_json({{"file", output},
                             {"interface", live.interface},
                             {"packets", rec.packets()},
                             {"dropped", rec.dropped()},
                             {"format", rec.format_name()}});
  } else {
    std::cout << fmt::format("wrote {} packets to {}", rec.packets(), output);
    if (const auto dropped = rec.dropped()) std::cout << fmt::format(" ({} dropped by the kernel)", dropped);
    std::cout << std::endl;
  }
  return netlib::app::exit_ok;
}

}  // namespace

int main(int argc, char** argv) {
  auto app = netlib::app::make_app(
      "netlab-record", "Record a network interface to a pcap or pcapng file, or record a golden test", example);
  netlib::capture::live_options live;
  live.buffer_bytes = netlab::record::record_buffer_bytes;
  netlab::record::golden_options golden;
  std::string output;
  std::uint64_t count = 0;
  double seconds = 0;
  app->add_option("--interface,-i", live.interface, "Interface to record (e.g. lo; root needed; --golden: default lo)");
  app->add_option("--filter,-f", live.filter, "BPF filter, as for tcpdump (e.g. 'tcp port 80')");
  auto* out_opt = app->add_option("--output,-o", output, "Output file: .pcap or .pcapng");
  app->add_option("--count,-c", count, "Stop after this many packets")->check(CLI::PositiveNumber);
  auto* sec_opt = netlib::app::add_duration(*app, "--seconds,-s", seconds,
                                            "Stop after this long: 10, 10s, 2min (--golden: longest the session may "
                                            "run, default 120s)");
  app->add_flag("--promiscuous", live.promiscuous, "Put the interface in promiscuous mode");
  auto* golden_opt =
      app->add_option("--golden", golden.name, "Record a golden test NAME while the command after -- runs (see below)");
  golden_opt->excludes(out_opt);
  app->add_option("--dir", golden.dir, "--golden: folder for NAME.pcapng, NAME.facts.json, NAME.recipe")
      ->capture_default_str()
      ->needs(golden_opt);
  app->add_option("--protocol", golden.protocols,
                  "--golden: analyzers to store (http, ftp, smtp, pop3); default: those that recognise traffic")
      ->check(CLI::IsMember(netlab::record::known_protocols()))
      ->needs(golden_opt);
  app->add_flag("--refresh-facts", golden.refresh,
                "--golden: only rewrite NAME.facts.json from the existing NAME.pcapng (after an analyzer's output "
                "changed on purpose); records nothing, needs no root")
      ->needs(golden_opt);
  app->add_option("command", golden.command, "--golden: the reference session command, after --")->needs(golden_opt);
  netlib::app::add_json_flag(*app, golden.json);
  return netlib::app::run(*app, argc, argv, [&]() -> int {
    if (sec_opt->count() > 0 && (seconds <= 0 || seconds > 1e7))
      throw netlib::app::usage_error("--seconds must be more than 0 and at most 1e7s (about 115 days)");
    if (golden.name.empty()) return record_plain(live, output, count, seconds, golden.json);
    if (golden.command.empty() && !golden.refresh)
      throw netlib::app::usage_error("--golden needs the session command after -- (e.g. -- sh session.sh)");
    if (!golden.command.empty() && golden.refresh)
      throw netlib::app::usage_error("--refresh-facts records nothing: give no command after --");
    if (live.interface.empty()) live.interface = "lo";
    if (sec_opt->count() > 0) golden.seconds = seconds;
    if (count)
      throw netlib::app::usage_error("--count does not apply to --golden (the session command decides when to stop)");
    return netlab::record::record_golden(live, golden, std::vector<std::string>(argv, argv + argc));
  });
}
