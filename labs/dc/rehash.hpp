#pragma once
// Switches that hash the headers (docs/labs/datacenter.md, "Collective traffic"): a TCP (or
// connected UDP) socket puts its own random flow hash on every packet (sk_txhash), and Linux's L4
// multipath policy uses that hash, when a packet has one, instead of hashing the 5-tuple; a
// hardware switch never sees it. This attaches, to every host's uplink, a three-instruction eBPF
// program at the interface's egress (tcx, Linux 6.6 and later) that forgets the hash
// (bpf_set_hash_invalid), so every switch namespace hashes the packet's 5-tuple as the model does.
// Detached when the object is destroyed (the links are file descriptors of this process).
#include <string>
#include <vector>

#include "netlib/dc/topology.hpp"
#include "netns_fabric.hpp"

namespace netlab::lab_dc {

class header_hashing {
 public:
  // Attaches to every host's uplink; on a kernel that cannot (no tcx, no eBPF), attached() is
  // false and why() says why.
  header_hashing(const netns_fabric& fabric, const netlib::dc::topology& t);
  ~header_hashing();
  header_hashing(const header_hashing&) = delete;
  header_hashing& operator=(const header_hashing&) = delete;

  [[nodiscard]] bool attached() const noexcept { return why_.empty(); }
  [[nodiscard]] const std::string& why() const noexcept { return why_; }

 private:
  int program_ = -1;
  std::vector<int> links_;
  std::string why_;
};

}  // namespace netlab::lab_dc
