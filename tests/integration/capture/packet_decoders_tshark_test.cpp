// netlib::packet's UDP, DNS and DHCP decoders against tshark, field by field, on every capture in
// captures/ (one test per capture file): every UDP datagram's ports, length and checksum; every DNS
// message over UDP and over TCP (port 53: the header, its flags and counts, each question, each
// record of the three sections with its name, type, class, TTL, length and decoded data, EDNS's
// OPT); every DHCP message (ports 67/68: the BOOTP fields, the option codes in order and the
// values of the options the labs ask about). The decoders' output is written the way tshark
// prints each field (-T fields) and the two lists of occurrences must be equal. A capture
// without any of these protocols checks that the decoders find none where tshark finds none.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <map>
#include <memory>
#include <set>

#include "netlib/capture/packet_replay.hpp"
#include "netlib/capture/tcp_replay.hpp"
#include "netlib/packet/dhcp.hpp"
#include "netlib/packet/dns.hpp"
#include "support/peers.hpp"
#include "support/tshark_fields.hpp"

namespace packet_decoders_tshark {

namespace packet = netlib::packet;
using fields = std::map<std::string, std::vector<std::string>>;

std::string hex(unsigned v, int digits) {
  return fmt::format("0x{:0{}x}", v, digits);
}
std::string bit(bool b) {
  return b ? "1" : "0";
}
std::string name(const std::string& n) {
  return n.empty() ? "<Root>" : n;
}

const std::vector<std::string> udp_fields{"udp.srcport", "udp.dstport", "udp.length", "udp.checksum"};
const std::vector<std::string> dns_fields{"dns.id",
                                          "dns.flags",
                                          "dns.flags.response",
                                          "dns.flags.opcode",
                                          "dns.flags.truncated",
                                          "dns.flags.recdesired",
                                          "dns.flags.z",
                                          "dns.flags.authenticated",
                                          "dns.flags.checkdisable",
                                          "dns.flags.authoritative",
                                          "dns.flags.recavail",
                                          "dns.flags.rcode",
                                          "dns.count.queries",
                                          "dns.count.answers",
                                          "dns.count.auth_rr",
                                          "dns.count.add_rr",
                                          "dns.qry.name",
                                          "dns.qry.type",
                                          "dns.qry.class",
                                          "dns.resp.name",
                                          "dns.resp.type",
                                          "dns.resp.class",
                                          "dns.resp.ttl",
                                          "dns.resp.len",
                                          "dns.a",
                                          "dns.aaaa",
                                          "dns.ns",
                                          "dns.cname",
                                          "dns.ptr.domain_name",
                                          "dns.mx.preference",
                                          "dns.mx.mail_exchange",
                                          "dns.txt",
                                          "dns.srv.service",
                                          "dns.srv.proto",
                                          "dns.srv.name",
                                          "dns.srv.priority",
                                          "dns.srv.weight",
                                          "dns.srv.port",
                                          "dns.srv.target",
                                          "dns.soa.mname",
                                          "dns.soa.rname",
                                          "dns.soa.serial_number",
                                          "dns.soa.refresh_interval",
                                          "dns.soa.retry_interval",
                                          "dns.soa.expire_limit",
                                          "dns.soa.minimum_ttl",
                                          "dns.rr.udp_payload_size",
                                          "dns.resp.ext_rcode",
                                          "dns.resp.edns0_version",
                                          "dns.resp.z.do",
                                          "dns.opt.code",
                                          "dns.opt.len"};
// The first occurrence only: option 61 (client identifier) repeats the hardware type and address.
const std::vector<std::string> dhcp_first_fields{"dhcp.hw.type", "dhcp.hw.mac_addr"};
const std::vector<std::string> dhcp_fields{"dhcp.type",
                                           "dhcp.hw.len",
                                           "dhcp.hops",
                                           "dhcp.id",
                                           "dhcp.secs",
                                           "dhcp.flags",
                                           "dhcp.ip.client",
                                           "dhcp.ip.your",
                                           "dhcp.ip.server",
                                           "dhcp.ip.relay",
                                           "dhcp.cookie",
                                           "dhcp.option.type",
                                           "dhcp.option.dhcp",
                                           "dhcp.option.subnet_mask",
                                           "dhcp.option.router",
                                           "dhcp.option.domain_name_server",
                                           "dhcp.option.dhcp_server_id",
                                           "dhcp.option.ip_address_lease_time",
                                           "dhcp.option.renewal_time_value",
                                           "dhcp.option.rebinding_time_value",
                                           "dhcp.option.requested_ip_address",
                                           "dhcp.option.request_list_item",
                                           "dhcp.option.hostname",
                                           "dhcp.option.domain_name",
                                           "dhcp.option.vendor_class_id",
                                           "dhcp.option.dhcp_max_message_size",
                                           "dhcp.option.broadcast_address"};

void add_record(fields& f, const packet::dns_record& r) {
  // tshark splits an SRV record's owner _service._proto.name (RFC 2782) into three fields.
  const auto first_dot = r.name.find('.');
  const auto second_dot = first_dot == std::string::npos ? first_dot : r.name.find('.', first_dot + 1);
  if (r.type == packet::dns_type::srv && r.name.starts_with('_') && second_dot != std::string::npos &&
      r.name[first_dot + 1] == '_') {
    f["dns.srv.service"].push_back(r.name.substr(0, first_dot));
    f["dns.srv.proto"].push_back(r.name.substr(first_dot + 1, second_dot - first_dot - 1));
    f["dns.srv.name"].push_back(r.name.substr(second_dot + 1));
  } else {
    f["dns.resp.name"].push_back(name(r.name));
  }
  f["dns.resp.type"].push_back(std::to_string(r.type));
  f["dns.resp.len"].push_back(std::to_string(r.rdlength));
  if (r.type != packet::dns_type::opt) {
    f["dns.resp.class"].push_back(hex(r.klass, 4));
    f["dns.resp.ttl"].push_back(std::to_string(r.ttl));
  }
  std::visit(
      [&](const auto& d) {
        using T = std::decay_t<decltype(d)>;
        if constexpr (std::is_same_v<T, packet::ip_address>) {
          f[d.v6 ? "dns.aaaa" : "dns.a"].push_back(d.to_string());
        } else if constexpr (std::is_same_v<T, packet::dns_name_data>) {
          f[r.type == packet::dns_type::ns      ? "dns.ns"
            : r.type == packet::dns_type::cname ? "dns.cname"
                                                : "dns.ptr.domain_name"]
              .push_back(name(d.name));
        } else if constexpr (std::is_same_v<T, packet::dns_mx>) {
          f["dns.mx.preference"].push_back(std::to_string(d.preference));
          f["dns.mx.mail_exchange"].push_back(name(d.exchange));
        } else if constexpr (std::is_same_v<T, packet::dns_txt>) {
          for (const auto& s : d.strings) f["dns.txt"].push_back(s);
        } else if constexpr (std::is_same_v<T, packet::dns_srv>) {
          f["dns.srv.priority"].push_back(std::to_string(d.priority));
          f["dns.srv.weight"].push_back(std::to_string(d.weight));
          f["dns.srv.port"].push_back(std::to_string(d.port));
          f["dns.srv.target"].push_back(name(d.target));
        } else if constexpr (std::is_same_v<T, packet::dns_soa>) {
          f["dns.soa.mname"].push_back(name(d.mname));
          f["dns.soa.rname"].push_back(name(d.rname));
          f["dns.soa.serial_number"].push_back(std::to_string(d.serial));
          f["dns.soa.refresh_interval"].push_back(std::to_string(d.refresh));
          f["dns.soa.retry_interval"].push_back(std::to_string(d.retry));
          f["dns.soa.expire_limit"].push_back(std::to_string(d.expire));
          f["dns.soa.minimum_ttl"].push_back(std::to_string(d.minimum));
        } else if constexpr (std::is_same_v<T, packet::dns_edns>) {
          f["dns.rr.udp_payload_size"].push_back(std::to_string(d.udp_payload_size));
          f["dns.resp.ext_rcode"].push_back(hex(d.extended_rcode, 2));
          f["dns.resp.edns0_version"].push_back(std::to_string(d.version));
          f["dns.resp.z.do"].push_back(bit(d.dnssec_ok));
          for (const auto& o : d.options) {
            f["dns.opt.code"].push_back(std::to_string(o.code));
            f["dns.opt.len"].push_back(std::to_string(o.data.size()));
          }
        }
      },
      r.data);
}

fields dns_as_tshark(const packet::dns_message& m) {
  const auto& h = m.header;
  fields f{{"dns.id", {hex(h.id, 4)}},
           {"dns.flags", {hex(h.flags, 4)}},
           {"dns.flags.response", {bit(h.response)}},
           {"dns.flags.opcode", {std::to_string(h.opcode)}},
           {"dns.flags.truncated", {bit(h.truncated)}},
           {"dns.flags.recdesired", {bit(h.recursion_desired)}},
           {"dns.flags.z", {bit(h.z)}},
           {"dns.flags.checkdisable", {bit(h.checking_disabled)}},
           {"dns.count.queries", {std::to_string(h.question_count)}},
           {"dns.count.answers", {std::to_string(h.answer_count)}},
           {"dns.count.auth_rr", {std::to_string(h.authority_count)}},
           {"dns.count.add_rr", {std::to_string(h.additional_count)}}};
  // tshark shows AD in a query only when it is set (RFC 6840 §5.7 gives it a meaning there).
  if (h.response || h.authentic_data) f["dns.flags.authenticated"] = {bit(h.authentic_data)};
  if (h.response) {  // tshark shows AA, RA and RCODE for responses only
    f["dns.flags.authoritative"] = {bit(h.authoritative)};
    f["dns.flags.recavail"] = {bit(h.recursion_available)};
    f["dns.flags.rcode"] = {std::to_string(h.rcode)};
  }
  for (const auto& q : m.questions) {
    f["dns.qry.name"].push_back(name(q.name));
    f["dns.qry.type"].push_back(std::to_string(q.type));
    f["dns.qry.class"].push_back(hex(q.klass, 4));
  }
  for (const auto* section : {&m.answers, &m.authority, &m.additional}) {
    for (const auto& r : *section) add_record(f, r);
  }
  return f;
}

fields dhcp_as_tshark(const packet::dhcp_message& m) {
  namespace code = packet::dhcp_option_code;
  fields f{{"dhcp.type", {std::to_string(m.op)}},
           {"dhcp.hw.type", {hex(m.htype, 2)}},
           {"dhcp.hw.len", {std::to_string(m.hlen)}},
           {"dhcp.hops", {std::to_string(m.hops)}},
           {"dhcp.id", {hex(m.xid, 8)}},
           {"dhcp.secs", {std::to_string(m.secs)}},
           {"dhcp.flags", {hex(m.flags, 4)}},
           {"dhcp.ip.client", {m.ciaddr.to_string()}},
           {"dhcp.ip.your", {m.yiaddr.to_string()}},
           {"dhcp.ip.server", {m.siaddr.to_string()}},
           {"dhcp.ip.relay", {m.giaddr.to_string()}}};
  if (const auto mac = m.client_mac()) f["dhcp.hw.mac_addr"] = {mac->to_string()};
  if (m.has_cookie) f["dhcp.cookie"] = {"99.130.83.99"};
  for (const auto& o : m.options) f["dhcp.option.type"].push_back(std::to_string(o.code));
  if (const auto t = m.message_type()) f["dhcp.option.dhcp"] = {std::to_string(*t)};
  const auto address = [&](std::uint8_t c, const char* field) {
    if (const auto a = m.address_option(c)) f[field] = {a->to_string()};
  };
  const auto addresses = [&](std::uint8_t c, const char* field) {
    for (const auto& a : m.address_list_option(c)) f[field].push_back(a.to_string());
  };
  const auto number = [&](std::uint8_t c, const char* field) {
    if (const auto v = m.u32_option(c)) f[field] = {std::to_string(*v)};
  };
  const auto text = [&](std::uint8_t c, const char* field) {
    if (const auto v = m.text_option(c)) f[field] = {*v};
  };
  address(code::subnet_mask, "dhcp.option.subnet_mask");
  addresses(code::router, "dhcp.option.router");
  addresses(code::dns_servers, "dhcp.option.domain_name_server");
  address(code::server_identifier, "dhcp.option.dhcp_server_id");
  number(code::lease_time, "dhcp.option.ip_address_lease_time");
  number(code::renewal_time, "dhcp.option.renewal_time_value");
  number(code::rebinding_time, "dhcp.option.rebinding_time_value");
  address(code::requested_address, "dhcp.option.requested_ip_address");
  for (auto c : m.parameter_request_list()) f["dhcp.option.request_list_item"].push_back(std::to_string(c));
  text(code::host_name, "dhcp.option.hostname");
  text(code::domain_name, "dhcp.option.domain_name");
  text(code::vendor_class, "dhcp.option.vendor_class_id");
  if (const auto* o = m.option(code::max_message_size); o && o->value.size() == 2) {
    f["dhcp.option.dhcp_max_message_size"] = {
        std::to_string(static_cast<unsigned>(o->value[0]) << 8 | static_cast<unsigned>(o->value[1]))};
  }
  address(code::broadcast_address, "dhcp.option.broadcast_address");
  return f;
}

// What the decoders find in a capture, by frame number.
struct decoded_capture {
  std::map<long long, fields> udp, dns, dhcp;
};

class tcp_dns : public netlib::capture::stream_consumer {
 public:
  tcp_dns(decoded_capture& out, const std::map<netlib::time_point, long long>& frames) : out_(out), frames_(frames) {}
  void on_bytes(packet::tcp_direction d, netlib::byte_view b, netlib::time_point ts) override {
    auto& decoder = d == packet::tcp_direction::client_to_server ? up_ : down_;
    decoder.feed(b);
    while (auto m = decoder.next()) {
      ASSERT_TRUE(*m) << "a DNS message over TCP did not decode: " << m->error().message();
      out_.dns[frames_.at(ts)] = dns_as_tshark(**m);
    }
  }

 private:
  decoded_capture& out_;
  const std::map<netlib::time_point, long long>& frames_;
  packet::dns_stream_decoder up_, down_;
};

decoded_capture decode(const std::string& file) {
  decoded_capture out;
  std::map<netlib::time_point, long long> tcp_frames;
  netlib::capture::replay_packets(file, [&](const netlib::capture::captured_packet& p) {
    const auto frame = static_cast<long long>(p.frame);
    if (const auto* t = p.packet.tcp(); t && !t->payload.empty()) tcp_frames[p.record.ts] = frame;
    const auto* u = p.packet.udp();
    // A fragmented datagram is left out on both sides: the decoder reads the UDP header in the
    // first fragment, tshark in the frame that completes the reassembly (captures/ip).
    if (u == nullptr || p.packet.is_fragment()) return;
    out.udp[frame] = {{"udp.srcport", {std::to_string(u->src_port)}},
                      {"udp.dstport", {std::to_string(u->dst_port)}},
                      {"udp.length", {std::to_string(u->length)}},
                      {"udp.checksum", {hex(u->checksum, 4)}}};
    if (u->truncated || p.packet.is_fragment()) return;
    if (u->src_port == 53 || u->dst_port == 53) {
      const auto m = packet::decode_dns(u->payload);
      EXPECT_TRUE(m) << "frame " << frame << ": " << (m ? "" : m.error().message());
      if (m) out.dns[frame] = dns_as_tshark(*m);
    }
    const bool dhcp_ports = (u->src_port == 67 || u->src_port == 68) && (u->dst_port == 67 || u->dst_port == 68);
    if (dhcp_ports) {
      const auto m = packet::decode_dhcp(u->payload);
      EXPECT_TRUE(m) << "frame " << frame << ": " << (m ? "" : m.error().message());
      if (m) out.dhcp[frame] = dhcp_as_tshark(*m);
    }
  });
  netlib::capture::replay_conversations(
      file, [&](const packet::tcp_conversation& c) -> std::unique_ptr<netlib::capture::stream_consumer> {
        if (c.server.port != 53) return nullptr;
        return std::make_unique<tcp_dns>(out, tcp_frames);
      });
  return out;
}

// The tshark rows holding `fields`, by frame number, with the occurrences of each field.
std::map<long long, fields> by_frame(const netlab::test::tshark_result& t, const std::vector<std::string>& wanted,
                                     const std::vector<std::string>& first_only = {}) {
  std::map<long long, fields> out;
  for (const auto& row : t.rows) {
    fields f;
    for (const auto& w : wanted) {
      if (row.has(w)) f[w] = row.all(w);
    }
    for (const auto& w : first_only) {
      if (row.has(w)) f[w] = {row.first(w)};
    }
    out[row.frame()] = std::move(f);
  }
  return out;
}

void expect_same(const std::map<long long, fields>& ours, const std::map<long long, fields>& theirs,
                 const std::string& what) {
  std::set<long long> ours_frames, their_frames;
  for (const auto& [frame, f] : ours) ours_frames.insert(frame);
  for (const auto& [frame, f] : theirs) their_frames.insert(frame);
  ASSERT_EQ(ours_frames, their_frames) << what << ": not the same frames";
  for (const auto& [frame, f] : theirs) {
    const auto& mine = ours.at(frame);
    std::set<std::string> names;
    for (const auto& [k, v] : f) names.insert(k);
    for (const auto& [k, v] : mine) names.insert(k);
    for (const auto& n : names) {
      const auto a = mine.count(n) ? mine.at(n) : std::vector<std::string>{};
      const auto b = f.count(n) ? f.at(n) : std::vector<std::string>{};
      EXPECT_EQ(a, b) << what << " frame " << frame << ": " << n;
    }
  }
}

class Decoders : public testing::TestWithParam<std::string> {};

TEST_P(Decoders, AgreeWithTsharkFieldByField) {
  NETLAB_REQUIRE_PEER("tshark");
  const auto file = GetParam();
  const auto ours = decode(file);
  // One tshark run: every frame with UDP, DNS or DHCP, and every field compared.
  std::vector<std::string> wanted{"frame.number", "icmp.type",   "icmpv6.type",  "tcp.srcport",
                                  "tcp.dstport",  "ip.fragment", "ipv6.fragment"};
  for (const auto* list : {&udp_fields, &dns_fields, &dhcp_fields, &dhcp_first_fields}) {
    wanted.insert(wanted.end(), list->begin(), list->end());
  }
  const auto t = netlab::test::tshark_rows(file, "udp || dns || dhcp", wanted);
  ASSERT_TRUE(t.ok) << t.error;
  netlab::test::tshark_result udp, dns, dhcp;
  for (const auto& row : t.rows) {
    // Only the top-level UDP header: not the ones ICMP errors quote.
    if (row.has("icmp.type") || row.has("icmpv6.type")) continue;
    if (row.has("ip.fragment") || row.has("ipv6.fragment")) continue;  // reassembled: see above
    if (row.has("udp.srcport")) udp.rows.push_back(row);
    const bool port53 = row.first("udp.srcport") == "53" || row.first("udp.dstport") == "53" ||
                        row.first("tcp.srcport") == "53" || row.first("tcp.dstport") == "53";
    if (row.has("dns.id") && port53) dns.rows.push_back(row);
    if (row.has("dhcp.type")) dhcp.rows.push_back(row);
  }
  expect_same(ours.udp, by_frame(udp, udp_fields), "udp");
  expect_same(ours.dns, by_frame(dns, dns_fields), "dns");
  auto theirs = by_frame(dhcp, dhcp_fields, dhcp_first_fields);
  for (auto& [frame, f] : theirs) {  // PAD and END are not options the decoder keeps
    std::erase_if(f["dhcp.option.type"], [](const std::string& c) { return c == "0" || c == "255"; });
    if (f["dhcp.option.type"].empty()) f.erase("dhcp.option.type");
  }
  expect_same(ours.dhcp, theirs, "dhcp");
}

INSTANTIATE_TEST_SUITE_P(All, Decoders, testing::ValuesIn(netlab::test::project_captures()),
                         [](const testing::TestParamInfo<std::string>& i) {
                           return netlab::test::capture_test_name(i.param);
                         });

// The captures made for the DNS and DHCP labs hold what the comparison above is about.
TEST(DecodersCaptures, TheLabCapturesHoldTheirProtocols) {
  const auto dns = decode(netlab::test::source_path("captures/dns/resolver.pcapng"));
  EXPECT_GE(dns.dns.size(), 50u);
  std::set<std::string> types;
  for (const auto& [frame, f] : dns.dns) {
    if (f.count("dns.resp.type")) types.insert(f.at("dns.resp.type").begin(), f.at("dns.resp.type").end());
  }
  for (const char* t : {"1", "2", "5", "6", "12", "15", "16", "28", "33", "41"})
    EXPECT_TRUE(types.count(t)) << "type " << t;
  const auto dhcp = decode(netlab::test::source_path("captures/dhcp/client.pcapng"));
  EXPECT_EQ(dhcp.dhcp.size(), 7u);
}

}  // namespace packet_decoders_tshark
