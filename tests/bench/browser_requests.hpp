#pragma once
// Requests as browsers send them, shared by the HTTP parser benchmarks (parsers_bench.cpp and
// request_parsers_bench.cpp), so that both measure the same bytes.
#include <string_view>

namespace netlab::bench {

// Firefox 128 fetching an image of a page: about 450 bytes, ten fields.
inline constexpr std::string_view firefox_image_get =
    "GET /images/logo-large.png?v=1234 HTTP/1.1\r\n"
    "Host: www.example.com\r\n"
    "User-Agent: Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0\r\n"
    "Accept: image/avif,image/webp,image/png,image/svg+xml,image/*;q=0.8,*/*;q=0.5\r\n"
    "Accept-Language: en-US,en;q=0.5\r\n"
    "Accept-Encoding: gzip, deflate, br\r\n"
    "Connection: keep-alive\r\n"
    "Referer: http://www.example.com/index.html\r\n"
    "If-None-Match: \"5f3e-1a2b3c4d\"\r\n"
    "Cookie: session=0123456789abcdef0123456789abcdef\r\n\r\n";

}  // namespace netlab::bench
