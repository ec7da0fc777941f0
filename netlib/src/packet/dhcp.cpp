// DHCP decoding (RFC 2131 §2, RFC 2132). Theory of operation: the 236 bytes of BOOTP's fixed
// fields, then the magic cookie and the options field; an Option Overload (52) says the `file`
// (1), `sname` (2) or both (3) fields hold options too, read after the options field, `file`
// first (RFC 3396 §5). Options are code, length, value, except PAD (0, one byte) and END (255,
// which ends its field; a field that runs out without END ends there, as many clients send it).
// Instances of one code are joined in order into one value (RFC 3396 §7).
#include "netlib/packet/dhcp.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstring>

#include "netlib/packet/wire.hpp"

namespace netlib::packet {
namespace {

constexpr std::string_view dhcp_layer = "dhcp";
constexpr std::size_t fixed_bytes = 236;
constexpr std::size_t sname_offset = 44, sname_bytes = 64;
constexpr std::size_t file_offset = 108, file_bytes = 128;
constexpr std::array<std::uint8_t, 4> magic_cookie{99, 130, 83, 99};

std::string field_text(byte_view b) {
  const auto* p = reinterpret_cast<const char*>(b.data());
  return std::string(p, strnlen(p, b.size()));
}

struct option_reader {
  dhcp_message& m;
  const dhcp_limits& limits;
  std::size_t instances = 0;

  std::optional<decode_error> read(byte_view field) {
    std::size_t i = 0;
    while (i < field.size()) {
      const auto code = wire::u8(field.data() + i);
      if (code == dhcp_option_code::pad) {
        ++i;
        continue;
      }
      if (code == dhcp_option_code::end) return std::nullopt;
      if (++instances > limits.max_options) return decode_error{dhcp_layer, "too many options"};
      if (i + 2 > field.size()) return decode_error{dhcp_layer, "truncated option"};
      const std::size_t n = wire::u8(field.data() + i + 1);
      if (i + 2 + n > field.size()) return decode_error{dhcp_layer, "truncated option"};
      const auto value = field.subspan(i + 2, n);
      auto it = std::find_if(m.options.begin(), m.options.end(), [&](const dhcp_option& o) { return o.code == code; });
      if (it == m.options.end()) it = m.options.insert(m.options.end(), dhcp_option{code, {}});
      it->value.insert(it->value.end(), value.begin(), value.end());
      i += 2 + n;
    }
    return std::nullopt;
  }
};

}  // namespace

std::string dhcp_message_type_name(std::uint8_t type) {
  static constexpr std::array<const char*, 9> names{"",    "DISCOVER", "OFFER",   "REQUEST", "DECLINE",
                                                    "ACK", "NAK",      "RELEASE", "INFORM"};
  if (type >= 1 && type < names.size()) return names[type];
  return fmt::format("TYPE{}", type);
}

std::optional<mac_address> dhcp_message::client_mac() const noexcept {
  if (htype != 1 || hlen != 6) return std::nullopt;
  mac_address mac;
  std::copy_n(chaddr.begin(), 6, mac.octets.begin());
  return mac;
}

const dhcp_option* dhcp_message::option(std::uint8_t code) const noexcept {
  const auto it = std::find_if(options.begin(), options.end(), [&](const dhcp_option& o) { return o.code == code; });
  return it == options.end() ? nullptr : &*it;
}

std::optional<std::uint8_t> dhcp_message::message_type() const noexcept {
  const auto* o = option(dhcp_option_code::message_type);
  if (o == nullptr || o->value.size() != 1) return std::nullopt;
  return static_cast<std::uint8_t>(o->value[0]);
}

std::optional<ip_address> dhcp_message::address_option(std::uint8_t code) const {
  const auto* o = option(code);
  if (o == nullptr || o->value.size() != 4) return std::nullopt;
  return ip_address::v4_from_bytes(o->value.data());
}

std::vector<ip_address> dhcp_message::address_list_option(std::uint8_t code) const {
  std::vector<ip_address> out;
  const auto* o = option(code);
  if (o == nullptr || o->value.empty() || o->value.size() % 4 != 0) return out;
  for (std::size_t i = 0; i < o->value.size(); i += 4) out.push_back(ip_address::v4_from_bytes(o->value.data() + i));
  return out;
}

std::optional<std::uint32_t> dhcp_message::u32_option(std::uint8_t code) const {
  const auto* o = option(code);
  if (o == nullptr || o->value.size() != 4) return std::nullopt;
  return wire::be32(o->value.data());
}

std::optional<std::string> dhcp_message::text_option(std::uint8_t code) const {
  const auto* o = option(code);
  if (o == nullptr) return std::nullopt;
  std::string s(reinterpret_cast<const char*>(o->value.data()), o->value.size());
  while (!s.empty() && s.back() == '\0') s.pop_back();
  return s;
}

std::vector<std::uint8_t> dhcp_message::parameter_request_list() const {
  std::vector<std::uint8_t> out;
  if (const auto* o = option(dhcp_option_code::parameter_request_list)) {
    for (auto b : o->value) out.push_back(static_cast<std::uint8_t>(b));
  }
  return out;
}

decoded<dhcp_message> decode_dhcp(byte_view b, const dhcp_limits& limits) {
  if (b.size() < fixed_bytes) return decode_error{dhcp_layer, "truncated header"};
  dhcp_message m;
  m.op = wire::u8(b.data());
  m.htype = wire::u8(b.data() + 1);
  m.hlen = wire::u8(b.data() + 2);
  m.hops = wire::u8(b.data() + 3);
  m.xid = wire::be32(b.data() + 4);
  m.secs = wire::be16(b.data() + 8);
  m.flags = wire::be16(b.data() + 10);
  m.ciaddr = ip_address::v4_from_bytes(b.data() + 12);
  m.yiaddr = ip_address::v4_from_bytes(b.data() + 16);
  m.siaddr = ip_address::v4_from_bytes(b.data() + 20);
  m.giaddr = ip_address::v4_from_bytes(b.data() + 24);
  std::memcpy(m.chaddr.data(), b.data() + 28, m.chaddr.size());
  const auto sname = b.subspan(sname_offset, sname_bytes);
  const auto file = b.subspan(file_offset, file_bytes);
  m.has_cookie = b.size() >= fixed_bytes + 4 && std::memcmp(b.data() + fixed_bytes, magic_cookie.data(), 4) == 0;
  if (m.has_cookie) {
    option_reader r{m, limits};
    if (auto e = r.read(b.subspan(fixed_bytes + 4))) return *e;
    std::uint8_t overload = 0;
    if (const auto* o = m.option(dhcp_option_code::overload); o != nullptr && o->value.size() == 1) {
      overload = static_cast<std::uint8_t>(o->value[0]);
    }
    if ((overload & 1) != 0) {
      if (auto e = r.read(file)) return *e;
    }
    if ((overload & 2) != 0) {
      if (auto e = r.read(sname)) return *e;
    }
    if ((overload & 1) == 0) m.file = field_text(file);
    if ((overload & 2) == 0) m.sname = field_text(sname);
  } else {
    m.file = field_text(file);
    m.sname = field_text(sname);
  }
  return m;
}

}  // namespace netlib::packet
