#pragma once
// DNS messages (RFC 1035 §4): the header, the questions and the three record sections, with name
// compression (§4.1.4) and the common record types decoded: A, NS, CNAME, SOA, PTR, MX, TXT
// (RFC 1035 §3.3), AAAA (RFC 3596), SRV (RFC 2782) and OPT, the EDNS(0) pseudo-record (RFC 6891);
// any other type keeps its RDATA bytes (RFC 3597). Sans-I/O: a datagram's payload goes to
// decode_dns(); DNS over TCP (RFC 1035 §4.2.2, RFC 7766 §8: each message behind a two-byte
// length) goes through dns_stream_decoder, fed in pieces as they arrive.
//
//   auto m = netlib::packet::decode_dns(udp.payload);
//   if (m) for (const auto& r : m->answers) ... r.name, dns_type_name(r.type), r.data ...
//
// Limits (dns_limits): a name is at most 255 octets on the wire and each label 63 (RFC 1035
// §2.3.4); a compression pointer must point before the name it is part of (so pointers can never
// loop) and a name follows at most max_pointer_jumps of them; a message holds at most
// max_records records over all sections. Names are given in presentation form without the
// trailing dot ("www.example.org"; the root is ""), with '.', '\' and bytes outside printable
// ASCII escaped as in a master file (RFC 1035 §5.1: "\.", "\\", "\DDD").
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "netlib/core/bytes.hpp"
#include "netlib/packet/decode_result.hpp"
#include "netlib/packet/ip_address.hpp"

namespace netlib::packet {

namespace dns_type {
inline constexpr std::uint16_t a = 1;
inline constexpr std::uint16_t ns = 2;
inline constexpr std::uint16_t cname = 5;
inline constexpr std::uint16_t soa = 6;
inline constexpr std::uint16_t ptr = 12;
inline constexpr std::uint16_t mx = 15;
inline constexpr std::uint16_t txt = 16;
inline constexpr std::uint16_t aaaa = 28;
inline constexpr std::uint16_t srv = 33;
inline constexpr std::uint16_t opt = 41;
}  // namespace dns_type

// "A", "AAAA", "MX"... for the types IANA names most often; "TYPE65280" otherwise (RFC 3597 §5).
std::string dns_type_name(std::uint16_t type);
// "NOERROR", "FORMERR", "SERVFAIL", "NXDOMAIN", "NOTIMP", "REFUSED"... (RFC 1035 §4.1.1, RFC 6895
// §2.3); "RCODE23" otherwise.
std::string dns_rcode_name(std::uint16_t rcode);
// "QUERY", "IQUERY", "STATUS", "NOTIFY", "UPDATE"; "OPCODE7" otherwise.
std::string dns_opcode_name(std::uint8_t opcode);

struct dns_header {
  std::uint16_t id = 0;
  bool response = false;  // QR
  std::uint8_t opcode = 0;
  bool authoritative = false;        // AA
  bool truncated = false;            // TC
  bool recursion_desired = false;    // RD
  bool recursion_available = false;  // RA
  bool z = false;                    // reserved, must be 0
  bool authentic_data = false;       // AD (RFC 4035 §3.2.3)
  bool checking_disabled = false;    // CD (RFC 4035 §3.2.2)
  std::uint8_t rcode = 0;            // the header's 4 bits (see dns_message::rcode)
  std::uint16_t question_count = 0;
  std::uint16_t answer_count = 0;
  std::uint16_t authority_count = 0;
  std::uint16_t additional_count = 0;
  std::uint16_t flags = 0;  // the 16 flag bits as sent
};

struct dns_question {
  std::string name;
  std::uint16_t type = 0;
  std::uint16_t klass = 1;  // IN; with the top bit: mDNS's "unicast response" (RFC 6762 §5.4)
};

struct dns_soa {
  std::string mname, rname;
  std::uint32_t serial = 0, refresh = 0, retry = 0, expire = 0, minimum = 0;
};
struct dns_mx {
  std::uint16_t preference = 0;
  std::string exchange;
};
struct dns_srv {
  std::uint16_t priority = 0, weight = 0, port = 0;
  std::string target;
};
struct dns_txt {
  std::vector<std::string> strings;  // each <character-string> as sent (bytes, not escaped)
};
struct dns_name_data {  // NS, CNAME, PTR: one domain name
  std::string name;
};
struct dns_edns_option {
  std::uint16_t code = 0;
  std::vector<std::byte> data;
};
// The OPT pseudo-record's fields (RFC 6891 §6.1.2-3): CLASS is the requester's UDP payload size,
// TTL carries the upper bits of the RCODE, the version and the DO bit.
struct dns_edns {
  std::uint16_t udp_payload_size = 0;
  std::uint8_t extended_rcode = 0;  // the upper 8 bits of the 12-bit RCODE
  std::uint8_t version = 0;
  bool dnssec_ok = false;  // DO (RFC 3225)
  std::uint16_t z = 0;     // the 15 bits after DO
  std::vector<dns_edns_option> options;
};
struct dns_raw {  // any other type: the RDATA as sent
  std::vector<std::byte> bytes;
};

// A (IPv4) and AAAA (IPv6) decode to an ip_address.
using dns_rdata = std::variant<dns_raw, ip_address, dns_name_data, dns_soa, dns_mx, dns_txt, dns_srv, dns_edns>;

struct dns_record {
  std::string name;
  std::uint16_t type = 0;
  std::uint16_t klass = 1;
  std::uint32_t ttl = 0;
  std::uint16_t rdlength = 0;
  dns_rdata data;
};

struct dns_message {
  dns_header header;
  std::vector<dns_question> questions;
  std::vector<dns_record> answers, authority, additional;

  // The OPT record of the additional section, when there is one (RFC 6891 §6.1.1: at most one).
  [[nodiscard]] const dns_edns* edns() const noexcept;
  // The full RCODE: the header's 4 bits, with EDNS's 8 upper bits when OPT is present (RFC 6891 §6.1.3).
  [[nodiscard]] std::uint16_t rcode() const noexcept;
};

struct dns_limits {
  std::size_t max_records = 4096;      // over all four sections, questions included
  std::size_t max_pointer_jumps = 64;  // compression pointers followed for one name
};

// Errors ("dns" layer): "truncated header", "truncated question", "truncated record", "too many
// records", "bad label type", "name too long", "compression pointer loop", "too many
// compression pointers", "bad record data" (RDATA shorter than its type needs, or a name in it
// running past RDLENGTH).
decoded<dns_message> decode_dns(byte_view message, const dns_limits& limits = {});

// DNS over TCP: messages behind a two-byte length (RFC 1035 §4.2.2). Feed the stream's bytes as
// they arrive, in any pieces; next() gives each complete message in order (decoded, or the
// decode_error of a malformed one, after which the stream goes on with the next length), or
// nullopt until more bytes come. A length of at most 65535 bounds what is buffered.
class dns_stream_decoder {
 public:
  explicit dns_stream_decoder(dns_limits limits = {}) : limits_(limits) {}
  void feed(byte_view bytes) { buffer_.append(bytes); }
  std::optional<decoded<dns_message>> next();
  // Bytes received but not yet part of a complete message.
  [[nodiscard]] std::size_t buffered() const noexcept { return buffer_.size(); }

 private:
  dns_limits limits_;
  input_buffer buffer_;
};

}  // namespace netlib::packet
