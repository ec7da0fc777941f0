#pragma once
// The input of a passive analyzer's fuzz target (smtp_analyzer_fuzz, pop3_analyzer_fuzz): bytes
// that alternate between client and server chunks, the chunk boundaries and directions chosen by
// the data itself. Each control byte: 0x80 client bytes, else 0x40 server bytes, else a gap (in
// the client's direction when bit 0 is set); its low six bits are the chunk's length.
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "netlib/core/bytes.hpp"

namespace netlab::fuzz {

template <class Analyzer>
void feed_analyzer(Analyzer& a, const std::uint8_t* data, std::size_t size) {
  std::size_t i = 0;
  while (i < size) {
    const std::uint8_t control = data[i++];
    const std::size_t n = std::min<std::size_t>(control & 0x3f, size - i);
    const netlib::byte_view chunk(reinterpret_cast<const std::byte*>(data + i), n);
    if (control & 0x80)
      a.client_bytes(chunk);
    else if (control & 0x40)
      a.server_bytes(chunk);
    else
      a.gap((control & 1) != 0, n);
    i += n;
  }
}

}  // namespace netlab::fuzz
