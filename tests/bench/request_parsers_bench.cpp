// netlab's request parser against Node's http_parser (Debian's libhttp-parser-dev), on the same
// corpus of requests: wrk's, curl's, a Firefox and a Chrome page load, a form POST with a body,
// pipelined into one 64 KiB stream. Each parser does what a server needs from it: the method,
// the target and every field as spans of the input (netlib's request_view; http_parser's
// callbacks store the same spans in an array), the body bytes, the end of each message.
//
//   bench_request_parsers [--benchmark_format=json]          requests/s and bytes/s of each
//   bench_request_parsers --count netlib|http_parser ROUNDS  parses the corpus ROUNDS times and
//                                                            prints the requests parsed (run under
//                                                            callgrind twice by tests/bench/run:
//                                                            instructions per request)
// Every loop checks the count of messages and body bytes, so a parser that stops early or fails
// aborts instead of reporting a flattering figure. Without libhttp-parser-dev only netlib's runs.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

#include "browser_requests.hpp"
#include "netlib/http/request_parser.hpp"

#if NETLAB_HAVE_HTTP_PARSER
#include <http_parser.h>
#endif

namespace {

using netlib::as_bytes;
using netlib::byte_view;

void require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "bench_request_parsers: %s\n", what);
    std::abort();
  }
}

constexpr std::string_view form_body = "name=alice&password=secret1";

// The corpus: five kinds of request, repeated to 64 KiB; `requests` and `body_bytes` per pass.
struct corpus {
  std::string bytes;
  std::size_t requests = 0;
  std::size_t body_bytes = 0;
};

const corpus& request_corpus() {
  static const corpus c = [] {
    const std::string kinds[] = {
        // wrk 4.1
        "GET /small.bin HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n",
        // curl 7.88
        "GET /index.html HTTP/1.1\r\nHost: localhost:8080\r\nUser-Agent: curl/7.88.1\r\nAccept: */*\r\n\r\n",
        // Firefox 128, an image of a page
        std::string(netlab::bench::firefox_image_get),
        // Chrome 126, a page
        "GET /docs/labs/http.html HTTP/1.1\r\n"
        "Host: netlab.example.org\r\n"
        "Connection: keep-alive\r\n"
        "Cache-Control: max-age=0\r\n"
        "sec-ch-ua: \"Not/A)Brand\";v=\"8\", \"Chromium\";v=\"126\", \"Google Chrome\";v=\"126\"\r\n"
        "sec-ch-ua-mobile: ?0\r\n"
        "sec-ch-ua-platform: \"Linux\"\r\n"
        "Upgrade-Insecure-Requests: 1\r\n"
        "User-Agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 "
        "Safari/537.36\r\n"
        "Accept: text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8\r\n"
        "Sec-Fetch-Site: same-origin\r\n"
        "Sec-Fetch-Mode: navigate\r\n"
        "Sec-Fetch-User: ?1\r\n"
        "Sec-Fetch-Dest: document\r\n"
        "Referer: http://netlab.example.org/docs/\r\n"
        "Accept-Encoding: gzip, deflate, br, zstd\r\n"
        "Accept-Language: en-GB,en;q=0.9\r\n"
        "If-Modified-Since: Mon, 30 Nov 2026 12:00:00 GMT\r\n\r\n",
        // a form POST with its body
        "POST /login HTTP/1.1\r\nHost: localhost:8080\r\nUser-Agent: curl/7.88.1\r\nAccept: */*\r\n"
        "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 27\r\n\r\n" +
            std::string(form_body),
    };
    corpus out;
    while (out.bytes.size() < 64 * 1024) {
      for (const auto& k : kinds) {
        out.bytes += k;
        ++out.requests;
      }
      out.body_bytes += form_body.size();
    }
    return out;
  }();
  return c;
}

// netlab: the way a driver feeds it (the unconsumed input, drop `consumed`, repeat).
[[gnu::noinline]] std::size_t parse_with_netlib(const corpus& c) {
  netlib::http::request_parser p;
  byte_view rest = as_bytes(c.bytes);
  std::size_t messages = 0, body = 0, fields = 0;
  for (;;) {  // until it needs more: the last message completes after its body's last byte was taken
    const auto step = p.next(rest);
    if (std::holds_alternative<netlib::http::head_complete>(step.event)) {
      fields += p.head().fields.size();
      benchmark::DoNotOptimize(p.head().target.data());
    } else if (const auto* d = std::get_if<netlib::http::body_data>(&step.event)) {
      body += d->bytes.size();
    } else if (std::holds_alternative<netlib::http::message_complete>(step.event)) {
      ++messages;
    }
    require(!std::holds_alternative<netlib::http::parse_error>(step.event), "netlib: request parse error");
    if (step.consumed == 0 && std::holds_alternative<netlib::http::need_more>(step.event)) break;
    rest = rest.subspan(step.consumed);
  }
  require(rest.empty() && messages == c.requests && body == c.body_bytes && fields > messages,
          "netlib: corpus not parsed whole");
  return messages;
}

#if NETLAB_HAVE_HTTP_PARSER
// What the callbacks keep: the spans a server needs, as netlib keeps them.
struct http_parser_state {
  struct span {
    const char* at = nullptr;
    std::size_t size = 0;
  };
  span url;
  span names[100], values[100];
  std::size_t field_count = 0;
  std::size_t messages = 0, body = 0, fields = 0;
};

int on_message_begin(http_parser* p) {
  static_cast<http_parser_state*>(p->data)->field_count = 0;
  return 0;
}
int on_url(http_parser* p, const char* at, std::size_t n) {
  static_cast<http_parser_state*>(p->data)->url = {at, n};
  return 0;
}
int on_header_field(http_parser* p, const char* at, std::size_t n) {
  auto* s = static_cast<http_parser_state*>(p->data);
  if (s->field_count == 100) return 1;
  s->names[s->field_count] = {at, n};
  return 0;
}
int on_header_value(http_parser* p, const char* at, std::size_t n) {
  auto* s = static_cast<http_parser_state*>(p->data);
  s->values[s->field_count++] = {at, n};
  return 0;
}
int on_headers_complete(http_parser* p) {
  auto* s = static_cast<http_parser_state*>(p->data);
  s->fields += s->field_count;
  benchmark::DoNotOptimize(s->url.at);
  return 0;
}
int on_body(http_parser* p, const char*, std::size_t n) {
  static_cast<http_parser_state*>(p->data)->body += n;
  return 0;
}
int on_message_complete(http_parser* p) {
  ++static_cast<http_parser_state*>(p->data)->messages;
  return 0;
}

[[gnu::noinline]] std::size_t parse_with_http_parser(const corpus& c) {
  static const http_parser_settings settings = [] {
    http_parser_settings s;
    http_parser_settings_init(&s);
    s.on_message_begin = on_message_begin;
    s.on_url = on_url;
    s.on_header_field = on_header_field;
    s.on_header_value = on_header_value;
    s.on_headers_complete = on_headers_complete;
    s.on_body = on_body;
    s.on_message_complete = on_message_complete;
    return s;
  }();
  http_parser_state state;
  http_parser p;
  http_parser_init(&p, HTTP_REQUEST);
  p.data = &state;
  const std::size_t used = http_parser_execute(&p, &settings, c.bytes.data(), c.bytes.size());
  require(used == c.bytes.size() && HTTP_PARSER_ERRNO(&p) == HPE_OK, "http_parser: request parse error");
  require(state.messages == c.requests && state.body == c.body_bytes && state.fields > state.messages,
          "http_parser: corpus not parsed whole");
  return state.messages;
}
#endif

template <std::size_t (*Parse)(const corpus&)>
void bm_requests(benchmark::State& state) {
  const corpus& c = request_corpus();
  std::size_t messages = 0;
  for (auto _ : state) messages += Parse(c);
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * c.bytes.size()));
  state.SetItemsProcessed(static_cast<std::int64_t>(messages));
}

}  // namespace

BENCHMARK_TEMPLATE(bm_requests, parse_with_netlib)->Name("bm_request_corpus/netlib");
#if NETLAB_HAVE_HTTP_PARSER
BENCHMARK_TEMPLATE(bm_requests, parse_with_http_parser)->Name("bm_request_corpus/http_parser");
#endif

int main(int argc, char** argv) {
  if (argc == 4 && std::strcmp(argv[1], "--count") == 0) {
    const std::string_view which = argv[2];
    const long rounds = std::strtol(argv[3], nullptr, 10);
    const corpus& c = request_corpus();
    std::size_t requests = 0;
    for (long i = 0; i < rounds; ++i) {
      if (which == "netlib") requests += parse_with_netlib(c);
#if NETLAB_HAVE_HTTP_PARSER
      else if (which == "http_parser")
        requests += parse_with_http_parser(c);
#endif
      else {
        std::fprintf(stderr, "bench_request_parsers: unknown parser %s\n", argv[2]);
        return 2;
      }
    }
    std::printf("%zu requests\n", requests);
    return 0;
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
