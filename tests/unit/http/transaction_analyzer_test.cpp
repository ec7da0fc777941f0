// The capture analyzer on synthetic conversations: pairing, HEAD and 304 without bodies, chunked
// sizes, conditional requests and cookies, non-HTTP traffic ignored; same result at every split.
#include "netlib/http/transaction_analyzer.hpp"

#include <gtest/gtest.h>

#include "support/split_feed.hpp"

namespace http = netlib::http;

namespace {

std::string summary(const http::transaction_analyzer& a) {
  std::string s;
  for (const auto& t : a.transactions())
    s += t.method + " " + t.target + " " + (t.status ? std::to_string(*t.status) : "-") +
         " body=" + std::to_string(t.response_body_bytes) + (t.conditional ? " cond" : "") +
         (t.cookies_sent.empty() ? "" : " sent=" + t.cookies_sent[0]) +
         (t.cookies_set.empty() ? "" : " set=" + t.cookies_set[0]) + "\n";
  return s;
}

const std::string client =
    "GET /a HTTP/1.1\r\nHost: h\r\n\r\n"
    "HEAD /b HTTP/1.1\r\nHost: h\r\n\r\n"
    "GET /c HTTP/1.1\r\nHost: h\r\nIf-None-Match: \"x\"\r\nCookie: sid=1; t=2\r\n\r\n"
    "GET /d HTTP/1.1\r\nHost: h\r\n\r\n";
const std::string server =
    "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nSet-Cookie: sid=1; Path=/\r\n\r\nabc"
    "HTTP/1.1 200 OK\r\nContent-Length: 99\r\n\r\n"
    "HTTP/1.1 304 Not Modified\r\nETag: \"x\"\r\n\r\n"
    "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nwxyz\r\n2;e=1\r\n12\r\n0\r\n\r\n";
const std::string expected =
    "GET /a 200 body=3 set=sid\nHEAD /b 200 body=0\nGET /c 304 body=0 cond sent=sid\nGET /d 200 body=6\n";

}  // namespace

TEST(TransactionAnalyzer, PairsResponsesAtEverySplit) {
  netlab::test::for_each_split(server, [&](const netlab::test::pieces& p) {
    http::transaction_analyzer a(7);
    a.client_bytes(netlib::as_bytes(client), {});
    for (auto piece : p) a.server_bytes(netlib::as_bytes(piece), {});
    ASSERT_EQ(summary(a), expected);
    ASSERT_EQ(a.transactions()[3].connection, 7u);
    ASSERT_EQ(a.transactions()[3].transfer, "chunked");
  });
}

TEST(TransactionAnalyzer, CloseDelimitedAndNonHttp) {
  http::transaction_analyzer a(0);
  a.client_bytes(netlib::as_bytes(std::string_view("GET / HTTP/1.0\r\n\r\n")), {});
  a.server_bytes(netlib::as_bytes(std::string_view("HTTP/1.0 200 OK\r\n\r\nuntil close")), {});
  EXPECT_FALSE(a.transactions()[0].response_complete);
  a.server_end_of_stream({});
  EXPECT_TRUE(a.transactions()[0].response_complete);
  EXPECT_EQ(a.transactions()[0].response_body_bytes, 11u);
  http::transaction_analyzer ssh(1);
  ssh.server_bytes(netlib::as_bytes(std::string_view("SSH-2.0-OpenSSH_9.2\r\n")), {});
  ssh.client_bytes(netlib::as_bytes(std::string_view("SSH-2.0-OpenSSH_9.2\r\n")), {});
  EXPECT_FALSE(ssh.is_http());
  EXPECT_TRUE(ssh.transactions().empty());
}

TEST(TransactionAnalyzer, ServerTakenForClientIsSwapped) {
  http::transaction_analyzer a(0);  // a capture that began after the request: the server spoke first
  a.client_bytes(netlib::as_bytes(std::string_view("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")), {});
  EXPECT_TRUE(a.is_http());
  EXPECT_TRUE(a.transactions().empty());
  EXPECT_EQ(a.counters().responses_without_request, 1u);
  EXPECT_EQ(a.counters().malformed_requests, 0u);
}

// What netlab-grade's HTTP questions read: the request's version and validators, the status
// line's version, each response's range in the server's stream (interim responses excluded) and
// the segments that carried it, whatever the segment boundaries.
TEST(TransactionAnalyzer, ResponseRangesAndTheirSegments) {
  const std::string requests =
      "GET /a HTTP/1.0\r\nIf-Modified-Since: Tue, 01 Jan 2030 00:00:00 GMT\r\n\r\n"
      "GET /b HTTP/1.1\r\nHost: h\r\nIf-None-Match: \"x\"\r\nIf-None-Match: \"y\"\r\n\r\n";
  const std::string first = "HTTP/1.0 200 OK\r\nContent-Length: 5\r\n\r\nhello";                // 43 bytes
  const std::string second = "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 304 Not Modified\r\n\r\n";  // 25 + 29
  const std::string responses = first + second;
  // The segments overlapping [begin, end), counted from the cut points.
  const auto overlapping = [](const netlab::test::pieces& p, std::uint64_t begin, std::uint64_t end) {
    std::uint64_t at = 0, n = 0;
    for (auto piece : p) {
      if (!piece.empty() && at < end && at + piece.size() > begin) ++n;
      at += piece.size();
    }
    return n;
  };
  netlab::test::for_each_split(responses, [&](const netlab::test::pieces& p) {
    http::transaction_analyzer a(3);
    a.client_bytes(netlib::as_bytes(requests), {});
    for (auto piece : p) a.server_bytes(netlib::as_bytes(piece), {});
    const auto s = a.session();
    ASSERT_EQ(s.transactions.size(), 2u);
    const auto& t0 = s.transactions[0];
    const auto& t1 = s.transactions[1];
    ASSERT_EQ(t0.version_major, 1);
    ASSERT_EQ(t0.version_minor, 0);
    ASSERT_EQ(t0.if_modified_since, "Tue, 01 Jan 2030 00:00:00 GMT");
    ASSERT_FALSE(t0.if_none_match);
    ASSERT_EQ(t1.if_none_match, "\"x\", \"y\"");
    ASSERT_EQ(t0.response_version, (http::version{1, 0}));
    ASSERT_EQ(t1.response_version, (http::version{1, 1}));
    ASSERT_EQ(t0.response_begin, 0u);
    ASSERT_EQ(t0.response_end, first.size());
    ASSERT_EQ(t1.response_begin, first.size() + 25);  // after the 100 Continue
    ASSERT_EQ(t1.response_end, responses.size());
    ASSERT_EQ(t0.response_segments, overlapping(p, t0.response_begin, t0.response_end));
    ASSERT_EQ(t1.response_segments, overlapping(p, t1.response_begin, t1.response_end));
    ASSERT_TRUE(s.is_http);
    ASSERT_FALSE(s.server_spoke_first);
  });
}

TEST(TransactionAnalyzer, CloseDelimitedRangeEndsAtTheEndOfStream) {
  http::transaction_analyzer a(0);
  a.client_bytes(netlib::as_bytes(std::string_view("GET / HTTP/1.0\r\n\r\n")), {});
  a.server_bytes(netlib::as_bytes(std::string_view("HTTP/1.0 200 OK\r\n\r\n")), {});
  a.server_bytes(netlib::as_bytes(std::string_view("until")), {});
  a.server_bytes(netlib::as_bytes(std::string_view(" close")), {});
  a.end_of_stream(false, {});
  const auto& t = a.transactions()[0];
  EXPECT_TRUE(t.response_complete);
  EXPECT_EQ(t.response_end, 30u);
  EXPECT_EQ(t.response_segments, 3u);
}

TEST(TransactionAnalyzer, ServerSpeakingFirstIsNoted) {
  http::transaction_analyzer banner(0);
  banner.server_bytes(netlib::as_bytes(std::string_view("220 ready\r\n")), {});
  banner.client_bytes(netlib::as_bytes(std::string_view("GET / HTTP/1.1\r\nHost: h\r\n\r\n")), {});
  EXPECT_EQ(banner.transactions().size(), 1u);
  EXPECT_TRUE(banner.session().server_spoke_first);
  http::transaction_analyzer swapped(1);  // the capture's client sent the response
  swapped.client_bytes(netlib::as_bytes(std::string_view("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")), {});
  swapped.server_bytes(netlib::as_bytes(std::string_view("GET / HTTP/1.1\r\nHost: h\r\n\r\n")), {});
  EXPECT_TRUE(swapped.session().server_spoke_first);
  http::transaction_analyzer gapped(2);  // the capture feed's gap call stops the direction
  gapped.client_bytes(netlib::as_bytes(std::string_view("GET / HTTP/1.1\r\nHost: h\r\n\r\n")), {});
  gapped.gap(false, 100);
  gapped.server_bytes(netlib::as_bytes(std::string_view("HTTP/1.1 200 OK\r\n\r\n")), {});
  EXPECT_FALSE(gapped.session().server_spoke_first);
  EXPECT_EQ(gapped.session().counters.gaps, 1u);
  EXPECT_FALSE(gapped.session().transactions[0].status);
}

// Found by fuzz_transaction_analyzer: a first "word" of 24 bytes or more was HTTP when its space
// came in the same segment and not when the segment ended before it. Now it is never HTTP.
TEST(TransactionAnalyzer, ALongFirstWordIsNotHttpAtAnySplit) {
  const std::string client = std::string(30, 'W') + " / HTTP/1.1\r\nHost: h\r\n\r\n";
  netlab::test::for_each_split(client, [&](const netlab::test::pieces& p) {
    http::transaction_analyzer a(0);
    for (auto piece : p) a.client_bytes(netlib::as_bytes(piece), {});
    ASSERT_FALSE(a.is_http());
    ASSERT_TRUE(a.transactions().empty());
  });
  http::transaction_analyzer short_method(0);
  short_method.client_bytes(netlib::as_bytes(std::string(22, 'W') + " / HTTP/1.1\r\nHost: h\r\n\r\n"), {});
  EXPECT_EQ(short_method.transactions().size(), 1u);
}

// Found by fuzz_transaction_analyzer: a call with no bytes read an undecided direction (undefined
// behaviour) and took an empty client for one that is not HTTP.
TEST(TransactionAnalyzer, NoBytesDecideNothing) {
  http::transaction_analyzer a(0);
  a.client_bytes({}, {});
  a.server_bytes({}, {});
  a.client_bytes(netlib::as_bytes(std::string_view("GET / HTTP/1.1\r\nHost: h\r\n\r\n")), {});
  a.server_bytes(netlib::as_bytes(std::string_view("HTTP/1.1 204 No Content\r\n\r\n")), {});
  ASSERT_EQ(a.transactions().size(), 1u);
  EXPECT_EQ(a.transactions()[0].status, 204);
  EXPECT_FALSE(a.session().server_spoke_first);
}
