// Fuzz target: the pcap/pcapng reader must answer any bytes with packets, a counted skip, or a
// capture_error; never a crash, an over-read or unbounded memory (block sizes are limited).
#include <cstddef>
#include <cstdint>
#include <string>

#include "netlib/capture/capture_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    auto reader =
        netlib::capture::capture_reader::from_bytes(std::string(reinterpret_cast<const char*>(data), size), "fuzz");
    std::size_t total = 0;
    for (int i = 0; i < 100000; ++i) {
      auto rec = reader.next();
      if (!rec) break;
      for (auto b : rec->data) total += static_cast<std::size_t>(b);
    }
    (void)reader.interfaces();
    return total == 1 ? 0 : 0;
  } catch (const netlib::capture::capture_error&) {
    return 0;
  }
}
