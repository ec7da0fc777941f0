// Fuzz target for the DHCP decoder (netlib/packet/dhcp.hpp): the input is one message, decoded
// with the default limits and with a limit of 8 option instances; a message the small limit
// accepts must decode the same with the default one, and every accessor must stay within the
// options it found (an option's value is never longer than the bytes given).
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "netlib/packet/dhcp.hpp"

namespace {

using namespace netlib::packet;

std::size_t touch(const dhcp_message& m, std::size_t input) {
  std::size_t sink = m.sname.size() + m.file.size() + m.xid;
  std::size_t total = 0;
  for (const auto& o : m.options) total += o.value.size();
  if (total > input) std::abort();
  if (const auto t = m.message_type()) sink += dhcp_message_type_name(*t).size();
  for (std::uint8_t code : {dhcp_option_code::subnet_mask, dhcp_option_code::server_identifier,
                            dhcp_option_code::requested_address, dhcp_option_code::broadcast_address}) {
    if (const auto a = m.address_option(code)) sink += a->to_string().size();
  }
  for (std::uint8_t code : {dhcp_option_code::router, dhcp_option_code::dns_servers}) {
    sink += m.address_list_option(code).size();
  }
  for (std::uint8_t code : {dhcp_option_code::lease_time, dhcp_option_code::renewal_time}) {
    if (const auto v = m.u32_option(code)) sink += *v;
  }
  if (const auto h = m.text_option(dhcp_option_code::host_name)) sink += h->size();
  sink += m.parameter_request_list().size();
  if (const auto mac = m.client_mac()) sink += mac->to_string().size();
  return sink + m.options.size();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const netlib::byte_view message(reinterpret_cast<const std::byte*>(data), size);
  const auto full = decode_dhcp(message);
  dhcp_limits small_limits;
  small_limits.max_options = 8;
  const auto small = decode_dhcp(message, small_limits);
  if (small && (!full || touch(*small, size) != touch(*full, size))) std::abort();
  if (full) touch(*full, size);
  return 0;
}
