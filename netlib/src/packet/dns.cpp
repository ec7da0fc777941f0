// DNS message decoding (RFC 1035 §4.1). Theory of operation: the 12-byte header gives the four
// section counts; their sum is checked against the record limit before anything is read. Each
// name is read label by label from its position in the message: a compression pointer (§4.1.4:
// the top two bits set) moves the reading to an earlier offset, and must point before the start of
// the labels being read (a pointer to itself or later would be the only way to loop, so the
// reading always ends), at most max_pointer_jumps times; the wire length of the name (labels and
// their length octets, the final zero included) may not pass 255 (§2.3.4). A record's RDATA is
// decoded by its type within its RDLENGTH bytes: a name inside it may point elsewhere in the
// message, but its own bytes must end within the RDATA. Unknown types keep their bytes (RFC 3597).
#include "netlib/packet/dns.hpp"

#include <fmt/format.h>

#include <array>

#include "netlib/packet/wire.hpp"

namespace netlib::packet {
namespace {

constexpr std::string_view dns_layer = "dns";
constexpr std::size_t max_name_wire_bytes = 255;  // RFC 1035 §2.3.4

struct name_error {
  bool truncated = false;   // the bytes ran out: the caller names the section
  std::string_view reason;  // otherwise why the name is malformed
};

void append_label(std::string& out, const std::byte* p, std::size_t n) {
  if (!out.empty()) out += '.';
  for (std::size_t i = 0; i < n; ++i) {
    const auto c = static_cast<unsigned char>(p[i]);
    if (c == '.' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c > 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      out += fmt::format("\\{:03d}", c);  // RFC 1035 §5.1: \DDD
    }
  }
}

// Reads the name at `pos` in `msg` into `out`; on success `pos` is just past the name's bytes at
// its own place (after the first pointer, when there is one).
std::optional<name_error> read_name(byte_view msg, std::size_t& pos, std::string& out, const dns_limits& limits) {
  out.clear();
  std::size_t p = pos;
  std::size_t segment_start = pos;  // pointers must point before this
  std::size_t wire = 0;
  std::size_t jumps = 0;
  bool jumped = false;
  for (;;) {
    if (p >= msg.size()) return name_error{true, {}};
    const auto len = wire::u8(msg.data() + p);
    if ((len & 0xc0) == 0xc0) {
      if (p + 1 >= msg.size()) return name_error{true, {}};
      const std::size_t target = static_cast<std::size_t>((len & 0x3f) << 8) | wire::u8(msg.data() + p + 1);
      if (!jumped) pos = p + 2;
      jumped = true;
      if (++jumps > limits.max_pointer_jumps) return name_error{false, "too many compression pointers"};
      if (target >= segment_start) return name_error{false, "compression pointer loop"};
      segment_start = target;
      p = target;
      continue;
    }
    if ((len & 0xc0) != 0) return name_error{false, "bad label type"};  // 0x40 (RFC 6891 §5), 0x80: reserved
    wire += 1u + len;
    if (wire > max_name_wire_bytes) return name_error{false, "name too long"};
    if (len == 0) {
      if (!jumped) pos = p + 1;
      return std::nullopt;
    }
    if (p + 1 + len > msg.size()) return name_error{true, {}};
    append_label(out, msg.data() + p + 1, len);
    p += 1u + len;
  }
}

decode_error as_error(const name_error& e, std::string_view truncated_reason) {
  return decode_error{dns_layer, e.truncated ? truncated_reason : e.reason};
}

// A name inside RDATA: its own bytes must end by `end`.
std::optional<decode_error> rdata_name(byte_view msg, std::size_t& pos, std::size_t end, std::string& out,
                                       const dns_limits& limits) {
  if (auto e = read_name(msg, pos, out, limits)) return as_error(*e, "bad record data");
  if (pos > end) return decode_error{dns_layer, "bad record data"};
  return std::nullopt;
}

std::optional<decode_error> decode_edns(byte_view rdata, dns_record& r, dns_edns& e) {
  e.udp_payload_size = r.klass;  // RFC 6891 §6.1.2
  e.extended_rcode = static_cast<std::uint8_t>(r.ttl >> 24);
  e.version = static_cast<std::uint8_t>((r.ttl >> 16) & 0xff);
  e.dnssec_ok = (r.ttl & 0x8000) != 0;
  e.z = static_cast<std::uint16_t>(r.ttl & 0x7fff);
  std::size_t p = 0;
  while (p < rdata.size()) {  // {OPTION-CODE, OPTION-LENGTH, OPTION-DATA} (§6.1.2)
    if (p + 4 > rdata.size()) return decode_error{dns_layer, "bad record data"};
    dns_edns_option o;
    o.code = wire::be16(rdata.data() + p);
    const std::size_t n = wire::be16(rdata.data() + p + 2);
    if (p + 4 + n > rdata.size()) return decode_error{dns_layer, "bad record data"};
    o.data.assign(rdata.begin() + static_cast<std::ptrdiff_t>(p + 4),
                  rdata.begin() + static_cast<std::ptrdiff_t>(p + 4 + n));
    e.options.push_back(std::move(o));
    p += 4 + n;
  }
  return std::nullopt;
}

// RDATA at [start, start + rdlength) of `msg`, by type.
std::optional<decode_error> decode_rdata(byte_view msg, std::size_t start, dns_record& r, const dns_limits& limits) {
  const std::size_t end = start + r.rdlength;
  const byte_view rdata = msg.subspan(start, r.rdlength);
  const auto bad = decode_error{dns_layer, "bad record data"};
  std::size_t p = start;
  switch (r.type) {
    case dns_type::a:
      if (rdata.size() != 4) return bad;
      r.data = ip_address::v4_from_bytes(rdata.data());
      return std::nullopt;
    case dns_type::aaaa:  // RFC 3596 §2.2
      if (rdata.size() != 16) return bad;
      r.data = ip_address::v6_from_bytes(rdata.data());
      return std::nullopt;
    case dns_type::ns:
    case dns_type::cname:
    case dns_type::ptr: {
      dns_name_data d;
      if (auto e = rdata_name(msg, p, end, d.name, limits)) return e;
      r.data = std::move(d);
      return std::nullopt;
    }
    case dns_type::mx: {
      if (rdata.size() < 3) return bad;
      dns_mx m;
      m.preference = wire::be16(rdata.data());
      p += 2;
      if (auto e = rdata_name(msg, p, end, m.exchange, limits)) return e;
      r.data = std::move(m);
      return std::nullopt;
    }
    case dns_type::srv: {  // RFC 2782: priority, weight, port, target
      if (rdata.size() < 7) return bad;
      dns_srv s;
      s.priority = wire::be16(rdata.data());
      s.weight = wire::be16(rdata.data() + 2);
      s.port = wire::be16(rdata.data() + 4);
      p += 6;
      if (auto e = rdata_name(msg, p, end, s.target, limits)) return e;
      r.data = std::move(s);
      return std::nullopt;
    }
    case dns_type::soa: {  // RFC 1035 §3.3.13
      dns_soa s;
      if (auto e = rdata_name(msg, p, end, s.mname, limits)) return e;
      if (auto e = rdata_name(msg, p, end, s.rname, limits)) return e;
      if (p + 20 > end) return bad;
      const std::byte* q = msg.data() + p;
      s.serial = wire::be32(q);
      s.refresh = wire::be32(q + 4);
      s.retry = wire::be32(q + 8);
      s.expire = wire::be32(q + 12);
      s.minimum = wire::be32(q + 16);
      r.data = std::move(s);
      return std::nullopt;
    }
    case dns_type::txt: {  // RFC 1035 §3.3.14: one or more <character-string>s
      dns_txt t;
      std::size_t i = 0;
      while (i < rdata.size()) {
        const std::size_t n = wire::u8(rdata.data() + i);
        if (i + 1 + n > rdata.size()) return bad;
        t.strings.emplace_back(reinterpret_cast<const char*>(rdata.data() + i + 1), n);
        i += 1 + n;
      }
      r.data = std::move(t);
      return std::nullopt;
    }
    case dns_type::opt: {
      dns_edns e;
      if (auto err = decode_edns(rdata, r, e)) return err;
      r.data = std::move(e);
      return std::nullopt;
    }
    default:
      r.data = dns_raw{{rdata.begin(), rdata.end()}};
      return std::nullopt;
  }
}

std::optional<decode_error> read_record(byte_view msg, std::size_t& pos, dns_record& r, const dns_limits& limits) {
  if (auto e = read_name(msg, pos, r.name, limits)) return as_error(*e, "truncated record");
  if (pos + 10 > msg.size()) return decode_error{dns_layer, "truncated record"};
  const std::byte* p = msg.data() + pos;
  r.type = wire::be16(p);
  r.klass = wire::be16(p + 2);
  r.ttl = wire::be32(p + 4);
  r.rdlength = wire::be16(p + 8);
  pos += 10;
  if (pos + r.rdlength > msg.size()) return decode_error{dns_layer, "truncated record"};
  if (auto e = decode_rdata(msg, pos, r, limits)) return e;
  pos += r.rdlength;
  return std::nullopt;
}

}  // namespace

std::string dns_type_name(std::uint16_t type) {
  switch (type) {
    case 1:
      return "A";
    case 2:
      return "NS";
    case 5:
      return "CNAME";
    case 6:
      return "SOA";
    case 12:
      return "PTR";
    case 13:
      return "HINFO";
    case 15:
      return "MX";
    case 16:
      return "TXT";
    case 28:
      return "AAAA";
    case 33:
      return "SRV";
    case 35:
      return "NAPTR";
    case 39:
      return "DNAME";
    case 41:
      return "OPT";
    case 43:
      return "DS";
    case 46:
      return "RRSIG";
    case 47:
      return "NSEC";
    case 48:
      return "DNSKEY";
    case 50:
      return "NSEC3";
    case 64:
      return "SVCB";
    case 65:
      return "HTTPS";
    case 252:
      return "AXFR";
    case 255:
      return "ANY";
    case 257:
      return "CAA";
    default:
      return fmt::format("TYPE{}", type);  // RFC 3597 §5
  }
}

std::string dns_rcode_name(std::uint16_t rcode) {
  static constexpr std::array<const char*, 11> names{"NOERROR",  "FORMERR", "SERVFAIL", "NXDOMAIN", "NOTIMP", "REFUSED",
                                                     "YXDOMAIN", "YXRRSET", "NXRRSET",  "NOTAUTH",  "NOTZONE"};
  if (rcode < names.size()) return names[rcode];
  if (rcode == 16) return "BADVERS";    // RFC 6891 §9
  if (rcode == 23) return "BADCOOKIE";  // RFC 7873 §8
  return fmt::format("RCODE{}", rcode);
}

std::string dns_opcode_name(std::uint8_t opcode) {
  switch (opcode) {
    case 0:
      return "QUERY";
    case 1:
      return "IQUERY";
    case 2:
      return "STATUS";
    case 4:
      return "NOTIFY";  // RFC 1996
    case 5:
      return "UPDATE";  // RFC 2136
    default:
      return fmt::format("OPCODE{}", opcode);
  }
}

const dns_edns* dns_message::edns() const noexcept {
  for (const auto& r : additional) {
    if (r.type == dns_type::opt) return std::get_if<dns_edns>(&r.data);
  }
  return nullptr;
}

std::uint16_t dns_message::rcode() const noexcept {
  const auto* e = edns();
  return static_cast<std::uint16_t>(header.rcode | (e ? e->extended_rcode << 4 : 0));
}

decoded<dns_message> decode_dns(byte_view msg, const dns_limits& limits) {
  if (msg.size() < 12) return decode_error{dns_layer, "truncated header"};
  dns_message m;
  dns_header& h = m.header;
  h.id = wire::be16(msg.data());
  h.flags = wire::be16(msg.data() + 2);
  h.response = (h.flags & 0x8000) != 0;
  h.opcode = static_cast<std::uint8_t>((h.flags >> 11) & 0x0f);
  h.authoritative = (h.flags & 0x0400) != 0;
  h.truncated = (h.flags & 0x0200) != 0;
  h.recursion_desired = (h.flags & 0x0100) != 0;
  h.recursion_available = (h.flags & 0x0080) != 0;
  h.z = (h.flags & 0x0040) != 0;
  h.authentic_data = (h.flags & 0x0020) != 0;
  h.checking_disabled = (h.flags & 0x0010) != 0;
  h.rcode = static_cast<std::uint8_t>(h.flags & 0x0f);
  h.question_count = wire::be16(msg.data() + 4);
  h.answer_count = wire::be16(msg.data() + 6);
  h.authority_count = wire::be16(msg.data() + 8);
  h.additional_count = wire::be16(msg.data() + 10);
  const std::size_t total = std::size_t{h.question_count} + h.answer_count + h.authority_count + h.additional_count;
  if (total > limits.max_records) return decode_error{dns_layer, "too many records"};
  std::size_t pos = 12;
  for (std::size_t i = 0; i < h.question_count; ++i) {
    dns_question q;
    if (auto e = read_name(msg, pos, q.name, limits)) return as_error(*e, "truncated question");
    if (pos + 4 > msg.size()) return decode_error{dns_layer, "truncated question"};
    q.type = wire::be16(msg.data() + pos);
    q.klass = wire::be16(msg.data() + pos + 2);
    pos += 4;
    m.questions.push_back(std::move(q));
  }
  const std::pair<std::vector<dns_record>*, std::uint16_t> sections[] = {
      {&m.answers, h.answer_count}, {&m.authority, h.authority_count}, {&m.additional, h.additional_count}};
  for (const auto& [list, count] : sections) {
    for (std::size_t i = 0; i < count; ++i) {
      dns_record r;
      if (auto e = read_record(msg, pos, r, limits)) return *e;
      list->push_back(std::move(r));
    }
  }
  return m;
}

std::optional<decoded<dns_message>> dns_stream_decoder::next() {
  const byte_view b = buffer_.data();
  if (b.size() < 2) return std::nullopt;
  const std::size_t length = wire::be16(b.data());
  if (b.size() < 2 + length) return std::nullopt;
  auto m = decode_dns(b.subspan(2, length), limits_);
  buffer_.consume(2 + length);
  return m;
}

}  // namespace netlib::packet
