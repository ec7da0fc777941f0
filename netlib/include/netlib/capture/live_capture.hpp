#pragma once
// Live capture and frame injection on a network interface (libpcap).
//
//   auto cap = netlib::capture::live_capture::open({.interface = "lo", .filter = "tcp port 8080"});
//   while (running) if (auto rec = cap.next()) writer.write(*rec);   // next() waits <= timeout
//
// Needs CAP_NET_RAW (root). Errors (no such interface, permission, bad filter) are capture_error
// with libpcap's one-line message.
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "netlib/capture/packet_record.hpp"

namespace netlib::capture {

struct live_options {
  std::string interface {};
  std::string filter{};  // BPF expression; empty: everything
  int snaplen = 262144;
  bool promiscuous = false;
  std::chrono::milliseconds timeout{100};  // longest wait inside next()
  int buffer_bytes = 0;                    // kernel ring buffer; 0: libpcap's default (2 MB, which in
                                           // immediate mode on lo holds only ~30 packets)
  bool inbound_only = false;               // only frames the interface received, not those this host
                                           // sent out of it (pcap_setdirection(PCAP_D_IN); no BPF filter,
                                           // so nothing captured before it is flushed)
};

struct live_stats {
  std::uint64_t received = 0;  // by the filter
  std::uint64_t dropped = 0;   // by the kernel (buffer full)
};

class live_capture {
 public:
  static live_capture open(const live_options& options);
  live_capture(live_capture&&) noexcept;
  live_capture& operator=(live_capture&&) noexcept;
  ~live_capture();

  // The next packet, or nullopt when the timeout passed without one. The data is valid until the
  // next call.
  std::optional<packet_record> next();
  // Sends a whole frame (link-layer header included) out of the interface.
  void inject(byte_view frame);

  [[nodiscard]] packet::link_type link() const noexcept { return link_; }
  [[nodiscard]] const std::string& interface_name() const noexcept { return interface_; }
  [[nodiscard]] live_stats stats() const;
  // False when inbound_only was asked for and the platform could not filter by direction: the
  // capture then sees both directions.
  [[nodiscard]] bool inbound_only() const noexcept { return inbound_only_; }

 private:
  struct handle;
  live_capture(std::unique_ptr<handle> h, packet::link_type link, std::string interface);
  std::unique_ptr<handle> handle_;
  packet::link_type link_;
  std::string interface_;
  bool inbound_only_ = false;
};

}  // namespace netlib::capture
