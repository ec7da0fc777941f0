// Request text, one-connection exchanges and reply descriptions for the HTTP checks.
#include "http_exchange.hpp"

#include <fmt/format.h>

namespace netlab::grade {

std::string request_text(const http_options& o, std::string_view method, std::string_view target,
                         std::string_view extra_lines, std::string_view version) {
  return fmt::format("{} {} {}\r\nHost: {}:{}\r\nUser-Agent: netlab-grade\r\n{}\r\n", method, target, version, o.host,
                     o.port, extra_lines);
}

exchange_result exchange(const http_options& o, std::string_view request, const std::vector<std::string>& methods,
                         bool wait_close) {
  exchange_result x;
  http_probe probe(o.host, o.port, o.timeout);
  if (probe.send(request, methods)) {
    for (std::size_t i = 0; i < methods.size(); ++i) {
      auto r = probe.next_response();
      if (!r) break;
      x.replies.push_back(std::move(*r));
    }
    if (wait_close && x.replies.size() == methods.size()) probe.wait_closed();
  }
  x.error = probe.error();
  x.received = probe.received();
  x.extra = probe.extra();
  x.closed = probe.peer_closed();
  x.connected = probe.connected();
  return x;
}

std::string describe(const http_reply& r) {
  std::string out =
      fmt::format("HTTP/{}.{} {} {}", r.head.version.major, r.head.version.minor, r.head.status, r.head.reason);
  for (const auto& f : r.head.fields.lines()) out += fmt::format("; {}: {}", f.name, f.value);
  out += fmt::format(" [body {} bytes]", r.body.size());
  return printable(out, 600);
}

std::string describe(const exchange_result& x) {
  std::string out;
  for (const auto& r : x.replies) out += (out.empty() ? "" : " | then ") + describe(r);
  if (!x.error.empty()) {
    out += (out.empty() ? "" : " | then ") + x.error;
    if (x.replies.empty() && !x.received.empty()) out += " (raw: " + printable(x.received, 200) + ")";
  }
  if (!x.extra.empty() && !x.replies.empty())
    out += " | then " + std::to_string(x.extra.size()) + " more bytes: " + printable(x.extra, 80);
  return out.empty() ? "(nothing)" : out;
}

}  // namespace netlab::grade
