// Request parser: valid vectors (each fed whole, split at every offset and byte by byte; every
// truncation gives need_more) and the negative table of RFC 9112 framing and smuggling classes.
#include "netlib/http/request_parser.hpp"

#include <gtest/gtest.h>

#include "parse_transcript.hpp"

namespace {

using netlab::test::feed_requests;
using netlab::test::for_each_prefix;
using netlab::test::for_each_split;
using netlab::test::pieces;

struct vector_case {
  const char* name;
  std::string input;
  std::string expected;
};

std::vector<vector_case> valid_vectors() {
  return {
      {"simple_get", "GET / HTTP/1.1\r\nHost: a\r\n\r\n", "head GET / 1.1 [Host=a]\nbody:\nend\n"},
      {"http10_no_host", "GET /x HTTP/1.0\r\n\r\n", "head GET /x 1.0\nbody:\nend\n"},
      {"ows_trimmed", "GET / HTTP/1.1\r\nHost:   a \t\r\nX-A:b\r\n\r\n",
       "head GET / 1.1 [Host=a] [X-A=b]\nbody:\nend\n"},
      {"bare_lf_lines", "GET / HTTP/1.1\nHost: a\n\n", "head GET / 1.1 [Host=a]\nbody:\nend\n"},
      {"leading_empty_line", "\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n", "head GET / 1.1 [Host=a]\nbody:\nend\n"},
      {"content_length", "POST /f HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello",
       "head POST /f 1.1 [Host=a] [Content-Length=5]\nbody:hello\nend\n"},
      {"same_content_lengths", "POST /f HTTP/1.1\r\nHost: a\r\nContent-Length: 2, 2\r\nContent-Length: 2\r\n\r\nok",
       "head POST /f 1.1 [Host=a] [Content-Length=2, 2] [Content-Length=2]\nbody:ok\nend\n"},
      {"chunked",
       "POST /c HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6;ext=1;q=\"a b\"\r\n "
       "world\r\n0\r\n\r\n",
       "head POST /c 1.1 [Host=a] [Transfer-Encoding=chunked]\nbody:hello world\nend\n"},
      {"chunked_trailers",
       "POST /c HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nA\r\n0123456789\r\n0\r\nX-Sum: 45\r\n\r\n",
       "head POST /c 1.1 [Host=a] [Transfer-Encoding=chunked]\nbody:0123456789\ntrailer [X-Sum=45]\nend\n"},
      {"pipelined",
       "GET /1 HTTP/1.1\r\nHost: a\r\n\r\nGET /2 HTTP/1.1\r\nHost: a\r\n\r\nHEAD /3 HTTP/1.1\r\nHost: a\r\n\r\n",
       "head GET /1 1.1 [Host=a]\nbody:\nend\nhead GET /2 1.1 [Host=a]\nbody:\nend\nhead HEAD /3 1.1 "
       "[Host=a]\nbody:\nend\n"},
      {"pipelined_with_body",
       "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabcGET / HTTP/1.1\r\nHost: a\r\n\r\n",
       "head POST / 1.1 [Host=a] [Content-Length=3]\nbody:abc\nend\nhead GET / 1.1 [Host=a]\nbody:\nend\n"},
      {"absolute_form", "GET http://example.org/p HTTP/1.1\r\nHost: example.org\r\n\r\n",
       "head GET http://example.org/p 1.1 [Host=example.org]\nbody:\nend\n"},
      {"options_star", "OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n", "head OPTIONS * 1.1 [Host=a]\nbody:\nend\n"},
      {"minor_version_2", "GET / HTTP/1.2\r\nHost: a\r\n\r\n", "head GET / 1.2 [Host=a]\nbody:\nend\n"},
      {"obs_text_value", "GET / HTTP/1.1\r\nHost: a\r\nX: caf\xc3\xa9\r\n\r\n",
       "head GET / 1.1 [Host=a] [X=caf\xc3\xa9]\nbody:\nend\n"},
  };
}

TEST(RequestParser, ValidVectorsAtEverySplit) {
  for (const auto& v : valid_vectors()) {
    SCOPED_TRACE(v.name);
    EXPECT_EQ(feed_requests(pieces{v.input}), v.expected);
    for_each_split(v.input, [&](const pieces& p) { ASSERT_EQ(feed_requests(p), v.expected); });
  }
}

TEST(RequestParser, EveryTruncationNeedsMore) {
  for (const auto& v : valid_vectors()) {
    SCOPED_TRACE(v.name);
    for_each_prefix(v.input, [&](std::string_view prefix) {
      const std::string out = feed_requests(pieces{prefix});
      ASSERT_EQ(out.find("error"), std::string::npos) << out;
      // A prefix never completes more messages than the whole input does.
      ASSERT_LE(std::count(out.begin(), out.end(), '\n'), std::count(v.expected.begin(), v.expected.end(), '\n'));
    });
  }
}

TEST(RequestParser, PipelinedRequestsReportConsumedBytes) {
  const std::string two = "GET /1 HTTP/1.1\r\nHost: a\r\n\r\nGET /2 HTTP/1.1\r\nHost: a\r\n\r\n";
  netlib::http::request_parser p;
  auto s = p.next(netlib::as_bytes(two));
  ASSERT_TRUE(std::holds_alternative<netlib::http::head_complete>(s.event));
  EXPECT_EQ(s.consumed, two.size() / 2);
  EXPECT_EQ(p.head().target, "/1");
}

struct negative_case {
  const char* name;
  std::string input;
  int status;
};

// RFC 9112 malformed framing and request smuggling classes (§2.2, §3, §5, §6, §7, §11.2).
std::vector<negative_case> negative_table() {
  const std::string h = "Host: a\r\n";
  return {
      {"missing_host_11", "GET / HTTP/1.1\r\n\r\n", 400},
      {"repeated_host", "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400},
      {"repeated_host_10", "GET / HTTP/1.0\r\nHost: a\r\nHost: a\r\n\r\n", 400},
      {"bad_host", "GET / HTTP/1.1\r\nHost: a b\r\n\r\n", 400},
      {"cl_and_te", "POST / HTTP/1.1\r\n" + h + "Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
       400},
      {"te_and_cl", "POST / HTTP/1.1\r\n" + h + "Transfer-Encoding: chunked\r\nContent-Length: 4\r\n\r\n0\r\n\r\n",
       400},
      {"differing_cl", "POST / HTTP/1.1\r\n" + h + "Content-Length: 4\r\nContent-Length: 5\r\n\r\nabcde", 400},
      {"differing_cl_list", "POST / HTTP/1.1\r\n" + h + "Content-Length: 4, 5\r\n\r\nabcde", 400},
      {"cl_not_digits", "POST / HTTP/1.1\r\n" + h + "Content-Length: +4\r\n\r\nabcd", 400},
      {"cl_hex", "POST / HTTP/1.1\r\n" + h + "Content-Length: 0x4\r\n\r\nabcd", 400},
      {"cl_empty", "POST / HTTP/1.1\r\n" + h + "Content-Length:\r\n\r\n", 400},
      {"cl_overflow", "POST / HTTP/1.1\r\n" + h + "Content-Length: 99999999999999999999999\r\n\r\n", 413},
      {"space_before_colon", "GET / HTTP/1.1\r\nHost : a\r\n\r\n", 400},
      {"tab_before_colon", "POST / HTTP/1.1\r\n" + h + "Transfer-Encoding\t: chunked\r\n\r\n0\r\n\r\n", 400},
      {"obs_fold", "GET / HTTP/1.1\r\n" + h + "X-A: b\r\n  c\r\n\r\n", 400},
      {"obs_fold_te", "POST / HTTP/1.1\r\n" + h + "Transfer-Encoding:\r\n chunked\r\n\r\n0\r\n\r\n", 400},
      {"whitespace_after_start_line", "GET / HTTP/1.1\r\n Host: a\r\n\r\n", 400},
      {"bare_cr_in_field", "GET / HTTP/1.1\r\n" + h + "X: a\rb\r\n\r\n", 400},
      {"bare_cr_line_end", "GET / HTTP/1.1\r\nHost: a\rX: b\r\n\r\n", 400},
      {"bare_cr_request_line", "GET /\r HTTP/1.1\r\n" + h + "\r\n", 400},
      {"nul_in_value", std::string("GET / HTTP/1.1\r\n") + h + std::string("X: a\0b\r\n\r\n", 10), 400},
      {"no_colon", "GET / HTTP/1.1\r\n" + h + "Xyz\r\n\r\n", 400},
      {"bad_name", "GET / HTTP/1.1\r\n" + h + "X(y): 1\r\n\r\n", 400},
      {"te_not_chunked_last", "POST / HTTP/1.1\r\n" + h + "Transfer-Encoding: chunked, gzip\r\n\r\n", 400},
      {"te_identity", "POST / HTTP/1.1\r\n" + h + "Transfer-Encoding: identity\r\n\r\n", 400},
      {"te_chunked_twice",
       "POST / HTTP/1.1\r\n" + h + "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400},
      {"te_obfuscated", "POST / HTTP/1.1\r\n" + h + "Transfer-Encoding: xchunked\r\n\r\n0\r\n\r\n", 400},
      {"te_in_http10", "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400},
      {"te_unknown_coding", "POST / HTTP/1.1\r\n" + h + "Transfer-Encoding: gzip, chunked\r\n\r\n", 501},
      {"chunk_size_not_hex", "POST / HTTP/1.1\r\n" + h + "Transfer-Encoding: chunked\r\n\r\nzz\r\n", 400},
      {"chunk_size_negative", "POST / HTTP/1.1\r\n" + h + "Transfer-Encoding: chunked\r\n\r\n-1\r\n", 400},
      {"chunk_size_overflow", "POST / HTTP/1.1\r\n" + h + "Transfer-Encoding: chunked\r\n\r\n10000000000000001\r\n",
       400},
      {"chunk_size_lf_only", "POST / HTTP/1.1\r\n" + h + "Transfer-Encoding: chunked\r\n\r\n3\nabc\r\n0\r\n\r\n", 400},
      {"chunk_ext_bare_lf", "POST / HTTP/1.1\r\n" + h + "Transfer-Encoding: chunked\r\n\r\n3;a\nx\r\nabc\r\n0\r\n\r\n",
       400},
      {"chunk_ext_bad", "POST / HTTP/1.1\r\n" + h + "Transfer-Encoding: chunked\r\n\r\n3;=x\r\nabc\r\n0\r\n\r\n", 400},
      {"chunk_ext_unterminated_quote",
       "POST / HTTP/1.1\r\n" + h + "Transfer-Encoding: chunked\r\n\r\n3;a=\"x\r\nabc\r\n0\r\n\r\n", 400},
      {"chunk_data_too_long", "POST / HTTP/1.1\r\n" + h + "Transfer-Encoding: chunked\r\n\r\n3\r\nabcd\r\n0\r\n\r\n",
       400},
      {"chunk_data_no_crlf", "POST / HTTP/1.1\r\n" + h + "Transfer-Encoding: chunked\r\n\r\n3\r\nabcXX0\r\n\r\n", 400},
      {"trailer_obs_fold", "POST / HTTP/1.1\r\n" + h + "Transfer-Encoding: chunked\r\n\r\n0\r\nX: a\r\n b\r\n\r\n",
       400},
      {"version_2", "GET / HTTP/2.0\r\n" + h + "\r\n", 505},
      {"version_0", "GET / HTTP/0.9\r\n" + h + "\r\n", 505},
      {"version_lowercase", "GET / http/1.1\r\n" + h + "\r\n", 400},
      {"version_missing", "GET /\r\n" + h + "\r\n", 400},
      {"double_space", "GET  / HTTP/1.1\r\n" + h + "\r\n", 400},
      {"space_in_target", "GET /a b HTTP/1.1\r\n" + h + "\r\n", 400},
      {"tab_separator", "GET\t/ HTTP/1.1\r\n" + h + "\r\n", 400},
      {"relative_target", "GET a/b HTTP/1.1\r\n" + h + "\r\n", 400},
      {"star_not_options", "GET * HTTP/1.1\r\n" + h + "\r\n", 400},
      {"non_ascii_target", "GET /caf\xc3\xa9 HTTP/1.1\r\n" + h + "\r\n", 400},
      {"bad_method_token", "G(T / HTTP/1.1\r\n" + h + "\r\n", 400},
  };
}

std::string expected_error_prefix(int status) {
  return "error " + std::to_string(status) + " ";
}

TEST(RequestParser, NegativeTableAtEverySplit) {
  for (const auto& c : negative_table()) {
    SCOPED_TRACE(c.name);
    const std::string whole = feed_requests(pieces{c.input});
    ASSERT_NE(whole.find(expected_error_prefix(c.status)), std::string::npos) << whole;
    for_each_split(c.input, [&](const pieces& p) { ASSERT_EQ(feed_requests(p), whole); });
  }
}

TEST(RequestParser, ErrorIsSticky) {
  netlib::http::request_parser p;
  const std::string bad = "GET / HTTP/1.1\r\nHost : a\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n";
  auto s1 = p.next(netlib::as_bytes(bad));
  ASSERT_TRUE(std::holds_alternative<netlib::http::parse_error>(s1.event));
  EXPECT_EQ(s1.consumed, 0u);
  auto s2 = p.next(netlib::as_bytes(bad.substr(27)));
  ASSERT_TRUE(std::holds_alternative<netlib::http::parse_error>(s2.event));
  EXPECT_EQ(netlib::http::status_for(std::get<netlib::http::parse_error>(s2.event).code), 400);
}

// A refused head keeps its request line as it came, at every split (for the access log); a first
// line never read whole (414) leaves it empty.
TEST(RequestParser, RefusedHeadKeepsItsRequestLine) {
  const std::pair<std::string, std::string> cases[] = {
      {"GET / HTTP/1.1\r\n\r\n", "GET / HTTP/1.1"},              // no Host
      {"GET / HTTP/2.0\r\nHost: x\r\n\r\n", "GET / HTTP/2.0"},   // 505
      {"GET / HTTP/1.1\r\nHost : a\r\n\r\n", "GET / HTTP/1.1"},  // bad field line
      {"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n", "POST / HTTP/1.1"},
      {"GET /" + std::string(100, 'a') + " HTTP/1.1\r\nHost: a\r\n\r\n", ""}};  // 414 (limit 64 here)
  netlib::http::parser_limits lim;
  lim.max_request_line = 64;
  for (const auto& [input, line] : cases) {
    SCOPED_TRACE(input.substr(0, 40));
    for_each_split(input, [&](const pieces& parts) {
      netlib::http::request_parser p(lim);
      std::string buffer;
      for (const auto& part : parts) {
        buffer.append(part);
        const auto step = p.next(netlib::as_bytes(buffer));
        buffer.erase(0, step.consumed);
        if (std::holds_alternative<netlib::http::parse_error>(step.event)) break;
      }
      ASSERT_TRUE(p.error().has_value());
      EXPECT_EQ(p.refused_request_line(), line);
    });
  }
  netlib::http::request_parser ok;
  (void)ok.next(netlib::as_bytes(std::string("GET / HTTP/1.1\r\nHost: a\r\n\r\n")));
  EXPECT_EQ(ok.refused_request_line(), "");
}

TEST(RequestParser, LimitsGive414And431And413) {
  netlib::http::parser_limits lim;
  lim.max_request_line = 64;
  lim.max_head_bytes = 256;
  lim.max_fields = 4;
  lim.max_body = 10;
  const std::string long_target = "GET /" + std::string(100, 'a') + " HTTP/1.1\r\nHost: a\r\n\r\n";
  const std::string big_head = "GET / HTTP/1.1\r\nHost: a\r\nX: " + std::string(300, 'b') + "\r\n\r\n";
  const std::string many = "GET / HTTP/1.1\r\nHost: a\r\nA: 1\r\nB: 1\r\nC: 1\r\nD: 1\r\n\r\n";
  const std::string body_cl = "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 11\r\n\r\n";
  const std::string body_chunked =
      "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n6\r\nabcdef\r\n6\r\n";
  const std::pair<std::string, int> cases[] = {
      {long_target, 414}, {big_head, 431}, {many, 431}, {body_cl, 413}, {body_chunked, 413}};
  for (const auto& [input, status] : cases) {
    SCOPED_TRACE(input.substr(0, 40));
    const std::string whole = feed_requests(pieces{input}, lim);
    EXPECT_NE(whole.find(expected_error_prefix(status)), std::string::npos) << whole;
    for_each_split(input, [&](const pieces& p) { ASSERT_EQ(feed_requests(p, lim), whole); });
  }
}

TEST(RequestParser, EndlessHeadWithoutNewlineIsRefusedEarly) {
  netlib::http::parser_limits lim;
  lim.max_request_line = 100;
  const std::string junk(101, 'A');
  EXPECT_NE(feed_requests(pieces{junk}, lim).find("error 414"), std::string::npos);
  const std::string endless_field = "GET / HTTP/1.1\r\nX: " + std::string(lim.max_head_bytes, 'x');
  EXPECT_NE(feed_requests(pieces{endless_field}, lim).find("error 431"), std::string::npos);
}

}  // namespace
