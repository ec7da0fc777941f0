// Response parser: Content-Length, chunked, close-delimited, HEAD/1xx/204/304 without bodies,
// pipelined responses matched to request methods; every vector at every split.
#include "netlib/http/response_parser.hpp"

#include <gtest/gtest.h>

#include "parse_transcript.hpp"

namespace {

using netlab::test::feed_responses;
using netlab::test::for_each_prefix;
using netlab::test::for_each_split;
using netlab::test::pieces;

struct response_case {
  const char* name;
  std::string input;
  std::vector<std::string> methods;
  bool eof;
  std::string expected;
};

std::vector<response_case> cases() {
  return {
      {"content_length",
       "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc",
       {"GET"},
       false,
       "head 200 OK [Content-Length=3]\nbody:abc\nend\n"},
      {"chunked_with_trailer",
       "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3;x=y\r\nabc\r\n0\r\nEtag: \"1\"\r\n\r\n",
       {"GET"},
       false,
       "head 200 OK [Transfer-Encoding=chunked]\nbody:abc\ntrailer [Etag=\"1\"]\nend\n"},
      {"close_delimited",
       "HTTP/1.0 200 OK\r\nServer: x\r\n\r\nuntil the end",
       {"GET"},
       true,
       "head 200 OK [Server=x]\nbody:until the end\nend(eof)\n"},
      {"te_overrides_cl",
       "HTTP/1.1 200 OK\r\nContent-Length: 100\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nz\r\n0\r\n\r\n",
       {"GET"},
       false,
       "head 200 OK [Content-Length=100] [Transfer-Encoding=chunked]\nbody:z\nend\n"},
      {"te_not_chunked_reads_to_close",
       "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\nzzz",
       {"GET"},
       true,
       "head 200 OK [Transfer-Encoding=gzip]\nbody:zzz\nend(eof)\n"},
      {"head_no_body",
       "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n",
       {"HEAD", "GET"},
       false,
       "head 200 OK [Content-Length=10]\nbody:\nend\nhead 204 No Content\nbody:\nend\n"},
      {"not_modified_no_body",
       "HTTP/1.1 304 Not Modified\r\nContent-Length: 10\r\nETag: \"a\"\r\n\r\n",
       {"GET"},
       false,
       "head 304 Not Modified [Content-Length=10] [ETag=\"a\"]\nbody:\nend\n"},
      {"interim_then_final",
       "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok",
       {"POST"},
       false,
       "head 100 Continue\nhead 200 OK [Content-Length=2]\nbody:ok\nend\n"},
      {"pipelined",
       "HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\naHTTP/1.1 404 Not Found\r\nContent-Length: 2\r\n\r\nno",
       {"GET", "GET"},
       false,
       "head 200 OK [Content-Length=1]\nbody:a\nend\nhead 404 Not Found [Content-Length=2]\nbody:no\nend\n"},
      {"no_reason_phrase",
       "HTTP/1.1 200\r\nContent-Length: 0\r\n\r\n",
       {"GET"},
       false,
       "head 200  [Content-Length=0]\nbody:\nend\n"},
      {"truncated_length",
       "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc",
       {"GET"},
       true,
       "head 200 OK [Content-Length=10]\neof error connection closed inside a message\n"},
      {"differing_cl",
       "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab",
       {"GET"},
       false,
       "error 400 differing Content-Length values\n"},
      {"bad_status_line", "HTTP/1.1 2x0 OK\r\n\r\n", {"GET"}, false, "error 400 malformed status line\n"},
      {"bad_chunk",
       "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nq\r\n",
       {"GET"},
       false,
       "head 200 OK [Transfer-Encoding=chunked]\nerror 400 malformed chunk size\n"},
  };
}

TEST(ResponseParser, VectorsAtEverySplit) {
  for (const auto& c : cases()) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(feed_responses(pieces{c.input}, c.methods, c.eof), c.expected);
    for_each_split(c.input, [&](const pieces& p) { ASSERT_EQ(feed_responses(p, c.methods, c.eof), c.expected); });
  }
}

TEST(ResponseParser, TruncationsNeverComplete) {
  const std::string in = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n";
  for_each_prefix(in, [&](std::string_view prefix) {
    const std::string out = feed_responses(pieces{prefix}, {"GET"}, false);
    ASSERT_EQ(out.find("end"), std::string::npos) << out;
    ASSERT_EQ(out.find("error"), std::string::npos) << out;
  });
}

TEST(ResponseParser, ChunkSizeOverflowIsGuarded) {
  const std::string in = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffffff\r\n";
  EXPECT_NE(feed_responses(pieces{in}, {"GET"}, false).find("chunk size too large"), std::string::npos);
}

TEST(ResponseParser, HugeHeadIsRefused) {
  netlib::http::parser_limits lim;
  lim.max_head_bytes = 100;
  const std::string in = "HTTP/1.1 200 OK\r\nX: " + std::string(200, 'a');
  EXPECT_NE(feed_responses(pieces{in}, {"GET"}, false, lim).find("error 431"), std::string::npos);
}

}  // namespace
