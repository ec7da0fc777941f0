#pragma once
// Which links each flow's packets really took, as the kernel forwarded them (lab-dc run --fail,
// docs/labs/datacenter.md step 16): one packet socket (AF_PACKET) per link between two switches,
// bound to the veth at the link's first end inside that switch's namespace; a frame that end sent
// (PACKET_OUTGOING) went a->b, one it received went b->a. Every frame carries the kernel's time
// stamp of when it passed (SO_TIMESTAMPNS), so a moment splits each flow's link directions into
// those it used before and those it used after. Per flow and direction the capture keeps packets,
// frame bytes, and the first and last stamp; nothing per packet. Host links are not watched (a
// host's flows cross its one link whatever the routing).
#include <array>
#include <cstdint>
#include <map>
#include <span>
#include <vector>

#include "netlib/dc/ecmp.hpp"
#include "netlib/dc/topology.hpp"
#include "netlib/io/unique_fd.hpp"
#include "netns_fabric.hpp"

namespace netlab::lab_dc {

class flow_capture {
 public:
  struct use {
    netlib::dc::arc_id arc = 0;
    std::uint64_t packets = 0, bytes = 0;  // bytes: Ethernet frames, as the interfaces count them
    std::int64_t first_ns = 0, last_ns = 0;
  };

  // Opens the sockets (they see frames from then on); throws failure naming what failed.
  flow_capture(const netns_fabric& fabric, const netlib::dc::topology& t, std::span<const netlib::dc::flow> flows);

  // Reads every frame queued now; never blocks.
  void drain();
  // The kernel's clock of the stamps (CLOCK_REALTIME), in ns.
  [[nodiscard]] static std::int64_t now_ns();

  [[nodiscard]] const std::vector<use>& uses(std::size_t flow) const { return uses_[flow]; }
  // The directions between switches flow `flow` used before `t_ns` / after `t_ns`, in arc order.
  [[nodiscard]] std::vector<netlib::dc::arc_id> used_before(std::size_t flow, std::int64_t t_ns) const;
  [[nodiscard]] std::vector<netlib::dc::arc_id> used_after(std::size_t flow, std::int64_t t_ns) const;
  // Frames the sockets could not keep (their buffers were full): the capture is then incomplete.
  [[nodiscard]] std::uint64_t dropped();
  [[nodiscard]] std::uint64_t frames() const noexcept { return frames_; }

 private:
  struct tap {
    netlib::io::unique_fd fd;
    netlib::dc::link_id link = 0;
  };
  using key = std::array<std::uint8_t, 13>;  // source, destination, protocol, ports
  std::vector<tap> taps_;
  std::map<key, std::size_t> index_;
  std::vector<std::vector<use>> uses_;
  std::uint64_t frames_ = 0, dropped_ = 0;
};

}  // namespace netlab::lab_dc
