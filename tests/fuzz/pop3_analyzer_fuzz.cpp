// Fuzzes the passive POP3 session analyzer, like smtp_analyzer_fuzz.
#include <cstddef>
#include <algorithm>
#include <cstdint>

#include "netlib/pop3/session_analyzer.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  netlib::pop3::session_analyzer a;
  std::size_t i = 0;
  while (i < size) {
    const std::uint8_t control = data[i++];
    const std::size_t n = std::min<std::size_t>(control & 0x3f, size - i);
    const netlib::byte_view chunk(reinterpret_cast<const std::byte*>(data + i), n);
    if (control & 0x80) a.client_bytes(chunk);
    else if (control & 0x40) a.server_bytes(chunk);
    else a.gap((control & 1) != 0, n);
    i += n;
  }
  return static_cast<int>(a.session().commands.size() * 0);
}
