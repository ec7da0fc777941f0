// TLS records and handshake messages in clear: a TLS 1.3 and a TLS 1.2 handshake built by hand
// (ClientHello with SNI, ALPN, supported versions, groups and key shares; ServerHello; a TLS 1.2
// Certificate, ServerHelloDone, ChangeCipherSpec and encrypted Finished), each fed whole, split at
// every offset and a byte at a time; a ClientHello split across two records; limits (a record too
// long, a message too long to buffer), a stream that is not TLS, a gap, GREASE, names.
#include <gtest/gtest.h>

#include <string>

#include "netlib/packet/tls.hpp"
#include "packet_bytes.hpp"
#include "support/split_feed.hpp"

namespace {

using namespace netlib::packet;
using netlab::test::packet_bytes;

// body with a length prefix of n bytes
packet_bytes vec(unsigned n, const packet_bytes& body) {
  packet_bytes p;
  if (n == 3) p.u8(body.size() >> 16);
  if (n >= 2) p.u8(body.size() >> 8);
  p.u8(body.size());
  return p.append(body);
}

packet_bytes extension(unsigned type, const packet_bytes& data) {
  packet_bytes p;
  p.be16(type);
  return p.append(vec(2, data));
}

packet_bytes handshake(unsigned type, const packet_bytes& body) {
  packet_bytes p;
  p.u8(type);
  return p.append(vec(3, body));
}

packet_bytes record(unsigned type, unsigned version, const packet_bytes& body) {
  packet_bytes p;
  p.u8(type).be16(version);
  return p.append(vec(2, body));
}

packet_bytes random32(unsigned seed) {
  packet_bytes p;
  for (unsigned i = 0; i < 32; ++i) p.u8(seed + i);
  return p;
}

packet_bytes client_hello_body() {
  packet_bytes b;
  b.be16(0x0303).append(random32(1));
  packet_bytes sid;
  for (int i = 0; i < 32; ++i) sid.u8(0xee);
  b.append(vec(1, sid));
  packet_bytes suites;
  suites.be16(0x1a1a).be16(0x1302).be16(0x1303).be16(0x1301).be16(0xc02c).be16(0x00ff);
  b.append(vec(2, suites));
  packet_bytes comp;
  comp.u8(0);
  b.append(vec(1, comp));
  packet_bytes exts;
  packet_bytes sni_name;
  sni_name.text("lab.example");
  packet_bytes sni_entry;
  sni_entry.u8(0).append(vec(2, sni_name));
  exts.append(extension(0, vec(2, sni_entry)));
  packet_bytes alpn;
  packet_bytes h2, h11;
  h2.text("h2");
  h11.text("http/1.1");
  alpn.append(vec(1, h2)).append(vec(1, h11));
  exts.append(extension(16, vec(2, alpn)));
  packet_bytes versions;
  versions.be16(0x0304).be16(0x0303);
  exts.append(extension(43, vec(1, versions)));
  packet_bytes groups;
  groups.be16(0x001d).be16(0x0017).be16(0x001e).be16(0x0019).be16(0x0018);
  exts.append(extension(10, vec(2, groups)));
  packet_bytes sigs;
  sigs.be16(0x0403).be16(0x0804);
  exts.append(extension(13, vec(2, sigs)));
  packet_bytes share;
  packet_bytes key;
  for (int i = 0; i < 32; ++i) key.u8(i);
  share.be16(0x001d).append(vec(2, key));
  exts.append(extension(51, vec(2, share)));
  b.append(vec(2, exts));
  return b;
}

packet_bytes server_hello_body(bool tls13) {
  packet_bytes b;
  b.be16(0x0303).append(random32(100));
  packet_bytes sid;
  b.append(vec(1, sid));
  b.be16(tls13 ? 0x1302 : 0xc030).u8(0);
  packet_bytes exts;
  if (tls13) {
    packet_bytes v;
    v.be16(0x0304);
    exts.append(extension(43, v));
    packet_bytes share;
    packet_bytes key;
    for (int i = 0; i < 32; ++i) key.u8(i);
    share.be16(0x001d).append(vec(2, key));
    exts.append(extension(51, share));
  } else {
    packet_bytes alpn, h11;
    h11.text("http/1.1");
    alpn.append(vec(1, h11));
    exts.append(extension(16, vec(2, alpn)));
  }
  b.append(vec(2, exts));
  return b;
}

packet_bytes opaque(std::size_t n, unsigned seed) {
  packet_bytes p;
  for (std::size_t i = 0; i < n; ++i) p.u8(seed + i * 13);
  return p;
}

struct conversation {
  std::string client, server;
};

std::string text(const packet_bytes& p) {
  return std::string(reinterpret_cast<const char*>(p.b.data()), p.size());
}

conversation tls13() {
  packet_bytes c, s;
  c.append(record(22, 0x0301, handshake(1, client_hello_body())));
  s.append(record(22, 0x0303, handshake(2, server_hello_body(true))));
  packet_bytes ccs;
  ccs.u8(1);
  s.append(record(20, 0x0303, ccs));
  s.append(record(23, 0x0303, opaque(900, 3)));  // EncryptedExtensions .. Finished
  c.append(record(20, 0x0303, ccs));
  c.append(record(23, 0x0303, opaque(53, 5)));   // Finished
  c.append(record(23, 0x0303, opaque(100, 7)));  // a request
  s.append(record(23, 0x0303, opaque(300, 9)));  // the response
  return {text(c), text(s)};
}

void feed(tls_analyzer& a, const netlab::test::pieces& pieces, bool client) {
  for (auto p : pieces) {
    const auto b = netlib::as_bytes(p);
    if (client)
      a.client_bytes(b);
    else
      a.server_bytes(b);
  }
}

void expect_tls13(const tls_session& s) {
  ASSERT_TRUE(s.is_tls());
  EXPECT_FALSE(s.error) << *s.error;
  ASSERT_TRUE(s.client_hello);
  const auto& ch = *s.client_hello;
  EXPECT_EQ(ch.legacy_version, 0x0303);
  EXPECT_EQ(ch.session_id_length, 32u);
  EXPECT_EQ(ch.cipher_suites.size(), 6u);
  EXPECT_TRUE(tls_is_grease(ch.cipher_suites[0]));
  EXPECT_EQ(ch.server_name, "lab.example");
  EXPECT_EQ(ch.alpn, (std::vector<std::string>{"h2", "http/1.1"}));
  EXPECT_EQ(ch.supported_versions, (std::vector<std::uint16_t>{0x0304, 0x0303}));
  EXPECT_EQ(ch.supported_groups.size(), 5u);
  EXPECT_EQ(ch.key_share_groups, std::vector<std::uint16_t>{0x001d});
  EXPECT_EQ(ch.signature_algorithms.size(), 2u);
  EXPECT_EQ(ch.extensions, (std::vector<std::uint16_t>{0, 16, 43, 10, 13, 51}));
  ASSERT_TRUE(s.server_hello);
  EXPECT_EQ(s.server_hello->version(), 0x0304);
  EXPECT_EQ(s.server_hello->cipher_suite, 0x1302);
  EXPECT_EQ(s.server_hello->key_share_group, 0x001d);
  EXPECT_FALSE(s.server_hello->hello_retry_request);
  EXPECT_EQ(s.client.records, 4u);
  EXPECT_EQ(s.server.records, 4u);
  EXPECT_EQ(s.client.application_data_records, 2u);
  EXPECT_EQ(s.server.application_data_records, 2u);
  EXPECT_EQ(s.server.application_data_bytes, 1200u);
  EXPECT_EQ(s.client_messages, std::vector<std::uint8_t>{1});
  EXPECT_EQ(s.server_messages, std::vector<std::uint8_t>{2});
  ASSERT_EQ(s.records.size(), 8u);
  EXPECT_EQ(s.records[0].version, 0x0301);
  EXPECT_EQ(s.records[0].messages, std::vector<std::uint8_t>{1});
  EXPECT_FALSE(s.certificates);
}

TEST(Tls, Tls13HandshakeWholeAndSplitAtEveryOffset) {
  const auto conv = tls13();
  netlab::test::for_each_split(conv.client, [&](const netlab::test::pieces& pieces) {
    tls_analyzer a;
    feed(a, pieces, true);
    feed(a, {conv.server}, false);
    expect_tls13(a.session());
  });
  netlab::test::for_each_split(conv.server, [&](const netlab::test::pieces& pieces) {
    tls_analyzer a;
    feed(a, {conv.client}, true);
    feed(a, pieces, false);
    expect_tls13(a.session());
  });
}

TEST(Tls, EveryPrefixIsIncompleteNotWrong) {
  const auto conv = tls13();
  netlab::test::for_each_prefix(conv.client, [&](std::string_view prefix) {
    tls_analyzer a;
    a.client_bytes(netlib::as_bytes(prefix));
    EXPECT_FALSE(a.session().error);
    if (a.session().client_hello) {
      EXPECT_EQ(a.session().client_hello->server_name, "lab.example");
    }
  });
}

conversation tls12() {
  packet_bytes c, s;
  c.append(record(22, 0x0301, handshake(1, client_hello_body())));
  // ServerHello, Certificate (two certificates), ServerKeyExchange, ServerHelloDone in one record.
  packet_bytes certs, list;
  list.append(vec(3, opaque(300, 1))).append(vec(3, opaque(200, 2)));
  certs.append(vec(3, list));
  packet_bytes flight;
  flight.append(handshake(2, server_hello_body(false))).append(handshake(11, certs));
  flight.append(handshake(12, opaque(100, 4))).append(handshake(14, packet_bytes{}));
  s.append(record(22, 0x0303, flight));
  packet_bytes ccs;
  ccs.u8(1);
  packet_bytes keyx;
  keyx.append(handshake(16, vec(1, opaque(32, 6))));
  c.append(record(22, 0x0303, keyx)).append(record(20, 0x0303, ccs)).append(record(22, 0x0303, opaque(40, 8)));
  s.append(record(20, 0x0303, ccs)).append(record(22, 0x0303, opaque(40, 10)));
  c.append(record(23, 0x0303, opaque(120, 11)));
  packet_bytes alert = opaque(26, 12);
  c.append(record(21, 0x0303, alert));  // close_notify, encrypted
  return {text(c), text(s)};
}

void expect_tls12(const tls_session& s) {
  EXPECT_FALSE(s.error) << *s.error;
  ASSERT_TRUE(s.server_hello);
  EXPECT_EQ(s.server_hello->version(), 0x0303);
  EXPECT_EQ(s.server_hello->cipher_suite, 0xc030);
  EXPECT_EQ(s.server_hello->alpn, "http/1.1");
  EXPECT_EQ(s.certificates, 2u);
  EXPECT_EQ(s.server_messages, (std::vector<std::uint8_t>{2, 11, 12, 14}));
  EXPECT_EQ(s.client_messages, (std::vector<std::uint8_t>{1, 16}));
  EXPECT_EQ(s.client.encrypted_handshake_records, 1u);
  EXPECT_EQ(s.server.encrypted_handshake_records, 1u);
  EXPECT_EQ(s.client.change_cipher_spec_records, 1u);
  EXPECT_EQ(s.client.alert_records, 1u);
  EXPECT_EQ(s.client.application_data_records, 1u);
  // The server's first record holds its four messages.
  const tls_record* first_server = nullptr;
  for (const auto& r : s.records) {
    if (!r.from_client) {
      first_server = &r;
      break;
    }
  }
  ASSERT_NE(first_server, nullptr);
  EXPECT_EQ(first_server->messages, (std::vector<std::uint8_t>{2, 11, 12, 14}));
  EXPECT_FALSE(first_server->encrypted);
  EXPECT_TRUE(s.records.back().encrypted);
}

TEST(Tls, Tls12FlightInOneRecordThenEncryptedFinished) {
  const auto conv = tls12();
  netlab::test::for_each_split(conv.server, [&](const netlab::test::pieces& pieces) {
    tls_analyzer a;
    feed(a, {conv.client.substr(0, conv.client.size() / 4)}, true);
    feed(a, pieces, false);
    feed(a, {conv.client.substr(conv.client.size() / 4)}, true);
    expect_tls12(a.session());
  });
}

// RFC 8446 §5.1: handshake messages may be split across records.
TEST(Tls, ClientHelloSplitAcrossRecords) {
  const auto message = handshake(1, client_hello_body());
  packet_bytes first, second;
  first.b.assign(message.b.begin(), message.b.begin() + 2);  // cut inside the 4-byte header
  second.b.assign(message.b.begin() + 2, message.b.end());
  const auto stream = text(record(22, 0x0301, first).append(record(22, 0x0301, second)));
  netlab::test::for_each_split(stream, [&](const netlab::test::pieces& pieces) {
    tls_analyzer a;
    feed(a, pieces, true);
    ASSERT_TRUE(a.session().client_hello);
    EXPECT_EQ(a.session().client_hello->server_name, "lab.example");
    ASSERT_EQ(a.session().records.size(), 2u);
    EXPECT_TRUE(a.session().records[0].messages.empty());
    EXPECT_EQ(a.session().records[1].messages, std::vector<std::uint8_t>{1}) << "the record it ends in";
  });
}

TEST(Tls, RecordTooLongStopsTheDirection) {
  packet_bytes s;
  s.u8(22).be16(0x0303).be16(16384 + 2048 + 1);
  tls_analyzer a;
  a.client_bytes(netlib::as_bytes(tls13().client));
  a.server_bytes(s.b);
  ASSERT_TRUE(a.session().error);
  EXPECT_NE(a.session().error->find("record of 18433 bytes"), std::string::npos) << *a.session().error;
  EXPECT_FALSE(a.session().server.decoding);
  EXPECT_TRUE(a.session().client_hello) << "the other direction is not affected";
}

TEST(Tls, MessageLongerThanTheBufferIsCountedNotBuffered) {
  tls_limits small;
  small.max_handshake_message = 100;
  // A 300-byte Certificate in two records, then ServerHelloDone.
  packet_bytes certs, list;
  list.append(vec(3, opaque(294, 1)));
  certs.append(vec(3, list));
  const auto message = handshake(11, certs);
  packet_bytes a_half, b_half;
  a_half.b.assign(message.b.begin(), message.b.begin() + 150);
  b_half.b.assign(message.b.begin() + 150, message.b.end());
  b_half.append(handshake(14, packet_bytes{}));
  packet_bytes s;
  s.append(record(22, 0x0303, handshake(2, server_hello_body(false))));
  s.append(record(22, 0x0303, a_half)).append(record(22, 0x0303, b_half));
  tls_analyzer a(small);
  a.server_bytes(s.b);
  const auto& ss = a.session();
  EXPECT_FALSE(ss.error);
  EXPECT_EQ(ss.server.oversized_messages, 1u);
  EXPECT_EQ(ss.server_messages, (std::vector<std::uint8_t>{2, 11, 14}));
  EXPECT_FALSE(ss.certificates) << "not buffered, not decoded";
  ASSERT_EQ(ss.records.size(), 3u);
  EXPECT_EQ(ss.records[2].messages, (std::vector<std::uint8_t>{11, 14}));
}

TEST(Tls, NotTlsIsNotDecoded) {
  tls_analyzer a;
  a.client_bytes(netlib::as_bytes(std::string_view("GET / HTTP/1.1\r\nHost: x\r\n\r\n")));
  a.server_bytes(netlib::as_bytes(std::string_view("HTTP/1.1 200 OK\r\n\r\n")));
  EXPECT_FALSE(a.session().is_tls());
  EXPECT_FALSE(a.session().error);
  EXPECT_TRUE(a.session().records.empty());
}

TEST(Tls, GapStopsOnlyItsDirection) {
  const auto conv = tls13();
  tls_analyzer a;
  a.client_bytes(netlib::as_bytes(conv.client));
  a.server_bytes(netlib::as_bytes(std::string_view(conv.server).substr(0, 20)));
  a.gap(false, 1000);
  a.server_bytes(netlib::as_bytes(std::string_view(conv.server).substr(20)));
  EXPECT_TRUE(a.session().client_hello);
  EXPECT_FALSE(a.session().server_hello);
  EXPECT_FALSE(a.session().server.decoding);
  ASSERT_TRUE(a.session().error);
}

TEST(Tls, MalformedHelloIsAnErrorNotACrash) {
  auto body = client_hello_body();
  body.b.resize(body.b.size() - 3);  // the extensions' length now overshoots
  EXPECT_FALSE(decode_client_hello(body.b));
  for (std::size_t k = 0; k < body.size(); ++k) (void)decode_client_hello(netlib::byte_view(body.b).first(k));
  tls_analyzer a;
  a.client_bytes(record(22, 0x0301, handshake(1, body)).b);
  EXPECT_EQ(a.session().error, "client: malformed ClientHello");
}

TEST(Tls, Names) {
  EXPECT_EQ(tls_version_name(0x0303), "TLS 1.2");
  EXPECT_EQ(tls_version_name(0x0304), "TLS 1.3");
  EXPECT_EQ(tls_version_name(0x3a3a), "GREASE");
  EXPECT_EQ(tls_version_name(0x7f1c), "0x7f1c");
  EXPECT_EQ(tls_cipher_suite_name(0x1302), "TLS_AES_256_GCM_SHA384");
  EXPECT_EQ(tls_cipher_suite_name(0xc02f), "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256");
  EXPECT_EQ(tls_cipher_suite_name(0x00ff), "TLS_EMPTY_RENEGOTIATION_INFO_SCSV");
  EXPECT_FALSE(tls_cipher_suite_name(0x0a0a));
  EXPECT_EQ(tls_group_name(0x001d), "x25519");
  EXPECT_EQ(tls_handshake_name(11), "Certificate");
  EXPECT_EQ(tls_content_name(23), "application_data");
}

}  // namespace
