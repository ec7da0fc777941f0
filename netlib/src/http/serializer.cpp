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

// Every response goes through here, so the common case (one-digit versions, a three-digit status)
// is appended by hand into one allocation sized up front.
std::string serialize(const response_head& r) {
  const std::string_view reason = r.reason.empty() ? reason_phrase(r.status) : std::string_view(r.reason);
  std::size_t size = 17 + reason.size() + 2;
  for (const auto& line : r.fields.lines()) size += line.name.size() + line.value.size() + 4;
  std::string out;
  out.reserve(size);
  const auto digit = [](int v) { return static_cast<char>('0' + v); };
  if (r.version.major >= 0 && r.version.major <= 9 && r.version.minor >= 0 && r.version.minor <= 9 && r.status >= 0 &&
      r.status <= 999) {
    out += "HTTP/";
    out += digit(r.version.major);
    out += '.';
    out += digit(r.version.minor);
    out += ' ';
    out += digit(r.status / 100);
    out += digit(r.status / 10 % 10);
    out += digit(r.status % 10);
    out += ' ';
    out += reason;
    out += "\r\n";
  } else {
    out = fmt::format("HTTP/{}.{} {:03d} {}\r\n", r.version.major, r.version.minor, r.status, reason);
  }
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
