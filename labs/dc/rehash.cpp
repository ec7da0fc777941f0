// Theory of operation: the program is loaded once with bpf(BPF_PROG_LOAD) as a traffic-control
// classifier (BPF_PROG_TYPE_SCHED_CLS):
//     call bpf_set_hash_invalid   ; r1 already holds the packet (struct __sk_buff *)
//     r0 = TCX_NEXT (-1)          ; go on as if there were no program
//     exit
// and linked to each host's uplink with bpf(BPF_LINK_CREATE, attach type BPF_TCX_EGRESS) from
// inside the host's namespace (the interface index is looked up in the caller's namespace). Both
// are plain file descriptors: closing them detaches the program. Debian 12's kernel headers
// predate tcx (Linux 6.6), so its two constants are written here.
#include "rehash.hpp"

#include <linux/bpf.h>
#include <net/if.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstring>

#include "netlib/app/netns.hpp"

namespace netlab::lab_dc {
namespace {

constexpr std::uint32_t tcx_egress = 47;  // enum bpf_attach_type BPF_TCX_EGRESS (Linux 6.6)
constexpr std::int32_t tcx_next = -1;     // TCX_NEXT

long bpf(int cmd, bpf_attr& attr) {
  return ::syscall(__NR_bpf, cmd, &attr, sizeof attr);
}

}  // namespace

header_hashing::header_hashing(const netns_fabric& fabric, const netlib::dc::topology& t) {
  bpf_insn code[3];
  std::memset(code, 0, sizeof code);
  code[0].code = BPF_JMP | BPF_CALL;
  code[0].imm = BPF_FUNC_set_hash_invalid;
  code[1].code = BPF_ALU64 | BPF_MOV | BPF_K;
  code[1].dst_reg = BPF_REG_0;
  code[1].imm = tcx_next;
  code[2].code = BPF_JMP | BPF_EXIT;
  static const char license[] = "GPL";  // the kernel's own helpers are GPL; this program calls one
  bpf_attr load;
  std::memset(&load, 0, sizeof load);
  load.prog_type = BPF_PROG_TYPE_SCHED_CLS;
  load.insns = reinterpret_cast<std::uint64_t>(code);
  load.insn_cnt = 3;
  load.license = reinterpret_cast<std::uint64_t>(license);
  program_ = static_cast<int>(bpf(BPF_PROG_LOAD, load));
  if (program_ < 0) {
    why_ = fmt::format("the kernel did not load the eBPF program ({})", std::strerror(errno));
    return;
  }
  for (netlib::dc::node_id h : t.hosts()) {
    netlib::app::netns_scope in(fabric.ns(h));
    const auto dev = fabric.ifname(t.host_uplink(h));
    const unsigned index = ::if_nametoindex(dev.c_str());
    if (index == 0) {
      why_ = fmt::format("{} has no interface {}", fabric.ns(h), dev);
      break;
    }
    bpf_attr link;
    std::memset(&link, 0, sizeof link);
    link.link_create.prog_fd = static_cast<std::uint32_t>(program_);
    link.link_create.target_ifindex = index;
    link.link_create.attach_type = static_cast<bpf_attach_type>(tcx_egress);
    const int fd = static_cast<int>(bpf(BPF_LINK_CREATE, link));
    if (fd < 0) {
      why_ = fmt::format(
          "this kernel cannot attach an eBPF program at an interface's egress (tcx, Linux 6.6 and "
          "later): {}",
          std::strerror(errno));
      break;
    }
    links_.push_back(fd);
  }
}

header_hashing::~header_hashing() {
  for (int fd : links_) ::close(fd);
  if (program_ >= 0) ::close(program_);
}

}  // namespace netlab::lab_dc
