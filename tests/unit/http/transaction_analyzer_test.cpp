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
