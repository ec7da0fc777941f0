// Serializers for RFC 9112 heads and chunked framing.
#include "netlib/http/serializer.hpp"

#include <fmt/format.h>

#include "netlib/http/status.hpp"

namespace netlib::http {
namespace {
void append_fields(std::string& out, const fields& f) {
  for (const auto& line : f.lines()) {
    out += line.name;
    out += ": ";
    out += line.value;
    out += "\r\n";
  }
}
}  // namespace

std::string serialize(const request_head& r) {
  std::string out = fmt::format("{} {} HTTP/{}.{}\r\n", r.method, r.target, r.version.major, r.version.minor);
  append_fields(out, r.fields);
  out += "\r\n";
  return out;
}

std::string serialize(const response_head& r) {
  const std::string_view reason = r.reason.empty() ? reason_phrase(r.status) : std::string_view(r.reason);
  std::string out = fmt::format("HTTP/{}.{} {:03d} {}\r\n", r.version.major, r.version.minor, r.status, reason);
  append_fields(out, r.fields);
  out += "\r\n";
  return out;
}

std::string serialize_chunk(std::string_view data) {
  if (data.empty()) return {};
  return fmt::format("{:x}\r\n{}\r\n", data.size(), data);
}

std::string serialize_last_chunk(const fields& trailers) {
  std::string out = "0\r\n";
  append_fields(out, trailers);
  out += "\r\n";
  return out;
}

}  // namespace netlib::http
