#pragma once
// Ordered-expectation scenarios for the learning switch: "frame in on port p at time t, expect it
// out on ports q.. with this decision", with a virtual clock for aging.
#include "netlib/core/clock.hpp"
#include "netlib/l2/frame_builder.hpp"
#include "netlib/l2/learning_switch.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

namespace netlab::test {

using namespace std::chrono_literals;
using netlib::l2::decision;
using netlib::l2::mac_address;
using netlib::l2::port_id;

inline mac_address mac(const char* text) {
  return *mac_address::parse(text);
}

// A plain frame from src to dst (type 0x88b5, local experimental; 46 bytes of payload).
inline std::vector<std::byte> frame(mac_address dst, mac_address src, std::optional<std::uint16_t> vid = {}) {
  std::vector<std::byte> payload(46, std::byte{0x5a});
  return netlib::l2::build_ethernet(dst, src, 0x88b5, payload, vid);
}

inline std::vector<port_id> ports_of(const netlib::l2::forwarding_decision& d) {
  std::vector<port_id> out;
  for (const auto& e : d.out) out.push_back(e.port);
  return out;
}

class switch_scenario {
 public:
  explicit switch_scenario(netlib::l2::switch_config config, std::vector<netlib::l2::port_config> ports = {})
      : switch_(config, std::move(ports)) {}
  explicit switch_scenario(std::size_t port_count) : switch_(config_for(port_count)) {}

  static netlib::l2::switch_config config_for(std::size_t port_count) {
    netlib::l2::switch_config c;
    c.port_count = port_count;
    return c;
  }

  switch_scenario& after(netlib::duration d) {
    clock_.advance(d);
    return *this;
  }
  // One step: the frame comes in on `in` now; the decision and the output ports must match.
  netlib::l2::forwarding_decision expect(port_id in, const std::vector<std::byte>& f, decision kind,
                                         std::vector<port_id> out) {
    ++step_;
    auto d = switch_.receive(in, f, clock_.now());
    EXPECT_EQ(d.kind, kind) << "step " << step_ << ": decision " << netlib::l2::to_string(d.kind);
    EXPECT_EQ(ports_of(d), out) << "step " << step_;
    return d;
  }
  netlib::l2::learning_switch& sw() { return switch_; }
  netlib::virtual_clock& clock() { return clock_; }

 private:
  netlib::l2::learning_switch switch_;
  netlib::virtual_clock clock_;
  int step_ = 0;
};

template <typename Event>
int count_events(const std::vector<netlib::l2::fdb_event>& events) {
  int n = 0;
  for (const auto& e : events) n += std::holds_alternative<Event>(e) ? 1 : 0;
  return n;
}

}  // namespace netlab::test
