// lab-switch replay: feed recorded ports to the switch core and report every decision.
#include "commands.hpp"
#include "frame_source.hpp"
#include "report.hpp"
#include "switch_options.hpp"

#include "netlib/app/program.hpp"
#include "netlib/capture/capture_writer.hpp"
#include "netlib/core/units.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <memory>

namespace netlab::lab_switch {

namespace l2 = netlib::l2;
using netlib::app::usage_error;

namespace {

struct replay_options {
  std::vector<std::string> inputs;
  std::vector<std::string> port_files;  // N=FILE
  switch_options sw;
  bool table = false;
  bool summary = false;
  bool json = false;
  std::string write_out;
  std::vector<std::string> port_down;  // PORT@SECONDS
  std::vector<std::string> port_up;
};

// A port going down or up at a time since the first frame (--port-down 1@5).
struct port_change {
  double at_s = 0;
  l2::port_id port = 0;
  bool up = false;
};

std::vector<port_change> parse_port_changes(const replay_options& o) {
  std::vector<port_change> out;
  const auto parse = [&](const std::string& spec, bool up) {
    const auto at = spec.find('@');
    const auto bad = [&] {
      return usage_error(
          fmt::format("--port-{} '{}': expected PORT@TIME, e.g. 1@5s or 1@500ms", up ? "up" : "down", spec));
    };
    if (at == std::string::npos) throw bad();
    unsigned port = 0;
    double seconds = 0;
    auto [p, ec] = std::from_chars(spec.data(), spec.data() + at, port);
    if (ec != std::errc{} || p != spec.data() + at || port > 4095) throw bad();
    try {
      seconds = netlib::units::parse_duration_s(std::string_view(spec).substr(at + 1));
    } catch (const netlib::units::unit_error&) {
      throw bad();
    }
    out.push_back(port_change{seconds, static_cast<l2::port_id>(port), up});
  };
  for (const auto& spec : o.port_down) parse(spec, false);
  for (const auto& spec : o.port_up) parse(spec, true);
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.at_s < b.at_s; });
  return out;
}

std::vector<port_file> parse_port_files(const std::vector<std::string>& specs) {
  std::vector<port_file> out;
  for (const auto& spec : specs) {
    const auto eq = spec.find('=');
    unsigned port = 0;
    const char* end = spec.data() + (eq == std::string::npos ? 0 : eq);
    auto [p, ec] = std::from_chars(spec.data(), end, port);
    if (eq == std::string::npos || ec != std::errc{} || p != end || port > 4095 || eq + 1 == spec.size()) {
      throw usage_error(fmt::format("--port '{}': expected PORT=FILE, e.g. --port 0=a.pcap", spec));
    }
    for (const auto& earlier : out) {
      if (earlier.port == port) {
        throw usage_error(
            fmt::format("--port {} is given twice ({}={} and {}): one file per port; merge the "
                        "files first (mergecap) or give the second another port",
                        port, port, earlier.path, spec));
      }
    }
    out.push_back(port_file{static_cast<l2::port_id>(port), spec.substr(eq + 1)});
    netlib::app::require_input_file("--port " + spec.substr(0, eq), out.back().path);
  }
  return out;
}

// One pcap per port with what the switch sends there (--write-out DIR).
class port_writers {
 public:
  port_writers(const std::string& dir, std::size_t ports) {
    if (dir.empty()) return;
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) throw netlib::app::failure(fmt::format("--write-out {}: {}", dir, ec.message()));
    for (std::size_t p = 0; p < ports; ++p) {
      writers_.push_back(std::make_unique<netlib::capture::capture_writer>(
          netlib::capture::capture_writer::create(std::filesystem::path(dir) / fmt::format("port{}.pcap", p))));
      writers_.back()->set_pcap_precision(netlib::capture::pcap_precision::nanoseconds);
      writers_.back()->add_interface(netlib::packet::link_type::ethernet, fmt::format("port{}", p));
    }
  }
  void write(const input_frame& f, const l2::forwarding_decision& d) {
    if (writers_.empty() || !d.header) [[likely]]
      return;
    for (const auto& e : d.out) writers_[e.port]->write(0, f.ts, l2::egress_frame(f.data, *d.header, e));
  }

 private:
  std::vector<std::unique_ptr<netlib::capture::capture_writer>> writers_;
};

// One replay: feeds frames in time order, reports each as text or JSON, totals at the end.
class replay_run {
 public:
  replay_run(const replay_options& o, frame_source& source)
      : o_(o),
        sw_(make_switch(o.sw, source.port_count())),
        writers_(o.write_out, sw_.config().port_count),
        changes_(parse_port_changes(o)) {
    for (const auto& c : changes_) {
      if (c.port >= sw_.config().port_count)
        throw usage_error(fmt::format("--port-{}: no port {}", c.up ? "up" : "down", c.port));
    }
  }

  void feed(const input_frame& f) {
    ++count_;
    if (!first_) first_ = f.ts;
    age_until(f.ts);
    if (next_change_ < changes_.size()) apply_port_changes(since_first(f.ts));
    l2::forwarding_decision& d = decision_;  // reused: no allocation per frame
    if (o_.summary && f.link == netlib::packet::link_type::ethernet && f.port < sw_.config().port_count) {
      sw_.receive(f.port, f.data, f.ts, d);  // --summary: only the counters, no report of the frame
      writers_.write(f, d);
      if (progress_ && count_ % 100000 == 0) fmt::print(stderr, "\r{} frames", count_);
      return;
    }
    frame_report r{count_, since_first(f.ts), f.port, nullptr, {}};
    d.clear();
    if (f.link != netlib::packet::link_type::ethernet) {
      r.skipped = fmt::format("link type {} is not Ethernet", static_cast<int>(f.link));
    } else if (f.port >= sw_.config().port_count) {
      r.skipped = fmt::format("no port {}", f.port);
    } else {
      sw_.receive(f.port, f.data, f.ts, d);
      r.decision = &d;
      writers_.write(f, d);
    }
    skipped_ += r.skipped.empty() ? 0 : 1;
    if (progress_ && count_ % 100000 == 0) fmt::print(stderr, "\r{} frames", count_);
    if (!o_.summary) report(r, d);
  }

  int finish() {
    if (progress_ && count_ >= 100000) fmt::print(stderr, "\r{} frames\n", count_);
    if (o_.json) {
      nlohmann::json doc;
      if (!o_.summary) doc["frames"] = std::move(frames_);
      if (!o_.summary || o_.table) doc["table"] = table_json(sw_);
      doc["summary"] = summary_json(sw_, count_, skipped_);
      netlib::app::print_json(doc);
      return netlib::app::exit_ok;
    }
    if (o_.summary) {
      std::fputs(format_summary(sw_, count_, skipped_).c_str(), stdout);
      std::fputs(format_port_counters(sw_).c_str(), stdout);
    }
    if (o_.table) std::fputs(format_table(sw_).c_str(), stdout);
    return netlib::app::exit_ok;
  }

 private:
  [[nodiscard]] double since_first(netlib::time_point t) const { return netlib::to_seconds(t - *first_); }

  // Age events at the moment they fall due, not at the next frame.
  void age_until(netlib::time_point t) {
    if (!sw_.table().may_expire_by(t)) return;  // the usual case: next_expiry() is later than t
    const bool aware = sw_.config().vlan_aware;
    for (auto due = sw_.table().next_expiry(); due && *due <= t; due = sw_.table().next_expiry()) {
      for (const auto& e : sw_.tick(*due)) {
        if (o_.summary) continue;
        if (o_.json) {
          aging_events_.push_back(event_json(e, aware));
          aging_events_.back()["time_s"] = since_first(*due);
        } else {
          std::fputs((format_event(since_first(*due), e, aware) + '\n').c_str(), stdout);
        }
      }
    }
  }

  // Port changes due by `t_s` (seconds since the first frame): a port going down flushes its entries.
  void apply_port_changes(double t_s) {
    const bool aware = sw_.config().vlan_aware;
    for (; next_change_ < changes_.size() && changes_[next_change_].at_s <= t_s; ++next_change_) {
      const auto& c = changes_[next_change_];
      const auto events = sw_.set_port_up(c.port, c.up);
      if (o_.summary) continue;
      nlohmann::json j{{"event", c.up ? "port_up" : "port_down"}, {"port", c.port}, {"time_s", c.at_s}};
      if (o_.json) {
        aging_events_.push_back(j);
      } else {
        std::fputs(fmt::format("   {:.6f} port {} {}\n", c.at_s, c.port, c.up ? "up" : "down").c_str(), stdout);
      }
      for (const auto& e : events) {
        if (o_.json) {
          aging_events_.push_back(event_json(e, aware));
          aging_events_.back()["time_s"] = c.at_s;
        } else {
          std::fputs((format_event(c.at_s, e, aware) + '\n').c_str(), stdout);
        }
      }
    }
  }

  void report(const frame_report& r, const l2::forwarding_decision& d) {
    const bool aware = sw_.config().vlan_aware;
    if (o_.json) {
      frames_.push_back(frame_json(r, aware));
      if (!aging_events_.empty()) {  // aged before this frame arrived: listed first
        nlohmann::json events(aging_events_);
        for (auto& e : frames_.back()["events"]) events.push_back(std::move(e));
        frames_.back()["events"] = std::move(events);
        aging_events_.clear();
      }
      return;
    }
    std::string text;
    for (const auto& e : d.events) {
      if (std::holds_alternative<l2::aged>(e)) text += format_event(r.time_s, e, aware) + '\n';
    }
    text += format_frame(r) + '\n';
    for (const auto& e : d.events) {
      if (!std::holds_alternative<l2::aged>(e)) text += format_event(r.time_s, e, aware) + '\n';
    }
    std::fputs(text.c_str(), stdout);
  }

  const replay_options& o_;
  l2::learning_switch sw_;
  l2::forwarding_decision decision_;  // of the current frame
  port_writers writers_;
  nlohmann::json frames_ = nlohmann::json::array();
  std::vector<nlohmann::json> aging_events_;  // events before the next frame (aging, port changes)
  std::vector<port_change> changes_;
  std::size_t next_change_ = 0;
  std::uint64_t count_ = 0;
  std::uint64_t skipped_ = 0;
  std::optional<netlib::time_point> first_;
  bool progress_ = netlib::app::stderr_is_terminal();
};

int run_replay(const replay_options& o) {
  if (o.inputs.empty() && o.port_files.empty()) throw usage_error("give a capture file or --port N=FILE");
  frame_source source(o.inputs, parse_port_files(o.port_files));
  replay_run replay(o, source);
  while (auto f = source.next()) replay.feed(*f);
  if (source.truncated_records() > 0) {
    fmt::print(stderr, "lab-switch: the last packet of a capture was cut short and skipped\n");
  }
  return replay.finish();
}

}  // namespace

void add_replay_command(CLI::App& app) {
  auto opts = std::make_shared<replay_options>();
  auto* cmd = netlib::app::add_command(
      app, "replay", "Replay recorded ports through the learning switch: one line per frame and table event",
      "lab-switch replay captures/switch/four_hosts.pcapng --table\n"
      "  lab-switch replay --port 0=a.pcap --port 1=b.pcap --aging 10s --json",
      [opts] { return run_replay(*opts); });
  cmd->add_option("inputs", opts->inputs, "pcapng (or pcap) files whose interface ids are the switch's ports")
      ->check(netlib::app::input_file());
  cmd->add_option("--port", opts->port_files, "PORT=FILE: every frame of FILE arrives on PORT (repeatable)");
  add_switch_options(*cmd, opts->sw);
  cmd->add_flag("--table", opts->table, "Print the final table like 'bridge fdb show' (MAC, port, VLAN, age, static)");
  cmd->add_flag("--summary", opts->summary, "Print only the totals (for large captures)");
  cmd->add_option("--write-out", opts->write_out, "Write DIR/portN.pcap with the frames the switch sends to each port");
  cmd->add_option("--port-down", opts->port_down,
                  "PORT@TIME: the port goes down that long after the first frame (1@5s; flushes its entries)");
  cmd->add_option("--port-up", opts->port_up, "PORT@TIME: the port comes back up (1@9s)");
  netlib::app::add_json_flag(*cmd, opts->json);
}

}  // namespace netlab::lab_switch
