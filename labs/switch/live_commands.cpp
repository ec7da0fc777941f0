// lab-switch run (a live switch over real interfaces) and lab-switch topology (N hosts in network
// namespaces on a live switch, torn down on exit).
#include "commands.hpp"
#include "live_switch.hpp"
#include "report.hpp"
#include "switch_options.hpp"
#include "topology.hpp"

#include "netlib/app/program.hpp"
#include "netlib/core/stop_signals.hpp"
#include "netlib/core/units.hpp"

#include <fmt/format.h>

#include <unistd.h>

#include <cstdio>
#include <memory>
#include <regex>

namespace netlab::lab_switch {

namespace {

// IFF_LOOPBACK in /sys/class/net/IFACE/flags (Linux); an unknown interface is not (capturing on
// it reports the error).
bool is_loopback(const std::string& iface) {
  if (iface == "lo") return true;
  std::FILE* f = std::fopen(("/sys/class/net/" + iface + "/flags").c_str(), "r");
  if (f == nullptr) return false;
  unsigned long flags = 0;
  const bool read = std::fscanf(f, "%lx", &flags) == 1;
  std::fclose(f);
  return read && (flags & 0x8UL) != 0;
}

struct live_options {
  std::vector<std::string> ports;
  switch_options sw;
  bool json = false;
  bool json_lines = false;
  bool table = false;
  bool quiet = false;
  double seconds = 0;  // 0: until a signal
  std::uint64_t frames = 0;
  std::size_t hosts = 3;
  std::string prefix = "lsw";
};

void add_live_options(CLI::App& cmd, live_options& o) {
  add_switch_options(cmd, o.sw);
  auto* json = cmd.add_flag("--json", o.json,
                            "At exit, print one JSON document: ready (ports or hosts), records (frames and table "
                            "events in order), summary, table; the ready line goes to stderr");
  cmd.add_flag("--json-lines", o.json_lines,
               "Stream instead: one JSON object per line as it happens (ready, each frame and event, summary)")
      ->excludes(json);
  cmd.add_flag("--table", o.table, "Print the table at exit, like 'bridge fdb show'");
  cmd.add_flag("--quiet", o.quiet, "No line per frame: only the totals at exit");
  netlib::app::add_duration(cmd, "--duration", o.seconds, "Stop after this long (e.g. 30s); default: until Ctrl-C");
  cmd.add_option("--frames", o.frames, "Stop after this many frames");
}

void print_summary(const netlib::l2::learning_switch& sw, const live_totals& t, const live_options& o,
                   const nlohmann::json& ready) {
  if (o.json_lines) {
    nlohmann::json j{{"event", "summary"},
                     {"summary", summary_json(sw, t.frames, 0)},
                     {"table", table_json(sw)},
                     {"own_frames_ignored", t.own_ignored},
                     {"inject_errors", t.inject_errors}};
    std::puts(netlib::app::tidy_numbers(j).dump().c_str());
  } else if (o.json) {
    nlohmann::json doc = ready;
    doc.erase("event");
    doc.update({{"records", t.records},
                {"records_truncated", t.records_truncated},
                {"summary", summary_json(sw, t.frames, 0)},
                {"table", table_json(sw)},
                {"own_frames_ignored", t.own_ignored},
                {"inject_errors", t.inject_errors}});
    netlib::app::print_json(doc);
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
  netlib::catch_stop_signals();
  const live_output out{o.json_lines, o.json, o.table, o.quiet};
  std::optional<std::chrono::milliseconds> duration;
  if (o.seconds > 0) duration = std::chrono::milliseconds(static_cast<std::int64_t>(o.seconds * 1000));
  const auto totals = run_live(sw, interfaces, out, duration, o.frames ? std::optional(o.frames) : std::nullopt, [&] {
    if (o.json) {  // stdout is for the one document printed at exit
      std::fputs((ready_text + "\n").c_str(), stderr);
      std::fflush(stderr);
      return;
    }
    std::puts(o.json_lines ? ready_json.dump().c_str() : ready_text.c_str());
    std::fflush(stdout);
  });
  print_summary(sw, totals, o, ready_json);
  return netlib::app::exit_ok;
}

// The ports of `run`: at least two distinct interfaces, none a loopback (lo carries this host's own
// traffic, both directions, and is no segment a switch could join).
void check_ports(const std::vector<std::string>& ports) {
  if (ports.size() < 2) {
    throw netlib::app::usage_error(
        fmt::format("a switch needs at least two ports (got {}): give --port IFACE for "
                    "each interface, e.g. --port veth1 --port veth2",
                    ports.size()));
  }
  for (std::size_t i = 0; i < ports.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (ports[i] == ports[j]) {
        throw netlib::app::usage_error(fmt::format("--port {} is given twice (ports {} and {})", ports[i], j, i));
      }
    }
    if (is_loopback(ports[i])) {
      throw netlib::app::usage_error(
          fmt::format("--port {}: a loopback interface cannot be a switch port (it "
                      "carries this host's own traffic); use veth or Ethernet interfaces",
                      ports[i]));
    }
  }
}

int run_switch(const live_options& o) {
  check_ports(o.ports);
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
  netlib::catch_stop_signals();
  topology topo(o.prefix, o.hosts);
  std::string text =
      fmt::format("ready: {} hosts on a live switch; try: ip netns exec {} ping {}", o.hosts, topo.hosts()[0].netns,
                  topo.hosts().size() > 1 ? topo.hosts()[1].ip : topo.hosts()[0].ip);
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
      "sudo lab-switch run --port veth1 --port veth2 --port veth3 --table\n"
      "  sudo lab-switch run --port veth1 --port veth2 --duration 30s --json > run.json",
      [run] { return run_switch(*run); });
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
