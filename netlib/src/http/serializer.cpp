// Serializers for RFC 9112 heads and chunked framing.
#include "netlib/http/serializer.hpp"

#include <cstring>

#include <fmt/format.h>

#include "netlib/http/status.hpp"

namespace netlib::http {
namespace {
template <class Fields>
void append_fields(std::string& out, const Fields& f) {
  for (const auto& line : f.lines()) {
    out += line.name;
    out += ": ";
    out += line.value;
    out += "\r\n";
  }
}
}  // namespace

std::string serialize(const request_view& r) {
  std::string out = fmt::format("{} {} HTTP/{}.{}\r\n", r.method, r.target, r.version.major, r.version.minor);
  append_fields(out, r.fields);
  out += "\r\n";
  return out;
}

std::string serialize(const response_head& r) {
  std::string out;
  serialize_into(r, out);
  return out;
}

// Every response goes through here, so it is written with at most one allocation (none when `out`
// has the room) and plain copies: the status line (by hand in the common case: one-digit
// versions, a three-digit status), then each field line.
void serialize_into(const response_head& r, std::string& out) {
  const std::string_view reason = r.reason.empty() ? reason_phrase(r.status) : std::string_view(r.reason);
  const bool common = r.version.major >= 0 && r.version.major <= 9 && r.version.minor >= 0 && r.version.minor <= 9 &&
                      r.status >= 0 && r.status <= 999;
  const auto digit = [](int v) { return static_cast<char>('0' + v); };
  const char start[] = {'H',
                        'T',
                        'T',
                        'P',
                        '/',
                        digit(r.version.major),
                        '.',
                        digit(r.version.minor),
                        ' ',
                        digit(r.status / 100),
                        digit(r.status / 10 % 10),
                        digit(r.status % 10),
                        ' '};
  const std::string other =
      common ? std::string()
             : fmt::format("HTTP/{}.{} {:03d} {}\r\n", r.version.major, r.version.minor, r.status, reason);
  const std::size_t size =
      (common ? sizeof start + reason.size() + 2 : other.size()) + 2 + r.fields.text_bytes() + 4 * r.fields.size();
  const std::size_t at = out.size();
  out.resize(at + size);
  char* p = out.data() + at;
  const auto put = [&p](std::string_view text) {
    detail::copy_bytes(p, text.data(), text.size());
    p += text.size();
  };
  if (common) {
    put(std::string_view(start, sizeof start));
    put(reason);
    put("\r\n");
  } else {
    put(other);
  }
  for (const field_view f : r.fields.lines()) {
    put(f.name);
    *p++ = ':';
    *p++ = ' ';
    put(f.value);
    *p++ = '\r';
    *p++ = '\n';
  }
  *p++ = '\r';
  *p++ = '\n';
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
