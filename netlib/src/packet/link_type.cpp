#include "netlib/packet/link_type.hpp"

namespace netlib::packet {

std::string_view link_type_name(link_type t) noexcept {
  switch (t) {
    case link_type::null_bsd:
      return "null";
    case link_type::ethernet:
      return "ethernet";
    case link_type::raw:
      return "raw";
    case link_type::loop:
      return "loop";
    case link_type::linux_sll:
      return "linux_sll";
    case link_type::ipv4:
      return "ipv4";
    case link_type::ipv6:
      return "ipv6";
    case link_type::linux_sll2:
      return "linux_sll2";
  }
  return "unknown";
}

}  // namespace netlib::packet
