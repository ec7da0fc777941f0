#pragma once
// The frames a replay feeds the switch: from pcapng files whose interface ids are port numbers,
// or from per-port files (--port 1=b.pcap), merged by timestamp (ties: the order the files were
// given, then file order). Frames are views into the readers' buffers, never copied.
#include "netlib/capture/capture_reader.hpp"
#include "netlib/l2/switch_config.hpp"

#include <optional>
#include <string>
#include <vector>

namespace netlab::lab_switch {

struct input_frame {
  netlib::time_point ts;
  netlib::l2::port_id port = 0;
  netlib::packet::link_type link = netlib::packet::link_type::ethernet;
  netlib::byte_view data;  // into the reader's buffer: valid until the next call to next()
};

struct port_file {
  netlib::l2::port_id port = 0;
  std::string path;
};

class frame_source {
 public:
  // Opens every file and reads its first packet. Throws netlib::capture::capture_error.
  frame_source(const std::vector<std::string>& interface_files, const std::vector<port_file>& port_files);

  // The next frame by time; its bytes are not copied (see input_frame::data).
  std::optional<input_frame> next();
  // Ports the inputs declare: interfaces of each pcapng seen before its first packet, and the
  // ports named by --port.
  [[nodiscard]] std::size_t port_count() const noexcept { return port_count_; }
  [[nodiscard]] std::uint64_t truncated_records() const;

 private:
  struct source {
    netlib::capture::capture_reader reader;
    std::optional<netlib::l2::port_id> port;  // all packets go to this port
    std::optional<input_frame> head;
  };
  void advance(source& s);
  static netlib::l2::port_id port_of(const source& s, const netlib::capture::packet_record& rec);

  std::vector<source> sources_;
  source* returned_ = nullptr;  // its head was the last frame returned: advanced on the next call
                                // (one source: set once its first frame was returned)
  std::size_t port_count_ = 0;
};

}  // namespace netlab::lab_switch
