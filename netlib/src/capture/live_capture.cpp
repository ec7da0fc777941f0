// libpcap adapter: pcap_create + options + pcap_activate, a compiled BPF filter, pcap_next_ex with
// a timeout so callers can check for signals, nanosecond timestamps when the platform has them.
#include "netlib/capture/live_capture.hpp"

#include <fmt/format.h>
#include <pcap/pcap.h>
#include <poll.h>

#include <cerrno>

namespace netlib::capture {

struct live_capture::handle {
  pcap_t* p = nullptr;
  bool nano = false;
  int fd = -1;
  int timeout_ms = 100;
  ~handle() {
    if (p) pcap_close(p);
  }
};

namespace {

// DLT_ values (what libpcap reports) to LINKTYPE_ values (what files store).
packet::link_type to_link_type(int dlt) {
  switch (dlt) {
    case DLT_NULL:
      return packet::link_type::null_bsd;
    case DLT_EN10MB:
      return packet::link_type::ethernet;
    case DLT_RAW:
      return packet::link_type::raw;
    case DLT_LOOP:
      return packet::link_type::loop;
    case DLT_LINUX_SLL:
      return packet::link_type::linux_sll;
#ifdef DLT_LINUX_SLL2
    case DLT_LINUX_SLL2:
      return packet::link_type::linux_sll2;
#endif
    case DLT_IPV4:
      return packet::link_type::ipv4;
    case DLT_IPV6:
      return packet::link_type::ipv6;
    default:
      return static_cast<packet::link_type>(dlt);
  }
}

[[noreturn]] void fail(const live_options& o, const std::string& what) {
  throw capture_error(fmt::format("{}: {}", o.interface, what));
}

}  // namespace

live_capture::live_capture(std::unique_ptr<handle> h, packet::link_type link, std::string interface)
    : handle_(std::move(h)), link_(link), interface_(std::move(interface)) {}
live_capture::live_capture(live_capture&&) noexcept = default;
live_capture& live_capture::operator=(live_capture&&) noexcept = default;
live_capture::~live_capture() = default;

live_capture live_capture::open(const live_options& o) {
  char err[PCAP_ERRBUF_SIZE] = {};
  auto h = std::make_unique<handle>();
  h->p = pcap_create(o.interface.c_str(), err);
  if (!h->p) fail(o, err);
  pcap_set_snaplen(h->p, o.snaplen);
  pcap_set_promisc(h->p, o.promiscuous ? 1 : 0);
  pcap_set_timeout(h->p, static_cast<int>(o.timeout.count()));
  pcap_set_immediate_mode(h->p, 1);
  if (o.buffer_bytes > 0) pcap_set_buffer_size(h->p, o.buffer_bytes);
  h->nano = pcap_set_tstamp_precision(h->p, PCAP_TSTAMP_PRECISION_NANO) == 0;
  const int rc = pcap_activate(h->p);
  if (rc < 0) {
    const std::string detail = rc == PCAP_ERROR_NO_SUCH_DEVICE ? "no such interface (see `ip link`)"
                               : rc == PCAP_ERROR_PERM_DENIED
                                   ? "permission denied (capturing needs root or CAP_NET_RAW)"
                                   : std::string(pcap_geterr(h->p));
    fail(o, detail);
  }
  const bool inbound = o.inbound_only && pcap_setdirection(h->p, PCAP_D_IN) == 0;
  if (!o.filter.empty()) {
    bpf_program prog{};
    if (pcap_compile(h->p, &prog, o.filter.c_str(), 1, PCAP_NETMASK_UNKNOWN) != 0) {
      fail(o, fmt::format("bad filter '{}': {}", o.filter, pcap_geterr(h->p)));
    }
    const int set = pcap_setfilter(h->p, &prog);
    pcap_freecode(&prog);
    if (set != 0) fail(o, fmt::format("cannot set filter: {}", pcap_geterr(h->p)));
  }
  // Non-blocking reads behind poll(): libpcap's own timeout does not apply in immediate mode and
  // it restarts reads interrupted by signals, so next() waits in poll() instead.
  if (pcap_setnonblock(h->p, 1, err) != 0) fail(o, err);
  h->fd = pcap_get_selectable_fd(h->p);
  h->timeout_ms = static_cast<int>(o.timeout.count());
  const auto link = to_link_type(pcap_datalink(h->p));
  live_capture cap(std::move(h), link, o.interface);
  cap.inbound_only_ = inbound;
  return cap;
}

std::optional<packet_record> live_capture::next() {
  pcap_pkthdr* hdr = nullptr;
  const u_char* data = nullptr;
  int rc = pcap_next_ex(handle_->p, &hdr, &data);
  if (rc == 0 && handle_->fd >= 0) {
    pollfd pfd{handle_->fd, POLLIN, 0};
    if (::poll(&pfd, 1, handle_->timeout_ms) <= 0) return std::nullopt;  // timeout or a signal
    rc = pcap_next_ex(handle_->p, &hdr, &data);
  }
  if (rc == 0) return std::nullopt;
  if (rc < 0) throw capture_error(fmt::format("{}: capture failed: {}", interface_, pcap_geterr(handle_->p)));
  packet_record rec;
  const std::int64_t frac = handle_->nano ? hdr->ts.tv_usec : static_cast<std::int64_t>(hdr->ts.tv_usec) * 1000;
  rec.ts = from_nanoseconds(static_cast<std::int64_t>(hdr->ts.tv_sec) * 1'000'000'000 + frac);
  rec.link = link_;
  rec.data = byte_view(reinterpret_cast<const std::byte*>(data), hdr->caplen);
  rec.orig_len = hdr->len;
  return rec;
}

void live_capture::inject(byte_view frame) {
  if (pcap_inject(handle_->p, frame.data(), frame.size()) < 0) {
    throw capture_error(fmt::format("{}: cannot send a frame: {}", interface_, pcap_geterr(handle_->p)));
  }
}

live_stats live_capture::stats() const {
  pcap_stat s{};
  if (pcap_stats(handle_->p, &s) != 0) return {};
  return {s.ps_recv, s.ps_drop};
}

}  // namespace netlib::capture
