// Fuzz target: the HTTP response parser (with HEAD and GET expectations and end of stream).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "netlib/core/bytes.hpp"
#include "netlib/http/response_parser.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  netlib::http::response_parser p;
  p.expect((data[0] & 1) ? "HEAD" : "GET");
  p.expect("GET");
  const std::string_view in(reinterpret_cast<const char*>(data + 1), size - 1);
  netlib::input_buffer buf;
  const std::size_t step = 1 + data[0] % 7;
  for (std::size_t pos = 0; pos < in.size(); pos += step) {
    buf.append(in.substr(pos, step));
    for (int i = 0; i < 100000; ++i) {
      auto s = p.next(buf.data());
      if (s.consumed > buf.size()) __builtin_trap();
      buf.consume(s.consumed);
      if (std::holds_alternative<netlib::http::need_more>(s.event)) break;
      if (std::holds_alternative<netlib::http::parse_error>(s.event)) return 0;
    }
  }
  (void)p.receive_eof();
  return 0;
}
