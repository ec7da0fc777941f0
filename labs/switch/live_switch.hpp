#pragma once
// The live driver of the switch core: one libpcap capture thread per port feeding a queue, and the
// main thread deciding and injecting. Each port captures inbound frames only (what arrives on the
// interface, not what this host sends out of it); its own transmissions are never relearned or
// re-forwarded, and where a platform cannot capture by direction, the transmit_guard recognises them.
#include "netlib/l2/learning_switch.hpp"

#include <nlohmann/json.hpp>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace netlab::lab_switch {

struct live_output {
  bool json_lines = false;  // --json-lines: one JSON object per line, as it happens
  bool json = false;        // --json: frames and events collected for one document at exit
  bool table = false;       // print the table at the end
  bool quiet = false;       // no per-frame lines (or collected frames)
};

struct live_totals {
  std::uint64_t frames = 0;
  std::uint64_t own_ignored = 0;  // our own transmissions handed back by a capture
  std::uint64_t inject_errors = 0;
  nlohmann::json records = nlohmann::json::array();  // --json: frames and events, in order
  bool records_truncated = false;                    // more than max_records happened
};

inline constexpr std::size_t max_records = 100000;

// Runs the switch on `interfaces` (port i = interfaces[i]) until a signal, `duration` or `frames`
// frames. `on_ready` runs once every capture is open. Throws netlib::capture::capture_error.
live_totals run_live(netlib::l2::learning_switch& sw, const std::vector<std::string>& interfaces,
                     const live_output& out, std::optional<std::chrono::milliseconds> duration,
                     std::optional<std::uint64_t> frames, const std::function<void()>& on_ready);

}  // namespace netlab::lab_switch
