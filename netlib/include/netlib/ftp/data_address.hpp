#pragma once
// Data-connection addresses as FTP writes them: PORT and 227 (RFC 959 §4.1.2, §4.2.2:
// h1,h2,h3,h4,p1,p2), EPRT (RFC 2428 §2: |proto|address|port|) and 229 (RFC 2428 §3: (|||port|)).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace netlib::ftp {

struct data_address {
  int family = 1;    // RFC 2428 network protocol: 1 IPv4, 2 IPv6
  std::string host;  // dotted quad or IPv6 text; empty in a 229 reply (same host as control)
  std::uint16_t port = 0;
  friend bool operator==(const data_address&, const data_address&) = default;
};

// "h1,h2,h3,h4,p1,p2" (PORT argument). nullopt when malformed.
std::optional<data_address> parse_port_argument(std::string_view text);
std::string format_port_argument(const data_address& a);  // IPv4 only
// The first "h1,h2,h3,h4,p1,p2" group inside a 227 reply's text.
std::optional<data_address> parse_pasv_reply(std::string_view text);
// "|1|132.235.1.2|6275|" (EPRT argument); any printable delimiter (RFC 2428 §2).
std::optional<data_address> parse_eprt_argument(std::string_view text);
std::string format_eprt_argument(const data_address& a);
// The "(|||port|)" inside a 229 reply's text; host is left empty.
std::optional<data_address> parse_epsv_reply(std::string_view text);
// True for a dotted-quad IPv4 address text.
bool is_ipv4_text(std::string_view text);

}  // namespace netlib::ftp
