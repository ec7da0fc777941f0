// TCP traces: relative numbers, window scaling (not in SYNs), retransmissions, and the textbook's
// readings (sample RTTs with Karn's rule, RFC 6298 estimates worked by hand, bytes in flight, the
// first loss and its recovery, throughput, the smallest window) on a hand-made upload.
#include <gtest/gtest.h>

#include "netlib/packet/tcp_trace.hpp"

namespace {

using namespace netlib::packet;
using namespace std::chrono_literals;

struct upload {
  tcp_trace_recorder rec{[](const tcp_conversation&) { return true; }};
  tcp_reassembler r{rec};
  ip_address client = *ip_address::parse("10.0.0.1"), server = *ip_address::parse("10.0.0.2");
  std::uint32_t cseq = 1000, sseq = 5000;
  std::string data = std::string(20000, 'x');

  void send(bool from_client, std::uint32_t seq, std::uint32_t ack_number, std::uint8_t flags, std::size_t len,
            std::chrono::microseconds at, std::uint16_t window = 1000) {
    tcp_header h;
    h.src_port = from_client ? 40000 : 80;
    h.dst_port = from_client ? 80 : 40000;
    h.seq = seq;
    h.ack = ack_number;
    h.flags = flags;
    h.window = window;
    if (flags & tcp_flag::syn) {
      h.options.window_scale = from_client ? 7 : 4;
      h.options.mss = 1460;
    }
    h.payload = netlib::as_bytes(std::string_view(data).substr(0, len));
    r.feed(from_client ? client : server, from_client ? server : client, h, netlib::time_point(at));
  }
};

// Client sends 6 segments of 1000 bytes; the server ACKs every other one; segment 4 is lost and
// resent after three duplicate ACKs, then all is acknowledged.
const tcp_trace& make(upload& u) {
  constexpr auto A = tcp_flag::ack;
  const std::uint32_t c = u.cseq, s = u.sseq;
  u.send(true, c, 0, tcp_flag::syn, 0, 0us, 64240);
  u.send(false, s, c + 1, tcp_flag::syn | A, 0, 100us, 65160);
  u.send(true, c + 1, s + 1, A, 0, 200us, 502);
  u.send(true, c + 1, s + 1, A, 1000, 1000us);         // seg 1: rel 1
  u.send(true, c + 1001, s + 1, A, 1000, 1100us);      // seg 2: rel 1001
  u.send(false, s + 1, c + 2001, A, 0, 1500us, 2000);  // ACK 2001 (segs 1, 2): RTT 500, 400 us
  u.send(true, c + 2001, s + 1, A, 1000, 1600us);      // seg 3
  u.send(true, c + 3001, s + 1, A, 1000, 1700us);      // seg 4 (lost)
  u.send(true, c + 4001, s + 1, A, 1000, 1800us);      // seg 5
  u.send(false, s + 1, c + 3001, A, 0, 2400us, 2000);  // ACK 3001 (seg 3): RTT 800 us
  u.send(true, c + 5001, s + 1, A, 1000, 2500us);      // seg 6
  u.send(false, s + 1, c + 3001, A, 0, 2600us, 1500);  // dup
  u.send(false, s + 1, c + 3001, A, 0, 3300us, 1500);  // dup
  u.send(true, c + 3001, s + 1, A, 1000, 3400us);      // seg 4 again
  u.send(false, s + 1, c + 6001, A, 0, 4000us, 2000);  // all acknowledged
  u.send(true, c + 6001, s + 1, tcp_flag::fin | A, 0, 4100us);
  u.send(false, s + 1, c + 6002, tcp_flag::fin | A, 0, 4200us, 2000);
  u.send(true, c + 6002, s + 2, A, 0, 4300us);
  u.r.finish();
  EXPECT_EQ(u.rec.traces().size(), 1u);
  return u.rec.traces().begin()->second;
}

TEST(TcpTrace, RelativeNumbersScaledWindowsRetransmissions) {
  upload u;
  const auto& t = make(u);
  ASSERT_TRUE(t.handshake_seen());
  EXPECT_TRUE(t.scaling());
  EXPECT_EQ(t.isn[0], 1000u);
  EXPECT_EQ(t.segments[0].seq, 0u);
  EXPECT_EQ(t.segments[1].ack, 1u);
  EXPECT_EQ(t.segments[1].window, 65160u) << "a SYN's window is not scaled";
  EXPECT_EQ(t.segments[2].window, 502u << 7) << "the client's shift is 7";
  EXPECT_EQ(t.segments[5].window, 2000u << 4) << "the server's shift is 4";
  EXPECT_EQ(t.segments[3].seq, 1u);
  EXPECT_EQ(t.segments[3].raw_seq, 1001u);
  int retransmitted = 0;
  for (const auto& s : t.segments) retransmitted += s.retransmission ? 1 : 0;
  EXPECT_EQ(retransmitted, 1);
  EXPECT_TRUE(t.segments[13].retransmission);
  EXPECT_EQ(data_sender(t), tcp_direction::client_to_server);
}

TEST(TcpTrace, SampleRttsAndRfc6298Estimates) {
  upload u;
  const auto& t = make(u);
  const auto rows = rtt_estimates(t, tcp_direction::client_to_server, 10);
  ASSERT_EQ(rows.size(), 7u) << "six data segments and one retransmission";
  const double expected[] = {500e-6, 400e-6, 800e-6};
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(rows[i].sample_rtt_s) << i;
    EXPECT_NEAR(*rows[i].sample_rtt_s, expected[i], 1e-12) << i;
  }
  EXPECT_FALSE(rows[3].sample_rtt_s) << "segment 4 was resent before its ACK (Karn)";
  ASSERT_TRUE(rows[4].sample_rtt_s);
  EXPECT_NEAR(*rows[4].sample_rtt_s, 2200e-6, 1e-12) << "segment 5: 1800 us to the ACK at 4000 us";
  EXPECT_FALSE(rows[6].sample_rtt_s) << "the retransmission itself";
  // By hand: R1 = 500: SRTT 500, RTTVAR 250. R2 = 400: RTTVAR = 0.75*250 + 0.25*|500-400| = 212.5,
  // SRTT = 0.875*500 + 0.125*400 = 487.5. R3 = 800: RTTVAR = 0.75*212.5 + 0.25*312.5 = 237.5,
  // SRTT = 0.875*487.5 + 0.125*800 = 526.5625; timeout = 526.5625 + 4*237.5 = 1476.5625.
  EXPECT_NEAR(*rows[0].estimated_rtt_s, 500e-6, 1e-12);
  EXPECT_NEAR(*rows[0].dev_rtt_s, 250e-6, 1e-12);
  EXPECT_NEAR(*rows[1].estimated_rtt_s, 487.5e-6, 1e-12);
  EXPECT_NEAR(*rows[1].dev_rtt_s, 212.5e-6, 1e-12);
  EXPECT_NEAR(*rows[2].estimated_rtt_s, 526.5625e-6, 1e-12);
  EXPECT_NEAR(*rows[2].dev_rtt_s, 237.5e-6, 1e-12);
  EXPECT_NEAR(*rows[2].timeout_s, 1476.5625e-6, 1e-12);
  EXPECT_NEAR(*rows[3].estimated_rtt_s, *rows[2].estimated_rtt_s, 1e-15) << "no sample: unchanged";
}

TEST(TcpTrace, FlightLossRecoveryThroughputWindow) {
  upload u;
  const auto& t = make(u);
  const auto flight = bytes_in_flight(t, tcp_direction::client_to_server);
  EXPECT_EQ(flight[3], 1000u);
  EXPECT_EQ(flight[4], 2000u);
  EXPECT_EQ(flight[8], 3000u) << "segments 3, 4 and 5 out after ACK 2001";
  const auto loss = first_loss(t, tcp_direction::client_to_server);
  ASSERT_TRUE(loss);
  EXPECT_EQ(loss->first_retransmission, 13u);
  EXPECT_EQ(loss->retransmissions, 1u);
  EXPECT_EQ(loss->recovery_point, 6001u);
  ASSERT_TRUE(loss->recovered);
  EXPECT_EQ(*loss->recovered, 14u);
  EXPECT_EQ(loss->flight_before_loss, 3000u);
  const auto tp = throughput(t, tcp_direction::client_to_server);
  ASSERT_TRUE(tp);
  EXPECT_EQ(tp->bytes, 6000u);
  EXPECT_NEAR(tp->seconds, 3000e-6, 1e-12);
  EXPECT_NEAR(tp->bytes_per_second(), 2e6, 1e-3);
  EXPECT_EQ(min_receive_window(t, tcp_direction::client_to_server), 1500u << 4);
}

TEST(TcpTrace, SelectorAndLimits) {
  tcp_trace_recorder rec([](const tcp_conversation& c) { return c.id == 1; }, 3);
  tcp_reassembler r(rec);
  for (std::uint16_t port : {1000, 1001}) {
    for (std::uint32_t i = 0; i < 5; ++i) {
      tcp_header h;
      h.src_port = port;
      h.dst_port = 80;
      h.seq = 100 + i;
      h.flags = i == 0 ? tcp_flag::syn : tcp_flag::ack;
      r.feed(*ip_address::parse("10.0.0.1"), *ip_address::parse("10.0.0.2"), h, netlib::time_point(1ms * i));
    }
  }
  r.finish();
  ASSERT_EQ(rec.traces().size(), 1u);
  const auto& t = rec.traces().at(1);
  EXPECT_EQ(t.conversation.client.port, 1001);
  EXPECT_EQ(t.segments.size(), 3u);
  EXPECT_EQ(t.segments_not_kept, 2u);
}

}  // namespace
