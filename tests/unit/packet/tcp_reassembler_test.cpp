// Conversations: client choice, handshake/teardown state, both directions reassembled, release
// of finished conversations (at once when they end, with a tombstone for late packets), port
// reuse, the compact form of conversations without payload, and bounded memory over a long
// capture.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <map>
#include <string>
#include <vector>

#include "netlib/packet/tcp_reassembler.hpp"
#include "packet_bytes.hpp"

namespace {

using namespace netlib::packet;

struct recorder : tcp_visitor {
  std::map<std::uint64_t, std::string> to_server, to_client;
  std::vector<tcp_conversation> opened, closed;
  std::vector<std::string> segments;
  void on_open(const tcp_conversation& c) override { opened.push_back(c); }
  void on_segment(const tcp_conversation& c, tcp_direction d, const tcp_header& t, netlib::time_point) override {
    segments.push_back(fmt::format("{}{} {}", c.id, d == tcp_direction::client_to_server ? ">" : "<", t.flag_names()));
  }
  void on_data(const tcp_conversation& c, tcp_direction d, netlib::byte_view b, netlib::time_point) override {
    (d == tcp_direction::client_to_server ? to_server : to_client)[c.id] += netlib::as_chars(b);
  }
  void on_gap(const tcp_conversation& c, tcp_direction d, std::uint64_t n, netlib::time_point) override {
    (d == tcp_direction::client_to_server ? to_server : to_client)[c.id] += fmt::format("[gap {}]", n);
  }
  void on_end_of_stream(const tcp_conversation& c, tcp_direction d, netlib::time_point) override {
    (d == tcp_direction::client_to_server ? to_server : to_client)[c.id] += "<end>";
  }
  void on_close(const tcp_conversation& c) override { closed.push_back(c); }
};

const ip_address client_ip = *ip_address::parse("10.0.0.1");
const ip_address server_ip = *ip_address::parse("10.0.0.2");

// Scripted segments of one connection; `std::string data` outlives each feed.
struct script {
  tcp_reassembler& r;
  std::uint16_t cport = 40000, sport = 80;
  std::int64_t t = 0;
  void c2s(std::uint8_t flags, std::uint32_t seq, std::uint32_t ack, const std::string& data = {}) {
    send(true, flags, seq, ack, data);
  }
  void s2c(std::uint8_t flags, std::uint32_t seq, std::uint32_t ack, const std::string& data = {}) {
    send(false, flags, seq, ack, data);
  }
  void send(bool up, std::uint8_t flags, std::uint32_t seq, std::uint32_t ack, const std::string& data) {
    tcp_header h;
    h.src_port = up ? cport : sport;
    h.dst_port = up ? sport : cport;
    h.seq = seq;
    h.ack = ack;
    h.flags = flags;
    h.payload = netlib::as_bytes(data);
    r.feed(up ? client_ip : server_ip, up ? server_ip : client_ip, h, netlib::from_nanoseconds(t));
    t += 1'000'000;
  }
};

constexpr std::uint8_t syn = tcp_flag::syn, ack = tcp_flag::ack, fin = tcp_flag::fin, psh = tcp_flag::psh,
                       rst = tcp_flag::rst;

void full_exchange(script& s, std::uint32_t c = 100, std::uint32_t v = 5000) {
  s.c2s(syn, c, 0);
  s.s2c(syn | ack, v, c + 1);
  s.c2s(ack, c + 1, v + 1);
  s.c2s(psh | ack, c + 1, v + 1, "GET / HTTP/1.1\r\n\r\n");
  s.s2c(psh | ack, v + 1, c + 19, "HTTP/1.1 200 OK\r\n");
  s.s2c(fin | ack, v + 18, c + 19);
  s.c2s(fin | ack, c + 19, v + 19);
  s.s2c(ack, v + 19, c + 20);
}

TEST(TcpReassembler, HandshakeDataTeardown) {
  recorder rec;
  tcp_reassembler r(rec);
  script s{r};
  full_exchange(s);
  r.finish();
  ASSERT_EQ(rec.closed.size(), 1u);
  const auto& c = rec.closed[0];
  EXPECT_EQ(c.client.to_string(), "10.0.0.1:40000");
  EXPECT_EQ(c.server.to_string(), "10.0.0.2:80");
  EXPECT_TRUE(c.handshake_seen);
  EXPECT_EQ(c.state, tcp_conversation_state::closed);
  EXPECT_EQ(c.packets, 8u);  // the last ACK after both FINs still counts
  EXPECT_EQ(c.to_server.payload_bytes, 18u);
  EXPECT_EQ(c.to_client.payload_bytes, 17u);
  EXPECT_EQ(c.to_server.gaps + c.to_client.gaps, 0u);
  EXPECT_EQ(rec.to_server[0], "GET / HTTP/1.1\r\n\r\n<end>");
  EXPECT_EQ(rec.to_client[0], "HTTP/1.1 200 OK\r\n<end>");
  EXPECT_EQ(rec.segments.front(), "0> SYN");
  EXPECT_EQ(rec.segments[1], "0< SYN,ACK");
  EXPECT_EQ(c.last_ts - c.first_ts, std::chrono::milliseconds(7));
}

TEST(TcpReassembler, StateTransitions) {
  recorder rec;
  tcp_reassembler r(rec);
  script s{r};
  std::vector<tcp_conversation_state> states;
  struct watcher : recorder {
    std::vector<tcp_conversation_state>* out;
    void on_segment(const tcp_conversation& c, tcp_direction, const tcp_header&, netlib::time_point) override {
      out->push_back(c.state);
    }
  } w;
  w.out = &states;
  tcp_reassembler r2(w);
  script s2{r2};
  full_exchange(s2);
  using st = tcp_conversation_state;
  EXPECT_EQ(states, (std::vector<st>{st::syn_sent, st::syn_received, st::established, st::established, st::established,
                                     st::closing, st::closed, st::closed}));
  s.c2s(syn, 1, 0);
  s.s2c(rst | ack, 0, 2);
  r.finish();
  EXPECT_EQ(rec.closed.at(0).state, st::reset);
  EXPECT_TRUE(rec.closed.at(0).to_client.rst);
}

TEST(TcpReassembler, ClientIsTheSynSenderEvenWhenTheSynAckComesFirst) {
  recorder rec;
  tcp_reassembler r(rec);
  script s{r};
  s.s2c(syn | ack, 5000, 101);  // the SYN was not captured
  s.c2s(psh | ack, 101, 5001, "hello");
  s.sport = 81;
  s.s2c(psh | ack, 9000, 700, "banner");  // mid-stream: first sender is the "client"
  r.finish();
  ASSERT_EQ(rec.closed.size(), 2u);
  EXPECT_EQ(rec.closed[0].client.to_string(), "10.0.0.1:40000");
  EXPECT_FALSE(rec.closed[0].handshake_seen);
  EXPECT_EQ(rec.to_server[0], "hello<end>");
  EXPECT_EQ(rec.closed[1].client.to_string(), "10.0.0.2:81");
  EXPECT_EQ(rec.to_server[1], "banner<end>");
}

TEST(TcpReassembler, ReorderedRetransmittedAndLostSegmentsInBothDirections) {
  recorder rec;
  tcp_reassembler r(rec);
  script s{r};
  s.c2s(syn, 0xfffffffa, 0);  // wraps during the request
  s.s2c(syn | ack, 7, 0xfffffffb);
  s.c2s(psh | ack, 0xfffffffb + 5, 8, "world");  // ahead
  s.c2s(psh | ack, 0xfffffffb, 8, "hello");      // fills the hole
  s.c2s(psh | ack, 0xfffffffb, 8, "hello");      // retransmission
  s.s2c(psh | ack, 8, 5, "abc");
  s.s2c(psh | ack, 8 + 6, 5, "ghi");  // "def" lost
  s.c2s(ack, 5, 8 + 9);
  r.finish();
  EXPECT_EQ(rec.to_server[0], "helloworld<end>");
  EXPECT_EQ(rec.to_client[0], "abc[gap 3]ghi<end>");
  EXPECT_EQ(rec.closed[0].to_client.gap_bytes, 3u);
  EXPECT_EQ(rec.closed[0].to_server.retransmitted_bytes, 5u);
}

TEST(TcpReassembler, PortReuseStartsANewConversation) {
  recorder rec;
  tcp_reassembler r(rec);
  script s{r};
  full_exchange(s, 100, 5000);
  full_exchange(s, 90000, 7000);
  r.finish();
  ASSERT_EQ(rec.closed.size(), 2u);
  EXPECT_EQ(rec.closed[0].packets, 8u);
  EXPECT_EQ(rec.closed[1].id, 1u);
  EXPECT_EQ(rec.to_client[1], "HTTP/1.1 200 OK\r\n<end>");
  // A retransmitted SYN on an open conversation is not a new one.
  recorder rec2;
  tcp_reassembler r2(rec2);
  script s2{r2};
  s2.c2s(syn, 1, 0);
  s2.c2s(syn, 1, 0);
  r2.finish();
  EXPECT_EQ(rec2.closed.size(), 1u);
}

TEST(TcpReassembler, FinishedConversationsAreReleasedAsTheCaptureGoesOn) {
  recorder rec;
  reassembly_limits limits;
  limits.closed_linger = std::chrono::seconds(1);
  tcp_reassembler r(rec, limits);
  script s{r};
  for (std::uint16_t i = 0; i < 2000; ++i) {
    s.cport = static_cast<std::uint16_t>(20000 + i);
    full_exchange(s);
    s.t += 200'000'000;                      // 0.2 s between connections
    EXPECT_LE(r.open_conversations(), 12u);  // linger 1 s + sweep every 1 s, 0.2 s apart
  }
  r.finish();
  EXPECT_EQ(rec.closed.size(), 2000u);
  EXPECT_EQ(r.conversations_seen(), 2000u);
}

TEST(TcpReassembler, IgnoresNonTcpAndFragments) {
  recorder rec;
  tcp_reassembler r(rec);
  auto udp = netlab::test::ethernet_header(ethertype::ipv4).append(netlab::test::ipv4_header(ip_protocol::udp, 8));
  udp.be16(1).be16(2).be16(8).be16(0);
  r.feed(decode_packet(link_type::ethernet, udp.b), {});
  auto tcp = netlab::test::tcp_header(1, 2, 3, 4, syn);
  auto frag = netlab::test::ethernet_header(ethertype::ipv4)
                  .append(netlab::test::ipv4_header(ip_protocol::tcp, 40, false, 0x2000))
                  .append(tcp);
  r.feed(decode_packet(link_type::ethernet, frag.b), {});
  EXPECT_EQ(r.ignored_packets(), 2u);
  EXPECT_EQ(r.conversations_seen(), 0u);
}

TEST(TcpReassembler, AConversationIsReleasedWhenItEndsNotAtTheEnd) {
  recorder rec;
  tcp_reassembler r(rec);
  script s{r};
  full_exchange(s);
  ASSERT_EQ(rec.closed.size(), 1u);  // the last ACK acknowledged the second FIN
  EXPECT_EQ(r.open_conversations(), 0u);
  EXPECT_EQ(rec.closed[0].packets, 8u);
  EXPECT_EQ(rec.closed[0].state, tcp_conversation_state::closed);
  // A RST ends one at once too.
  s.cport = 40001;
  s.c2s(syn, 1, 0);
  s.s2c(syn | ack, 9, 2);
  s.c2s(psh | ack, 2, 10, "abc");
  s.s2c(rst, 10, 0);
  ASSERT_EQ(rec.closed.size(), 2u);
  EXPECT_EQ(rec.closed[1].state, tcp_conversation_state::reset);
  EXPECT_EQ(rec.to_server[1], "abc<end>");
  EXPECT_EQ(r.open_conversations(), 0u);
  r.finish();
  EXPECT_EQ(rec.closed.size(), 2u);
}

TEST(TcpReassembler, LatePacketsOfAReleasedConversationAreCountedNotANewOne) {
  recorder rec;
  tcp_reassembler r(rec);
  script s{r};
  full_exchange(s, 100, 5000);
  s.c2s(fin | ack, 119, 5019);  // the client's FIN again, and a stray RST
  s.s2c(rst, 5019, 0);
  s.c2s(syn, 100, 0);  // the old SYN (same ISN): late as well
  EXPECT_EQ(r.late_packets(), 3u);
  EXPECT_EQ(r.conversations_seen(), 1u);
  s.c2s(syn, 777, 0);  // a new ISN: port reuse, a new conversation
  r.finish();
  ASSERT_EQ(rec.closed.size(), 2u);
  EXPECT_EQ(rec.closed[1].id, 1u);
  EXPECT_EQ(rec.closed[1].packets, 1u);
  EXPECT_EQ(r.late_packets(), 3u);
}

TEST(TcpReassembler, TombstonesExpireAfterTheLinger) {
  recorder rec;
  reassembly_limits limits;
  limits.closed_linger = std::chrono::seconds(2);
  tcp_reassembler r(rec, limits);
  script s{r};
  full_exchange(s);
  s.t += 1'000'000'000;
  s.c2s(ack, 120, 5019);  // within the linger: late
  EXPECT_EQ(r.late_packets(), 1u);
  s.t += 3'000'000'000;
  s.c2s(ack, 120, 5019);  // after it: the tuple is free again, a new (mid-stream) conversation
  EXPECT_EQ(r.late_packets(), 1u);
  EXPECT_EQ(r.conversations_seen(), 2u);
  r.finish();
}

TEST(TcpReassembler, ClosedWithoutTheLastAckLingersThenGoes) {
  recorder rec;
  reassembly_limits limits;
  limits.closed_linger = std::chrono::seconds(1);
  tcp_reassembler r(rec, limits);
  script s{r};
  s.c2s(syn, 100, 0);
  s.s2c(syn | ack, 5000, 101);
  s.c2s(ack, 101, 5001);
  s.s2c(fin | ack, 5001, 101);
  s.c2s(fin | ack, 101, 5002);  // the server's last ACK was not captured
  EXPECT_EQ(rec.closed.size(), 0u);
  EXPECT_EQ(rec.to_server[0], "<end>");  // both streams ended
  s.cport = 40001;
  s.t += 3'000'000'000;
  s.c2s(syn, 1, 0);  // any packet 3 s later runs the sweep
  ASSERT_EQ(rec.closed.size(), 1u);
  EXPECT_EQ(rec.closed[0].state, tcp_conversation_state::closed);
  r.finish();
}

TEST(TcpReassembler, ConversationsWithoutPayloadKeepEveryCounter) {
  recorder rec;
  tcp_reassembler r(rec);
  script s{r};
  s.c2s(syn, 100, 0);  // a lone SYN, retransmitted
  s.c2s(syn, 100, 0);
  s.cport = 40001;
  s.c2s(syn, 200, 0);  // a handshake, then pure ACKs
  s.s2c(syn | ack, 900, 201);
  s.c2s(ack, 201, 901);
  s.c2s(ack, 201, 901);
  s.cport = 40002;
  s.c2s(ack, 300, 990);  // mid-stream ACKs, the last of 10 server bytes the capture never saw
  s.s2c(ack, 990, 300);
  s.c2s(ack, 300, 1000);
  r.finish();
  ASSERT_EQ(rec.closed.size(), 3u);
  EXPECT_EQ(rec.closed[0].packets, 2u);
  EXPECT_EQ(rec.closed[0].to_server.packets, 2u);
  EXPECT_TRUE(rec.closed[0].to_server.syn);
  EXPECT_TRUE(rec.closed[0].handshake_seen);
  EXPECT_EQ(rec.closed[0].state, tcp_conversation_state::syn_sent);
  EXPECT_EQ(rec.opened[0].client.to_string(), "10.0.0.1:40000");
  EXPECT_EQ(rec.closed[1].state, tcp_conversation_state::established);
  EXPECT_EQ(rec.closed[1].to_client.packets, 1u);
  EXPECT_TRUE(rec.closed[1].to_client.syn);
  EXPECT_EQ(rec.closed[1].last_ts - rec.closed[1].first_ts, std::chrono::milliseconds(3));
  EXPECT_EQ(rec.segments[2], "1> SYN");
  EXPECT_EQ(rec.segments[3], "1< SYN,ACK");
  EXPECT_EQ(rec.closed[2].to_client.gap_bytes, 10u);  // what the client acknowledged
  EXPECT_EQ(rec.to_client[2], "[gap 10]<end>");
  EXPECT_EQ(r.missing_bytes(), 10u);
}

TEST(TcpReassembler, DataAfterAHandshakeIsDeliveredAsWithoutTheCompactForm) {
  // The same connection fed twice, its handshake once compact (a new conversation) and once not
  // (data first, then the SYN retransmitted): the bytes and gaps delivered are the same.
  recorder rec;
  tcp_reassembler r(rec);
  script s{r};
  s.c2s(syn, 0xfffffff0u, 0);
  s.s2c(syn | ack, 70, 0xfffffff1u);
  s.c2s(ack, 0xfffffff1u, 71);
  s.s2c(ack, 71, 0xfffffff1u + 20);  // the server acknowledges 20 bytes: 8 are never seen
  s.c2s(psh | ack, 0xfffffff1u + 4, 71, "efgh");
  s.c2s(psh | ack, 0xfffffff1u, 71, "abcd");
  s.c2s(psh | ack, 0xfffffff1u + 8, 71, "ijkl");
  r.finish();
  EXPECT_EQ(rec.to_server[0], "abcdefghijkl[gap 8]<end>");
  EXPECT_EQ(rec.closed.at(0).to_server.payload_bytes, 12u);
  EXPECT_EQ(rec.closed.at(0).to_server.gap_bytes, 8u);
}

TEST(TcpReassembler, MemoryStaysFlatOverManyClosedConversations) {
  recorder rec;
  tcp_reassembler r(rec);
  script s{r};
  for (std::uint32_t i = 0; i < 20000; ++i) {
    s.cport = static_cast<std::uint16_t>(10000 + i % 50000);
    full_exchange(s, 100 + i, 5000 + i);
    ASSERT_EQ(r.open_conversations(), 0u);
  }
  EXPECT_EQ(rec.closed.size(), 20000u);
  r.finish();
}

TEST(TcpReassembler, BeyondTheLimitTheLeastRecentAreReleased) {
  recorder rec;
  reassembly_limits limits;
  limits.max_conversations = 64;
  tcp_reassembler r(rec, limits);
  script s{r};
  for (std::uint16_t i = 0; i < 200; ++i) {
    s.cport = static_cast<std::uint16_t>(30000 + i);
    s.c2s(syn, i, 0);
    ASSERT_LE(r.open_conversations(), 64u);
  }
  ASSERT_FALSE(rec.closed.empty());
  EXPECT_EQ(rec.closed.front().id, 0u);  // the least recently active went first
  r.finish();
  EXPECT_EQ(rec.closed.size(), 200u);
}

}  // namespace
