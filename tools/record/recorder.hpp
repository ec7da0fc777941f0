#pragma once
// One live recording: an interface (libpcap) written packet by packet to a pcap/pcapng file that
// is flushed after every packet, so the file is complete whenever the recording stops.
#include <cstdint>
#include <string>

#include "netlib/capture/capture_writer.hpp"
#include "netlib/capture/live_capture.hpp"

namespace netlab::record {

// The kernel ring buffer netlab-record asks for: with libpcap's 2 MB default, immediate mode on lo
// (64 KiB MTU) leaves room for ~30 packets, and a busy machine drops packets of a short burst.
inline constexpr int record_buffer_bytes = 32 * 1024 * 1024;

class recorder {
 public:
  recorder(const netlib::capture::live_options& live, const std::string& output);

  // Waits for at most one poll timeout (live_options::timeout) and writes what came; returns
  // whether a packet was written.
  bool poll_once();
  // Packets already captured when the recording is asked to stop still go to the file: reads
  // until the interface is quiet for one poll timeout, at most one second, at most `limit`
  // packets in total (0: no limit).
  void drain(std::uint64_t limit = 0);

  [[nodiscard]] std::uint64_t packets() const noexcept { return writer_.packets_written(); }
  // Packets the kernel dropped since the filter was set (drops of unfiltered traffic before
  // then do not count).
  [[nodiscard]] std::uint64_t dropped() const { return capture_.stats().dropped - dropped_before_; }
  [[nodiscard]] const char* format_name() const noexcept;

 private:
  netlib::capture::live_capture capture_;
  netlib::capture::capture_writer writer_;
  std::uint32_t interface_id_ = 0;
  std::uint64_t dropped_before_ = 0;
};

}  // namespace netlab::record
