// Theory of operation: one `tc -n NS -batch -` per namespace with every one of its arcs' qdisc,
// classes, leaf queues and filters. HTB class 1:1 is the link; 1:2 takes whatever no filter
// claims; flows get 1:3 upwards (tc writes minor numbers in hex). Rewriting (a second step with
// other paths) deletes the old root qdisc first, which takes its classes and filters with it.
#include "link_shaping.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <sstream>
#include <stdexcept>

#include "netlib/app/netns.hpp"
#include "netlib/app/process.hpp"
#include "netlib/app/program.hpp"
#include "netlib/core/units.hpp"

namespace netlab::lab_dc {
namespace {

namespace dc = netlib::dc;

constexpr std::size_t leaf_queue_bytes = 512000;
constexpr std::size_t quantum_bytes = 3028;  // two full frames per round

void tc_batch(const std::string& tc, const std::string& ns, const std::string& commands, bool verbose, bool may_fail) {
  if (verbose) {
    std::istringstream in(commands);
    for (std::string line; std::getline(in, line);) std::cerr << "+ tc -n " << ns << " " << line << '\n';
  }
  std::vector<std::string> argv{tc, "-n", ns};
  if (may_fail) argv.push_back("-force");
  argv.insert(argv.end(), {"-batch", "-"});
  const auto r = netlib::app::run(argv, commands, std::chrono::seconds(60));
  if (r.exit_code != 0 && !may_fail) {
    const auto first = r.err.substr(0, r.err.find('\n'));
    throw netlib::app::failure(
        fmt::format("tc -n {} -batch failed: {}", ns, first.empty() ? "exit " + std::to_string(r.exit_code) : first));
  }
}

}  // namespace

std::string describe_capacity(const dc::topology& t, double scale, queue_kind queues) {
  if (scale <= 0) return "not limited (--scale off): the veths go as fast as the CPUs move packets";
  std::vector<double> rates;
  for (const auto& l : t.links()) {
    if (std::find(rates.begin(), rates.end(), l.capacity_bps) == rates.end()) rates.push_back(l.capacity_bps);
  }
  std::sort(rates.begin(), rates.end());
  std::string list;
  for (std::size_t i = 0; i < rates.size() && i < 4; ++i) {
    list += fmt::format("{}{} links run at {}", i ? ", " : "", netlib::units::format_bps(rates[i]),
                        netlib::units::format_bps(rates[i] * scale));
  }
  const double inverse = 1 / scale;
  const auto scale_text = std::abs(inverse - std::round(inverse)) < 1e-9 * inverse ? fmt::format("1/{:.0f}", inverse)
                                                                                   : fmt::format("{:g}", scale);
  return fmt::format(
      "{} (scale {}): an HTB qdisc on every veth end; {}", list, scale_text,
      queues == queue_kind::fair ? "fair queues (one class per flow, served round robin)" : "one FIFO queue per link");
}

std::string tc_rate(double bps) {
  return fmt::format("{}bit", std::max<long long>(8, std::llround(bps)));
}

double parse_scale(const std::string& text) {
  if (text == "off" || text == "0") return 0;
  double v = 0;
  const auto slash = text.find('/');
  try {
    if (slash != std::string::npos) {
      std::size_t used = 0;
      const double a = std::stod(text.substr(0, slash), &used);
      if (used != slash) throw std::invalid_argument("");
      const auto rest = text.substr(slash + 1);
      const double b = std::stod(rest, &used);
      if (used != rest.size() || !(b > 0)) throw std::invalid_argument("");
      v = a / b;
    } else {
      v = netlib::units::parse_fraction(text);
    }
  } catch (const std::exception&) {
    throw std::invalid_argument(fmt::format("'{}': use a fraction such as 1/100, 0.01 or 1%, or off", text));
  }
  if (!(v > 0) || v > 1)
    throw std::invalid_argument(fmt::format("'{}': the scale is above 0 and at most 1 (or off)", text));
  return v;
}

void shape_links(const netns_fabric& fabric, const dc::topology& t, double scale, queue_kind queues,
                 std::span<const dc::flow_key> keys, const dc::path_list& paths, bool replace, bool verbose) {
  const auto tc = netlib::app::netns_set::find_tool("tc");
  if (tc.empty()) throw netlib::app::failure("tc is needed to give the links their rates: apt-get install iproute2");
  std::vector<std::vector<std::size_t>> on(t.arc_count());
  if (queues == queue_kind::fair) {
    for (std::size_t f = 0; f < paths.size() && f < keys.size(); ++f) {
      for (dc::arc_id a : paths[f]) on[a].push_back(f);
    }
  }
  for (dc::node_id v = 0; v < t.nodes().size(); ++v) {
    if (t.out_arcs(v).empty()) continue;
    std::string cmds, removal;
    for (dc::arc_id a : t.out_arcs(v)) {
      const auto dev = fabric.ifname(a);
      const double rate = t.capacity(a) * scale;
      removal += fmt::format("qdisc del dev {} root\n", dev);
      if (on[a].size() + 3 > 0xffff) {
        throw netlib::app::usage_error(
            fmt::format("{} carries {} flows; fair queues take at most 65532 per link (use --queue fifo)",
                        t.arc_name(a), on[a].size()));
      }
      const std::size_t classes = on[a].size() + 1;
      const auto share = tc_rate(rate / static_cast<double>(classes));
      cmds += fmt::format("qdisc add dev {} root handle 1: htb default 2\n", dev);
      cmds += fmt::format("class add dev {} parent 1: classid 1:1 htb rate {} ceil {} quantum {}\n", dev, tc_rate(rate),
                          tc_rate(rate), quantum_bytes);
      const auto leaf = [&](std::size_t minor) {
        cmds += fmt::format("class add dev {} parent 1:1 classid 1:{:x} htb rate {} ceil {} quantum {} prio 0\n", dev,
                            minor, share, tc_rate(rate), quantum_bytes);
        cmds += fmt::format("qdisc add dev {} parent 1:{:x} bfifo limit {}\n", dev, minor, leaf_queue_bytes);
      };
      leaf(2);
      for (std::size_t i = 0; i < on[a].size(); ++i) {
        const auto& k = keys[on[a][i]];
        leaf(i + 3);
        cmds += fmt::format(
            "filter add dev {} parent 1: protocol ip prio 1 u32 match ip src {}/32 match ip dst {}/32 match "
            "ip protocol {} 0xff match ip sport {} 0xffff match ip dport {} 0xffff flowid 1:{:x}\n",
            dev, k.src.to_string(), k.dst.to_string(), k.protocol, k.src_port, k.dst_port, i + 3);
      }
    }
    if (replace) tc_batch(tc, fabric.ns(v), removal, verbose, true);
    tc_batch(tc, fabric.ns(v), cmds, verbose, false);
  }
}

}  // namespace netlab::lab_dc
