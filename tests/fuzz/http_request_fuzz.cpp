// Fuzz target: the HTTP request parser, the server session and the request-target decoder. Checks,
// besides memory safety, that feeding the input whole and in two pieces gives the same consumed
// total and the same outcome, and that a decoded path never leaves the root: no leading '/', no
// empty, "." or ".." segment, no '\\' or NUL.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "netlib/core/bytes.hpp"
#include "netlib/http/request_parser.hpp"
#include "netlib/http/server_session.hpp"
#include "netlib/http/target_path.hpp"

namespace {

std::string run(std::string_view a, std::string_view b) {
  netlib::http::parser_limits lim;
  lim.max_head_bytes = 4096;
  lim.max_body = 1 << 16;
  netlib::http::request_parser p(lim);
  netlib::input_buffer buf;
  std::string log;
  for (auto piece : {a, b}) {
    buf.append(piece);
    for (int i = 0; i < 100000; ++i) {
      auto s = p.next(buf.data());
      if (s.consumed > buf.size()) __builtin_trap();
      if (std::holds_alternative<netlib::http::head_complete>(s.event)) {
        log += 'H';
        log += p.head().method;  // a view of buf: read before the bytes are consumed
      }
      buf.consume(s.consumed);
      if (std::holds_alternative<netlib::http::need_more>(s.event)) break;
      if (auto* e = std::get_if<netlib::http::parse_error>(&s.event)) return log + "E" + std::to_string(int(e->code));
      if (auto* d = std::get_if<netlib::http::body_data>(&s.event)) log += "B" + std::to_string(d->bytes.size()) + ".";
      if (std::holds_alternative<netlib::http::message_complete>(s.event)) log += "M";
    }
  }
  return log;
}

// Body sizes depend on the split; compare only the non-body events.
std::string shape(const std::string& log) {
  std::string out;
  for (std::size_t i = 0; i < log.size(); ++i) {
    if (log[i] == 'B') {
      while (i < log.size() && log[i] != '.') ++i;
      continue;
    }
    out += log[i];
  }
  return out;
}

void check_target(std::string_view target) {
  const auto r = netlib::http::decode_target(target);
  if (!r.value) return;
  const std::string_view path = r.value->path;
  if (path.empty()) return;
  if (path.front() == '/' || path.back() == '/') __builtin_trap();
  for (std::size_t start = 0; start <= path.size();) {
    const std::size_t slash = std::min(path.find('/', start), path.size());
    const std::string_view seg = path.substr(start, slash - start);
    if (seg.empty() || seg == "." || seg == "..") __builtin_trap();
    for (const char c : seg)
      if (c == '\\' || c == '\0') __builtin_trap();
    start = slash + 1;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view in(reinterpret_cast<const char*>(data), size);
  const std::size_t cut = size == 0 ? 0 : data[0] % (size + 1);
  if (shape(run(in, {})) != shape(run(in.substr(0, cut), in.substr(cut)))) __builtin_trap();
  netlib::http::server_session s;
  auto step = s.receive(netlib::as_bytes(in), {});
  if (step.consumed > size) __builtin_trap();
  for (const auto& a : step.actions)
    if (const auto* r = std::get_if<netlib::http::serve_request>(&a)) check_target(r->head().target);
  check_target(in.substr(0, 512));
  return 0;
}
