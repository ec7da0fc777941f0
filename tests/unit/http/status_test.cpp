// Reason phrases (RFC 9110 §15, RFC 6585): every code either RFC defines has its phrase, the
// status line carries it (lab-http serve answered a locked-out client "HTTP/1.1 429 Unknown"),
// and a code neither defines gets an empty phrase, never an invented one.
#include <gtest/gtest.h>

#include <map>

#include "netlib/http/serializer.hpp"
#include "netlib/http/status.hpp"

namespace status_test {

namespace http = netlib::http;

// RFC 9110 §15.2-§15.6 and RFC 6585 §3-§6, as the RFCs write them.
const std::map<int, std::string> rfc_phrases{
    {100, "Continue"},
    {101, "Switching Protocols"},
    {200, "OK"},
    {201, "Created"},
    {202, "Accepted"},
    {203, "Non-Authoritative Information"},
    {204, "No Content"},
    {205, "Reset Content"},
    {206, "Partial Content"},
    {300, "Multiple Choices"},
    {301, "Moved Permanently"},
    {302, "Found"},
    {303, "See Other"},
    {304, "Not Modified"},
    {305, "Use Proxy"},
    {307, "Temporary Redirect"},
    {308, "Permanent Redirect"},
    {400, "Bad Request"},
    {401, "Unauthorized"},
    {402, "Payment Required"},
    {403, "Forbidden"},
    {404, "Not Found"},
    {405, "Method Not Allowed"},
    {406, "Not Acceptable"},
    {407, "Proxy Authentication Required"},
    {408, "Request Timeout"},
    {409, "Conflict"},
    {410, "Gone"},
    {411, "Length Required"},
    {412, "Precondition Failed"},
    {413, "Content Too Large"},
    {414, "URI Too Long"},
    {415, "Unsupported Media Type"},
    {416, "Range Not Satisfiable"},
    {417, "Expectation Failed"},
    {421, "Misdirected Request"},
    {422, "Unprocessable Content"},
    {426, "Upgrade Required"},
    {428, "Precondition Required"},
    {429, "Too Many Requests"},
    {431, "Request Header Fields Too Large"},
    {500, "Internal Server Error"},
    {501, "Not Implemented"},
    {502, "Bad Gateway"},
    {503, "Service Unavailable"},
    {504, "Gateway Timeout"},
    {505, "HTTP Version Not Supported"},
    {511, "Network Authentication Required"},
};

TEST(Status, EveryCodeOfRfc9110AndRfc6585HasItsPhrase) {
  for (int code = 100; code <= 599; ++code) {
    const auto it = rfc_phrases.find(code);
    EXPECT_EQ(http::reason_phrase(code), it == rfc_phrases.end() ? "" : it->second) << code;
  }
  EXPECT_EQ(http::reason_phrase(0), "");
  EXPECT_EQ(http::reason_phrase(999), "");
  EXPECT_EQ(fmt::format("{}", http::status{429}), "429 Too Many Requests");
  EXPECT_EQ(fmt::format("{}", http::status{299}), "299");
}

TEST(Status, StatusLineCarriesThePhrase) {
  http::response_head h;
  h.status = 429;
  EXPECT_EQ(http::serialize(h).substr(0, 32), "HTTP/1.1 429 Too Many Requests\r\n");
  h.status = 299;  // RFC 9112 §4: status-line = HTTP-version SP status-code SP [ reason-phrase ]
  EXPECT_EQ(http::serialize(h).substr(0, 15), "HTTP/1.1 299 \r\n");
}

}  // namespace status_test
