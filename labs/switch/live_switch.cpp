// Theory of operation: capture threads (one per port) only read their own pcap handle and push
// copies of frames into a bounded queue; the main thread owns the switch core, the transmit
// guard and the injection handles (a second pcap handle per port), so no handle is shared between
// threads. Time given to the core is the steady clock at dequeue. The loop wakes at least every
// 100 ms to age the table and check the stop flag; every wait is bounded.
#include "live_switch.hpp"

#include "report.hpp"

#include "netlib/app/program.hpp"
#include "netlib/capture/live_capture.hpp"
#include "netlib/core/stop_signals.hpp"
#include "netlib/l2/transmit_guard.hpp"

#include <fmt/format.h>

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <mutex>
#include <thread>

namespace netlab::lab_switch {

namespace l2 = netlib::l2;
using namespace std::chrono_literals;

namespace {

struct captured {
  l2::port_id port;
  std::vector<std::byte> bytes;
  std::string failure;  // non-empty: the port's capture failed (interface gone or down)
};

class frame_queue {
 public:
  void push(captured c) {
    {
      std::lock_guard lock(mutex_);
      if (queue_.size() >= max_) return;  // bounded: drop when the decider falls behind
      queue_.push_back(std::move(c));
    }
    cv_.notify_one();
  }
  std::optional<captured> pop(std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex_);
    if (!cv_.wait_for(lock, timeout, [&] { return !queue_.empty(); })) return std::nullopt;
    captured c = std::move(queue_.front());
    queue_.pop_front();
    return c;
  }

 private:
  static constexpr std::size_t max_ = 65536;
  std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<captured> queue_;
};

// The receive handle of a port takes only frames that arrived on it (pcap_setdirection, not an
// "inbound" BPF filter, whose installation flushes what was captured before it: it lost the first
// frame of a port on veth interfaces). Frames this host sends out of the interface (IPv6 router
// solicitations, our own injections) are not received frames: a switch port never sees them.
// Where the platform cannot filter by direction, the transmit guard still recognises our own.
netlib::capture::live_capture open_port(const std::string& iface, bool inbound_only) {
  netlib::capture::live_options o;
  o.interface = iface;
  o.promiscuous = true;
  o.timeout = 50ms;
  o.inbound_only = inbound_only;
  return netlib::capture::live_capture::open(o);
}

struct live_state {
  l2::learning_switch& sw;
  const live_output& out;
  std::vector<netlib::capture::live_capture>& tx;
  l2::transmit_guard guard;
  live_totals totals;
  netlib::time_point start;
};

// A JSON record: printed at once (--json-lines) or kept for the document printed at exit (--json).
void emit_json(live_state& st, const nlohmann::json& j) {
  if (st.out.json_lines) {
    std::puts(netlib::app::tidy_numbers(j).dump().c_str());
    std::fflush(stdout);
  } else if (st.totals.records.size() < max_records) {
    st.totals.records.push_back(j);
  } else {
    st.totals.records_truncated = true;
  }
}

void print_events(live_state& st, const std::vector<l2::fdb_event>& events, netlib::time_point now) {
  if (st.out.quiet) return;
  const bool aware = st.sw.config().vlan_aware;
  for (const auto& e : events) {
    if (st.out.json || st.out.json_lines) {
      auto j = event_json(e, aware);
      j["time_s"] = netlib::to_seconds(now - st.start);
      emit_json(st, j);
    } else {
      std::puts(format_event(netlib::to_seconds(now - st.start), e, aware).c_str());
    }
  }
  std::fflush(stdout);
}

// A port whose capture failed is down: its entries are flushed and it takes no further part.
void handle_port_failure(live_state& st, const captured& c) {
  const auto now = netlib::from_steady(std::chrono::steady_clock::now());
  fmt::print(stderr, "lab-switch: port {} is down: {}\n", c.port, c.failure);
  if (!st.out.quiet) {
    if (st.out.json || st.out.json_lines) {
      emit_json(st, {{"event", "port_down"},
                     {"port", c.port},
                     {"time_s", netlib::to_seconds(now - st.start)},
                     {"reason", c.failure}});
    } else {
      std::puts(fmt::format("   {:.6f} port {} down", netlib::to_seconds(now - st.start), c.port).c_str());
    }
  }
  print_events(st, st.sw.set_port_up(c.port, false), now);
}

void handle_frame(live_state& st, const captured& c) {
  if (!c.failure.empty()) {
    handle_port_failure(st, c);
    return;
  }
  const auto now = netlib::from_steady(std::chrono::steady_clock::now());
  if (st.guard.is_own(c.port, c.bytes, now)) {
    ++st.totals.own_ignored;  // never relearned, never re-forwarded
    return;
  }
  const auto d = st.sw.receive(c.port, c.bytes, now);
  ++st.totals.frames;
  for (const auto& e : d.out) {
    const auto bytes = d.header ? l2::egress_frame(c.bytes, *d.header, e) : c.bytes;
    st.guard.sent(e.port, bytes, now);
    try {
      st.tx[e.port].inject(bytes);
    } catch (const netlib::capture::capture_error& err) {
      ++st.totals.inject_errors;
      fmt::print(stderr, "lab-switch: {}\n", err.what());
    }
  }
  if (st.out.quiet) return;
  frame_report r{st.totals.frames, netlib::to_seconds(now - st.start), c.port, &d, {}};
  if (st.out.json || st.out.json_lines) {
    emit_json(st, frame_json(r, st.sw.config().vlan_aware));
    return;
  } else {
    std::puts(format_frame(r).c_str());
    for (const auto& e : d.events) std::puts(format_event(r.time_s, e, st.sw.config().vlan_aware).c_str());
  }
  std::fflush(stdout);
}

std::size_t ports_down(const l2::learning_switch& sw) {
  std::size_t n = 0;
  for (std::size_t p = 0; p < sw.config().port_count; ++p) n += sw.port_up(static_cast<l2::port_id>(p)) ? 0 : 1;
  return n;
}

}  // namespace

live_totals run_live(l2::learning_switch& sw, const std::vector<std::string>& interfaces, const live_output& out,
                     std::optional<std::chrono::milliseconds> duration, std::optional<std::uint64_t> frames,
                     const std::function<void()>& on_ready) {
  std::vector<netlib::capture::live_capture> rx;
  std::vector<netlib::capture::live_capture> tx;
  for (const auto& iface : interfaces) {
    rx.push_back(open_port(iface, true));
    tx.push_back(open_port(iface, false));
    if (!rx.back().inbound_only()) {
      fmt::print(stderr,
                 "lab-switch: {}: cannot capture inbound frames only; frames this host sends out of it "
                 "will be switched too\n",
                 iface);
    }
    if (rx.back().link() != netlib::packet::link_type::ethernet) {
      throw netlib::app::failure(fmt::format("{} is not an Ethernet interface", iface));
    }
  }
  frame_queue queue;
  std::atomic<bool> done{false};
  std::vector<std::thread> threads;
  for (std::size_t p = 0; p < rx.size(); ++p) {
    threads.emplace_back([&, p] {
      while (!done.load()) {
        try {
          if (auto rec = rx[p].next())
            queue.push({static_cast<l2::port_id>(p), {rec->data.begin(), rec->data.end()}, {}});
        } catch (const std::exception& e) {
          queue.push({static_cast<l2::port_id>(p), {}, e.what()});  // the port is down; the others go on
          return;
        }
      }
    });
  }
  live_state st{sw, out, tx, l2::transmit_guard{}, {}, netlib::from_steady(std::chrono::steady_clock::now())};
  on_ready();
  const auto deadline = std::chrono::steady_clock::now() + duration.value_or(std::chrono::hours(24 * 365));
  while (!netlib::stop_requested() && std::chrono::steady_clock::now() < deadline &&
         (!frames || st.totals.frames < *frames)) {
    if (auto c = queue.pop(100ms)) handle_frame(st, *c);
    if (ports_down(sw) == rx.size()) break;  // nothing left to switch
    const auto now = netlib::from_steady(std::chrono::steady_clock::now());
    print_events(st, sw.tick(now), now);
  }
  done.store(true);
  for (auto& t : threads) t.join();
  return st.totals;
}

}  // namespace netlab::lab_switch
