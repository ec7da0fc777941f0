#pragma once
// The input of a passive analyzer's fuzz target (smtp_analyzer_fuzz, pop3_analyzer_fuzz), and the
// check of the client-stream ranges they give: bytes
// that alternate between client and server chunks, the chunk boundaries and directions chosen by
// the data itself. Each control byte: 0x80 client bytes, else 0x40 server bytes, else a gap (in
// the client's direction when bit 0 is set); its low six bits are the chunk's length.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <utility>
#include <vector>

#include "netlib/core/bytes.hpp"

namespace netlab::fuzz {

// Returns how many client bytes were fed (gaps are not bytes of the stream).
template <class Analyzer>
std::size_t feed_analyzer(Analyzer& a, const std::uint8_t* data, std::size_t size) {
  std::size_t i = 0, client = 0;
  while (i < size) {
    const std::uint8_t control = data[i++];
    const std::size_t n = std::min<std::size_t>(control & 0x3f, size - i);
    const netlib::byte_view chunk(reinterpret_cast<const std::byte*>(data + i), n);
    if (control & 0x80) {
      a.client_bytes(chunk);
      client += n;
    } else if (control & 0x40) {
      a.server_bytes(chunk);
    } else {
      a.gap((control & 1) != 0, n);
    }
    i += n;
  }
  return client;
}

// The client-stream ranges an analyzer gave its commands (netlab-replay re-sends them, netlab-grade
// checks them) lie within the `fed` client bytes, in order, without overlap; else abort.
inline void check_ranges(std::vector<std::pair<std::size_t, std::size_t>> ranges, std::size_t fed) {
  std::sort(ranges.begin(), ranges.end());
  std::size_t at = 0;
  for (const auto& [begin, end] : ranges) {
    if (begin < at || end < begin || end > fed) std::abort();
    at = end;
  }
}

}  // namespace netlab::fuzz
