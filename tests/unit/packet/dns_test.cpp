// DNS message decoding on hand-made messages: every record type the labs ask about, name
// compression and its limits (loops, forward pointers, pointer chains, long names, bad label
// types), every truncation, the record limit, EDNS(0), and DNS over TCP fed in every split.
#include <gtest/gtest.h>

#include <string>

#include "netlib/packet/dns.hpp"
#include "packet_bytes.hpp"
#include "support/split_feed.hpp"

namespace dns_test {

using namespace netlib::packet;
using netlab::test::packet_bytes;

// Uncompressed wire form of a dotted name.
packet_bytes name(std::string_view dotted) {
  packet_bytes p;
  std::size_t start = 0;
  while (start < dotted.size()) {
    auto dot = dotted.find('.', start);
    if (dot == std::string_view::npos) dot = dotted.size();
    p.u8(static_cast<unsigned>(dot - start)).text(dotted.substr(start, dot - start));
    start = dot + 1;
  }
  return p.u8(0);
}

netlib::byte_view view(const packet_bytes& p) {
  return {p.b.data(), p.b.size()};
}

// A query for www.campus.test A with an OPT record (payload 1232, DO set, a cookie option).
packet_bytes query() {
  packet_bytes p;
  p.be16(0xbeef).be16(0x0120).be16(1).be16(0).be16(0).be16(1);  // RD, AD
  p.append(name("www.campus.test")).be16(1).be16(1);
  p.u8(0).be16(41).be16(1232).be32(0x00008000).be16(12).be16(10).be16(8).bytes({1, 2, 3, 4, 5, 6, 7, 8});
  return p;
}

// The response: www.campus.test (offset 12) is reused by pointers 0xc00c.
packet_bytes response() {
  packet_bytes p;
  p.be16(0xbeef).be16(0x8580).be16(1).be16(9).be16(1).be16(1);  // QR AA RD RA
  p.append(name("www.campus.test")).be16(1).be16(1);
  const auto ptr = [&p] { p.be16(0xc00c); };
  ptr();
  p.be16(1).be16(1).be32(300).be16(4).bytes({10, 53, 0, 80});  // A
  ptr();
  p.be16(28).be16(1).be32(300).be16(16).bytes({0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80});
  ptr();
  p.be16(5).be16(1).be32(60).be16(6).u8(3).text("web").be16(0xc010);  // CNAME web.campus.test
  ptr();
  p.be16(2).be16(1).be32(86400).be16(5).u8(2).text("ns").be16(0xc010);  // NS ns.campus.test
  ptr();
  p.be16(15).be16(1).be32(3600).be16(9).be16(10).u8(4).text("mail").be16(0xc010);  // MX 10 mail.campus.test
  ptr();
  p.be16(16).be16(1).be32(60).be16(10).u8(3).text("v=1").u8(5).text("a b.c");  // TXT two strings
  ptr();
  p.be16(12).be16(1).be32(60).be16(2).be16(0xc00c);  // PTR www.campus.test
  ptr();
  p.be16(33).be16(1).be32(60).be16(8).be16(1).be16(5).be16(8080).be16(0xc00c);  // SRV 1 5 8080 www
  ptr();
  p.be16(99).be16(1).be32(60).be16(3).bytes({0xaa, 0xbb, 0xcc});  // TYPE99, raw
  // Authority: SOA campus.test (pointer to offset 16).
  p.be16(0xc010).be16(6).be16(1).be32(900).be16(2 + 2 + 20).be16(0xc017).be16(0xc017);
  p.be32(2026120101).be32(7200).be32(3600).be32(1209600).be32(300);
  // Additional: OPT, payload 4096, extended RCODE 0, version 0.
  p.u8(0).be16(41).be16(4096).be32(0).be16(0);
  return p;
}

TEST(Dns, DecodesAQueryWithEdns) {
  const auto q = query();
  const auto m = decode_dns(view(q));
  ASSERT_TRUE(m) << m.error().message();
  EXPECT_EQ(m->header.id, 0xbeef);
  EXPECT_FALSE(m->header.response);
  EXPECT_TRUE(m->header.recursion_desired);
  EXPECT_TRUE(m->header.authentic_data);
  EXPECT_FALSE(m->header.recursion_available);
  EXPECT_EQ(m->header.opcode, 0);
  ASSERT_EQ(m->questions.size(), 1u);
  EXPECT_EQ(m->questions[0].name, "www.campus.test");
  EXPECT_EQ(dns_type_name(m->questions[0].type), "A");
  ASSERT_NE(m->edns(), nullptr);
  EXPECT_EQ(m->edns()->udp_payload_size, 1232);
  EXPECT_TRUE(m->edns()->dnssec_ok);
  ASSERT_EQ(m->edns()->options.size(), 1u);
  EXPECT_EQ(m->edns()->options[0].code, 10);  // COOKIE (RFC 7873)
  EXPECT_EQ(m->edns()->options[0].data.size(), 8u);
}

TEST(Dns, DecodesEveryCommonRecordTypeWithCompression) {
  const auto r = response();
  const auto m = decode_dns(view(r));
  ASSERT_TRUE(m) << m.error().message();
  EXPECT_TRUE(m->header.response);
  EXPECT_TRUE(m->header.authoritative);
  EXPECT_TRUE(m->header.recursion_available);
  EXPECT_EQ(m->rcode(), 0);
  ASSERT_EQ(m->answers.size(), 9u);
  for (const auto& a : m->answers) EXPECT_EQ(a.name, "www.campus.test");
  EXPECT_EQ(std::get<ip_address>(m->answers[0].data).to_string(), "10.53.0.80");
  EXPECT_EQ(m->answers[0].ttl, 300u);
  EXPECT_EQ(std::get<ip_address>(m->answers[1].data).to_string(), "2001:db8::80");
  EXPECT_EQ(std::get<dns_name_data>(m->answers[2].data).name, "web.campus.test");
  EXPECT_EQ(std::get<dns_name_data>(m->answers[3].data).name, "ns.campus.test");
  EXPECT_EQ(std::get<dns_mx>(m->answers[4].data).preference, 10);
  EXPECT_EQ(std::get<dns_mx>(m->answers[4].data).exchange, "mail.campus.test");
  EXPECT_EQ(std::get<dns_txt>(m->answers[5].data).strings, (std::vector<std::string>{"v=1", "a b.c"}));
  EXPECT_EQ(std::get<dns_name_data>(m->answers[6].data).name, "www.campus.test");
  const auto& srv = std::get<dns_srv>(m->answers[7].data);
  EXPECT_EQ(srv.priority, 1);
  EXPECT_EQ(srv.weight, 5);
  EXPECT_EQ(srv.port, 8080);
  EXPECT_EQ(srv.target, "www.campus.test");
  EXPECT_EQ(dns_type_name(m->answers[8].type), "TYPE99");
  EXPECT_EQ(std::get<dns_raw>(m->answers[8].data).bytes.size(), 3u);
  ASSERT_EQ(m->authority.size(), 1u);
  const auto& soa = std::get<dns_soa>(m->authority[0].data);
  EXPECT_EQ(m->authority[0].name, "campus.test");
  EXPECT_EQ(soa.mname, "test");  // the pointer 0xc017 lands on the "test" label of the question
  EXPECT_EQ(soa.serial, 2026120101u);
  EXPECT_EQ(soa.minimum, 300u);
  ASSERT_NE(m->edns(), nullptr);
  EXPECT_EQ(m->edns()->udp_payload_size, 4096);
}

TEST(Dns, EveryTruncationIsAnErrorNeverAnOverRead) {
  const auto r = response();
  for (std::size_t n = 0; n < r.size(); ++n) {
    const netlib::byte_view cut(r.b.data(), n);
    const auto m = decode_dns(cut);
    ASSERT_FALSE(m) << "prefix of " << n << " bytes decoded";
    const auto reason = m.error().reason;
    EXPECT_TRUE(reason == "truncated header" || reason == "truncated question" || reason == "truncated record" ||
                reason == "bad record data")
        << n << ": " << reason;
  }
}

packet_bytes header_with_question_bytes(const packet_bytes& qname) {
  packet_bytes p;
  p.be16(1).be16(0).be16(1).be16(0).be16(0).be16(0);
  return p.append(qname).be16(1).be16(1);
}

TEST(Dns, CompressionPointersCannotLoopOrPointForward) {
  packet_bytes self;  // the question's name is a pointer to itself (offset 12)
  self.be16(0xc00c);
  EXPECT_EQ(decode_dns(view(header_with_question_bytes(self))).error().reason, "compression pointer loop");
  packet_bytes forward;  // a pointer past itself
  forward.be16(0xc020);
  EXPECT_EQ(decode_dns(view(header_with_question_bytes(forward))).error().reason, "compression pointer loop");
  // A label, then a pointer back to that label: the name would repeat "a" for ever.
  packet_bytes back;
  back.be16(1).be16(0x8000).be16(0).be16(1).be16(0).be16(0);
  back.u8(1).text("a").be16(0xc00c);  // offset 12: "a", then a pointer to offset 12
  EXPECT_EQ(decode_dns(view(back)).error().reason, "compression pointer loop");
}

TEST(Dns, PointerChainsAndLongNamesAreLimited) {
  // A chain of pointers, each to the one before: legal, but more jumps than allowed. The chain
  // lies in the first record's RDATA (a root label, then 70 pointers); the second record's name
  // points at its end.
  packet_bytes p;
  p.be16(1).be16(0x8000).be16(0).be16(2).be16(0).be16(0);
  p.u8(0).be16(99).be16(1).be32(0).be16(1 + 2 * 70);
  const unsigned root = static_cast<unsigned>(p.size());
  p.u8(0);
  for (int i = 0; i < 70; ++i) p.be16(0xc000 | (i == 0 ? root : static_cast<unsigned>(p.size() - 2)));
  p.be16(0xc000 | static_cast<unsigned>(p.size() - 2)).be16(99).be16(1).be32(0).be16(0);
  dns_limits limits;
  const auto m = decode_dns(view(p), limits);
  ASSERT_FALSE(m);
  EXPECT_EQ(m.error().reason, "too many compression pointers");
  limits.max_pointer_jumps = 100;
  const auto ok = decode_dns(view(p), limits);
  ASSERT_TRUE(ok) << ok.error().message();
  ASSERT_EQ(ok->answers.size(), 2u);
  EXPECT_EQ(ok->answers[1].name, "");  // the root

  // 5 labels of 63 octets: 320 octets, over the 255 of RFC 1035 §2.3.4.
  std::string long_name;
  for (int i = 0; i < 5; ++i) long_name += std::string(63, 'a' + i) + (i < 4 ? "." : "");
  EXPECT_EQ(decode_dns(view(header_with_question_bytes(name(long_name)))).error().reason, "name too long");
  // 3 labels of 63 and one of 61: 253 + 1 + 1 = 255, the longest legal name.
  const std::string longest =
      std::string(63, 'a') + "." + std::string(63, 'b') + "." + std::string(63, 'c') + "." + std::string(61, 'd');
  const auto l = decode_dns(view(header_with_question_bytes(name(longest))));
  ASSERT_TRUE(l) << l.error().message();
  EXPECT_EQ(l->questions[0].name, longest);
  packet_bytes bad;  // a label length with the 0x40 bits (extended label types, RFC 6891 §5)
  bad.u8(0x41).text("x").u8(0);
  EXPECT_EQ(decode_dns(view(header_with_question_bytes(bad))).error().reason, "bad label type");
}

TEST(Dns, RecordCountsAreLimitedBeforeReading) {
  packet_bytes p;
  p.be16(1).be16(0x8000).be16(0).be16(65535).be16(65535).be16(65535);
  EXPECT_EQ(decode_dns(view(p)).error().reason, "too many records");
  dns_limits small;
  small.max_records = 1;
  const auto r = response();
  EXPECT_EQ(decode_dns(view(r), small).error().reason, "too many records");
}

TEST(Dns, RecordDataOfTheWrongSizeIsRejected) {
  packet_bytes a;  // an A record with 5 bytes
  a.be16(1).be16(0x8000).be16(0).be16(1).be16(0).be16(0).u8(0).be16(1).be16(1).be32(0).be16(5).bytes({1, 2, 3, 4, 5});
  EXPECT_EQ(decode_dns(view(a)).error().reason, "bad record data");
  packet_bytes cname;  // a CNAME whose name runs past RDLENGTH (2 bytes for a 5-byte name)
  cname.be16(1).be16(0x8000).be16(0).be16(1).be16(0).be16(0).u8(0).be16(5).be16(1).be32(0).be16(2);
  cname.u8(3).text("abc").u8(0);
  EXPECT_EQ(decode_dns(view(cname)).error().reason, "bad record data");
  packet_bytes txt;  // a TXT string longer than the RDATA
  txt.be16(1).be16(0x8000).be16(0).be16(1).be16(0).be16(0).u8(0).be16(16).be16(1).be32(0).be16(3).u8(9).text("ab");
  EXPECT_EQ(decode_dns(view(txt)).error().reason, "bad record data");
  packet_bytes opt;  // an EDNS option whose length runs past the RDATA
  opt.be16(1).be16(0).be16(0).be16(0).be16(0).be16(1).u8(0).be16(41).be16(512).be32(0).be16(5).be16(10).be16(9).u8(1);
  EXPECT_EQ(decode_dns(view(opt)).error().reason, "bad record data");
}

TEST(Dns, NamesAreEscapedAsInMasterFiles) {
  packet_bytes n;
  n.u8(5).text("a.b\\c").u8(3).bytes({'x', ' ', 0xff}).u8(0);
  const auto m = decode_dns(view(header_with_question_bytes(n)));
  ASSERT_TRUE(m);
  EXPECT_EQ(m->questions[0].name, "a\\.b\\\\c.x\\032\\255");
}

TEST(Dns, ExtendedRcodeAndNames) {
  packet_bytes p;  // header RCODE 0, OPT extended RCODE 1: 16 = BADVERS (RFC 6891 §9)
  p.be16(7).be16(0x8000).be16(0).be16(0).be16(0).be16(1).u8(0).be16(41).be16(1232).be32(0x01000000).be16(0);
  const auto m = decode_dns(view(p));
  ASSERT_TRUE(m);
  EXPECT_EQ(m->rcode(), 16);
  EXPECT_EQ(dns_rcode_name(m->rcode()), "BADVERS");
  EXPECT_EQ(dns_rcode_name(3), "NXDOMAIN");
  EXPECT_EQ(dns_rcode_name(12), "RCODE12");
  EXPECT_EQ(dns_type_name(28), "AAAA");
  EXPECT_EQ(dns_type_name(65280), "TYPE65280");
  EXPECT_EQ(dns_opcode_name(5), "UPDATE");
}

// Two messages behind their two-byte lengths, then a zero-length one: every split of the stream
// gives the same two messages, then the error, and nothing left over.
TEST(DnsStream, TcpFramingInEverySplit) {
  const auto q = query(), r = response();
  std::string stream;
  for (const auto* m : {&q, &r}) {
    stream += static_cast<char>(m->size() >> 8);
    stream += static_cast<char>(m->size() & 0xff);
    stream.append(reinterpret_cast<const char*>(m->b.data()), m->size());
  }
  stream += std::string(2, '\0');
  netlab::test::for_each_split(stream, [&](const netlab::test::pieces& pieces) {
    dns_stream_decoder d;
    std::vector<decoded<dns_message>> out;
    for (auto piece : pieces) {
      d.feed(netlib::as_bytes(piece));
      while (auto m = d.next()) out.push_back(std::move(*m));
    }
    ASSERT_EQ(out.size(), 3u);
    ASSERT_TRUE(out[0]);
    EXPECT_FALSE(out[0]->header.response);
    ASSERT_TRUE(out[1]);
    EXPECT_EQ(out[1]->answers.size(), 9u);
    ASSERT_FALSE(out[2]);
    EXPECT_EQ(out[2].error().reason, "truncated header");
    EXPECT_EQ(d.buffered(), 0u);
  });
}

TEST(DnsStream, APartialMessageWaits) {
  dns_stream_decoder d;
  const unsigned char head[] = {0x01, 0x00, 0xab};  // 256 bytes announced, one given
  d.feed(netlib::byte_view(reinterpret_cast<const std::byte*>(head), sizeof head));
  EXPECT_FALSE(d.next());
  EXPECT_EQ(d.buffered(), 3u);
}

}  // namespace dns_test
