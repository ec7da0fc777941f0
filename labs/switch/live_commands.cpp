// lab-switch run (a live switch over real interfaces) and lab-switch topology (N hosts in network
// namespaces on a live switch, torn down on exit).
#include "commands.hpp"
#include "live_switch.hpp"
#include "report.hpp"
#include "switch_options.hpp"
#include "topology.hpp"

#include "netlib/app/program.hpp"
#include "netlib/core/units.hpp"

#include <fmt/format.h>

#include <unistd.h>

#include <cstdio>
#include <memory>
#include <regex>

namespace netlab::lab_switch {

namespace {

struct live_options {
  std::vector<std::string> ports;
  switch_options sw;
  bool json = false;
  bool table = false;
  bool quiet = false;
  double seconds = 0;  // 0: until a signal
  std::uint64_t frames = 0;
  std::size_t hosts = 3;
  std::string prefix = "lsw";
};

void add_live_options(CLI::App& cmd, live_options& o) {
  add_switch_options(cmd, o.sw);
  netlib::app::add_json_flag(cmd, o.json);
  cmd.add_flag("--table", o.table, "Print the table at exit, like 'bridge fdb show'");
  cmd.add_flag("--quiet", o.quiet, "No line per frame: only the totals at exit");
  netlib::app::add_quantity(cmd, "--duration", o.seconds, netlib::units::parse_duration_s,
                            "Stop after this long (e.g. 30s); default: until Ctrl-C");
  cmd.add_option("--frames", o.frames, "Stop after this many frames");
}

void print_summary(const netlib::l2::learning_switch& sw, const live_totals& t, const live_options& o) {
  if (o.json) {
    nlohmann::json j{{"event", "summary"}, {"summary", summary_json(sw, t.frames, 0)}, {"table", table_json(sw)},
                     {"own_frames_ignored", t.own_ignored}, {"inject_errors", t.inject_errors}};
    std::puts(j.dump().c_str());
  } else {
    std::fputs(format_summary(sw, t.frames, 0).c_str(), stdout);
    std::fputs(format_port_counters(sw).c_str(), stdout);
    fmt::print("own transmissions ignored {}, inject errors {}\n", t.own_ignored, t.inject_errors);
    if (o.table) std::fputs(format_table(sw).c_str(), stdout);
  }
  std::fflush(stdout);
}

// Runs the switch on `interfaces`; `ready` is printed (flushed) once every port captures.
int switch_on(const std::vector<std::string>& interfaces, const live_options& o, const std::string& ready_text,
              const nlohmann::json& ready_json) {
  auto sw = make_switch(o.sw, interfaces.size());
  install_stop_signals();
  const live_output out{o.json, o.table, o.quiet};
  std::optional<std::chrono::milliseconds> duration;
  if (o.seconds > 0) duration = std::chrono::milliseconds(static_cast<std::int64_t>(o.seconds * 1000));
  const auto totals = run_live(sw, interfaces, out, duration, o.frames ? std::optional(o.frames) : std::nullopt, [&] {
    std::puts(o.json ? ready_json.dump().c_str() : ready_text.c_str());
    std::fflush(stdout);
  });
  print_summary(sw, totals, o);
  return netlib::app::exit_ok;
}

int run_switch(const live_options& o) {
  if (o.ports.empty()) throw netlib::app::usage_error("give at least one --port IFACE");
  std::string text = "ready: switching";
  for (std::size_t i = 0; i < o.ports.size(); ++i) text += fmt::format(" {}={}", i, o.ports[i]);
  return switch_on(o.ports, o, text, {{"event", "ready"}, {"ports", o.ports}});
}

int run_topology(const live_options& o) {
  if (!std::regex_match(o.prefix, std::regex("[a-z][a-z0-9]{0,9}"))) {
    throw netlib::app::usage_error("--prefix: 1 to 10 lower-case letters and digits, starting with a letter");
  }
  if (o.hosts < 1 || o.hosts > 99) throw netlib::app::usage_error("--hosts: 1 to 99");
  if (geteuid() != 0) {
    throw netlib::app::failure("topology needs root to create network namespaces: run it with sudo");
  }
  install_stop_signals();
  topology topo(o.prefix, o.hosts);
  std::string text = fmt::format("ready: {} hosts on a live switch; try: ip netns exec {} ping {}", o.hosts,
                                 topo.hosts()[0].netns, topo.hosts().size() > 1 ? topo.hosts()[1].ip : topo.hosts()[0].ip);
  nlohmann::json hosts = nlohmann::json::array();
  for (std::size_t i = 0; i < topo.hosts().size(); ++i) {
    const auto& h = topo.hosts()[i];
    text += fmt::format("\n  host {}: netns {} eth0 {} {} -> switch port {} ({})", i + 1, h.netns, h.ip, h.mac, i,
                        h.switch_interface);
    hosts.push_back({{"netns", h.netns}, {"ip", h.ip}, {"mac", h.mac}, {"port", i}, {"interface", h.switch_interface}});
  }
  return switch_on(topo.switch_interfaces(), o, text, {{"event", "ready"}, {"hosts", hosts}});
}

}  // namespace

void add_live_commands(CLI::App& app) {
  auto run = std::make_shared<live_options>();
  auto* cmd = netlib::app::add_command(
      app, "run", "A live switch over real interfaces (libpcap capture and injection; root needed)",
      "sudo lab-switch run --port veth1 --port veth2 --port veth3 --table", [run] { return run_switch(*run); });
  cmd->add_option("--port", run->ports, "Interface that becomes the next port (0, 1, ...); repeatable")->required();
  add_live_options(*cmd, *run);

  auto topo = std::make_shared<live_options>();
  auto* tcmd = netlib::app::add_command(
      app, "topology",
      "Build N hosts (network namespaces with veth pairs) on a live switch; tear them down on exit (root only)",
      "sudo lab-switch topology --hosts 3   # then: sudo ip netns exec lswh1 ping 10.0.0.2",
      [topo] { return run_topology(*topo); });
  tcmd->add_option("--hosts", topo->hosts, "Number of hosts (1..99)")->capture_default_str();
  tcmd->add_option("--prefix", topo->prefix, "Name prefix of namespaces (PREFIXh1) and interfaces (PREFIXs1)")
      ->capture_default_str();
  add_live_options(*tcmd, *topo);
}

}  // namespace netlab::lab_switch
