#pragma once
// HTTP response time (textbook §2.2.2, problems P7/P8): from the click until the last object
// arrives, for a base page that references N objects on the same server.
//   DNS: the whole resolution time (given once).
//   non-persistent, serial:        DNS + 2 RTT (base) + N · 2 RTT
//   non-persistent, P parallel:    DNS + 2 RTT (base) + ceil(N/P) · 2 RTT
//   persistent, no pipelining:     DNS + 2 RTT (base) + N · RTT
//   persistent, pipelining:        DNS + 2 RTT (base) + 1 RTT (when N > 0)
// Each 2 RTT is one for the TCP handshake and one for the request and its response. When object
// sizes and a rate are given, every byte also crosses the bottleneck once:
// + (base + N · object) / rate (parallel connections share the rate).
#include <optional>
#include <string>
#include <string_view>

namespace netlib::calc {

enum class http_mode { nonpersistent, parallel, persistent, pipelined };

std::string_view mode_name(http_mode m);
std::optional<http_mode> parse_http_mode(std::string_view text);

struct http_timing_input {
  double rtt_s = 0;
  double dns_s = 0;
  long long objects = 0;  // referenced by the base page, the page itself not counted
  http_mode mode = http_mode::nonpersistent;
  long long parallel = 1;  // connections, for http_mode::parallel
  double base_bits = 0;    // sizes, for transmission times (0: ignored)
  double object_bits = 0;
  double rate_bps = 0;  // 0: transmission times are zero
};

struct http_timing_result {
  double total_s = 0;
  double rtts = 0;  // number of RTTs after DNS
  double dns_s = 0;
  double transmission_s = 0;
  std::string explanation;
};

http_timing_result http_response_time(const http_timing_input& in);

}  // namespace netlib::calc
