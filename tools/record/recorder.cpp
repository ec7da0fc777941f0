#include "recorder.hpp"

#include <chrono>

namespace netlab::record {

recorder::recorder(const netlib::capture::live_options& live, const std::string& output)
    : capture_(netlib::capture::live_capture::open(live)), writer_(netlib::capture::capture_writer::create(output)) {
  writer_.set_pcap_precision(netlib::capture::pcap_precision::nanoseconds);
  interface_id_ = writer_.add_interface(capture_.link(), live.interface, static_cast<std::uint32_t>(live.snaplen));
  writer_.flush();
  dropped_before_ = capture_.stats().dropped;
}

bool recorder::poll_once() {
  auto rec = capture_.next();
  if (!rec) return false;
  rec->interface_id = interface_id_;
  writer_.write(*rec);
  writer_.flush();
  return true;
}

void recorder::drain(std::uint64_t limit) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(1);
  while ((limit == 0 || packets() < limit) && std::chrono::steady_clock::now() < end) {
    if (!poll_once()) break;
  }
}

const char* recorder::format_name() const noexcept {
  return writer_.format() == netlib::capture::capture_format::pcap ? "pcap" : "pcapng";
}

}  // namespace netlab::record
