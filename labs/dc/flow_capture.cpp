// Theory of operation: each socket is opened inside its switch's namespace (netns_scope) with no
// protocol, so that it sees nothing until it is bound to its veth for every protocol (a socket
// bound to one protocol is handed only the frames that arrive, never those sent: those reach
// ETH_P_ALL sockets only); IPv4 frames are kept (SOCK_DGRAM: without their Ethernet header,
// which is added back to the byte count). drain()
// reads each socket until it would block, 96 bytes of each frame (MSG_TRUNC gives the length),
// takes the 5-tuple from the IPv4 header and the first four bytes after it, and adds the frame to
// its flow's entry for that direction. Frames of no flow (a TCP flow's acknowledgements, which
// run the other way) are counted in frames() only. The stamps and the clock are CLOCK_REALTIME.
// The sockets on the failed link stay open: its interfaces go down, not away.
#include "flow_capture.hpp"

#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <sys/socket.h>
#include <time.h>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "live_traffic.hpp"
#include "netlib/app/netns.hpp"
#include "netlib/packet/ipv4.hpp"

namespace netlab::lab_dc {
namespace {

namespace dc = netlib::dc;

constexpr std::size_t ethernet_header = 14;

}  // namespace

std::int64_t flow_capture::now_ns() {
  timespec ts{};
  ::clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

flow_capture::flow_capture(const netns_fabric& fabric, const dc::topology& t, std::span<const dc::flow> flows)
    : uses_(flows.size()) {
  for (std::size_t i = 0; i < flows.size(); ++i) {
    const auto& k = flows[i].key;
    key id{};
    std::memcpy(id.data(), k.src.octets.data(), 4);
    std::memcpy(id.data() + 4, k.dst.octets.data(), 4);
    id[8] = k.protocol;
    id[9] = static_cast<std::uint8_t>(k.src_port >> 8);
    id[10] = static_cast<std::uint8_t>(k.src_port & 0xff);
    id[11] = static_cast<std::uint8_t>(k.dst_port >> 8);
    id[12] = static_cast<std::uint8_t>(k.dst_port & 0xff);
    index_.emplace(id, i);
  }
  raise_file_limit(2 * flows.size() + t.links().size());
  for (dc::link_id l = 0; l < t.links().size(); ++l) {
    const auto& k = t.links()[l];
    if (t.is_host(k.a) || t.is_host(k.b)) continue;
    const auto name = fabric.ifname(2 * l);
    netlib::app::netns_scope in(fabric.ns(k.a));
    tap tp;
    tp.link = l;
    tp.fd = netlib::io::unique_fd(::socket(AF_PACKET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
    if (tp.fd.get() < 0) fail(fmt::format("packet socket in {}", fabric.ns(k.a)));
    const int buf = 8 << 20, one = 1;
    ::setsockopt(tp.fd.get(), SOL_SOCKET, SO_RCVBUFFORCE, &buf, sizeof buf);
    if (::setsockopt(tp.fd.get(), SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof one) != 0) fail("SO_TIMESTAMPNS");
    sockaddr_ll at{};
    at.sll_family = AF_PACKET;
    at.sll_protocol = htons(ETH_P_ALL);  // all: a socket of one protocol sees only what arrives
    at.sll_ifindex = static_cast<int>(::if_nametoindex(name.c_str()));
    if (at.sll_ifindex == 0) fail(fmt::format("{} in {}", name, fabric.ns(k.a)));
    if (::bind(tp.fd.get(), reinterpret_cast<const sockaddr*>(&at), sizeof at) != 0) {
      fail(fmt::format("bind a packet socket to {} in {}", name, fabric.ns(k.a)));
    }
    taps_.push_back(std::move(tp));
  }
}

void flow_capture::drain() {
  std::array<std::byte, 96> frame{};
  netlib::packet::ipv4_header ip;
  alignas(cmsghdr) std::array<char, CMSG_SPACE(sizeof(timespec))> control{};
  for (const auto& tp : taps_) {
    // A socket whose veth went down (the failed link) reports ENETDOWN once; what it had queued
    // is still read after it.
    int errors = 0;
    for (;;) {
      sockaddr_ll from{};
      iovec iov{frame.data(), frame.size()};
      msghdr msg{};
      msg.msg_name = &from;
      msg.msg_namelen = sizeof from;
      msg.msg_iov = &iov;
      msg.msg_iovlen = 1;
      msg.msg_control = control.data();
      msg.msg_controllen = control.size();
      const auto got = ::recvmsg(tp.fd.get(), &msg, MSG_TRUNC | MSG_DONTWAIT);
      if (got < 0) {
        if (errno == EINTR) continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) break;
        if (errno == ENETDOWN && ++errors <= 2) continue;
        fail("recvmsg on a packet socket");
      }
      ++frames_;
      std::int64_t stamp = now_ns();
      for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c != nullptr; c = CMSG_NXTHDR(&msg, c)) {
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPNS) {
          timespec ts{};
          std::memcpy(&ts, CMSG_DATA(c), sizeof ts);
          stamp = static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
        }
      }
      if (from.sll_protocol != htons(ETH_P_IP)) continue;
      const auto length = static_cast<std::size_t>(got);
      const std::size_t have = std::min(length, frame.size());
      // netlib's IPv4 decoder (a truncated frame keeps the payload bytes it holds); a later
      // fragment has no ports.
      if (netlib::packet::decode_ipv4_into(netlib::byte_view(frame.data(), have), ip) || ip.fragment_offset != 0 ||
          ip.payload.size() < 4) {
        continue;
      }
      key id{};
      std::memcpy(id.data(), ip.src.octets.data(), 4);
      std::memcpy(id.data() + 4, ip.dst.octets.data(), 4);
      id[8] = ip.protocol;
      std::memcpy(id.data() + 9, ip.payload.data(), 4);
      const auto it = index_.find(id);
      if (it == index_.end()) continue;
      const dc::arc_id arc = from.sll_pkttype == PACKET_OUTGOING ? 2 * tp.link : 2 * tp.link + 1;
      auto& list = uses_[it->second];
      auto u = std::find_if(list.begin(), list.end(), [&](const use& x) { return x.arc == arc; });
      if (u == list.end()) {
        list.push_back(use{arc, 0, 0, stamp, stamp});
        u = list.end() - 1;
      }
      ++u->packets;
      u->bytes += length + ethernet_header;
      u->first_ns = std::min(u->first_ns, stamp);
      u->last_ns = std::max(u->last_ns, stamp);
    }
  }
}

std::vector<dc::arc_id> flow_capture::used_before(std::size_t flow, std::int64_t t_ns) const {
  std::vector<dc::arc_id> out;
  for (const auto& u : uses_[flow]) {
    if (u.first_ns < t_ns) out.push_back(u.arc);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<dc::arc_id> flow_capture::used_after(std::size_t flow, std::int64_t t_ns) const {
  std::vector<dc::arc_id> out;
  for (const auto& u : uses_[flow]) {
    if (u.last_ns > t_ns) out.push_back(u.arc);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::uint64_t flow_capture::dropped() {
  for (const auto& tp : taps_) {
    tpacket_stats st{};
    socklen_t len = sizeof st;
    // Reading the statistics resets them: they are added up here.
    if (::getsockopt(tp.fd.get(), SOL_PACKET, PACKET_STATISTICS, &st, &len) == 0) dropped_ += st.tp_drops;
  }
  return dropped_;
}

}  // namespace netlab::lab_dc
