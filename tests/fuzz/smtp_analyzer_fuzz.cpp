// Fuzzes the passive SMTP session analyzer: input bytes alternate between client and server
// chunks, the chunk boundaries and directions chosen by the data itself (analyzer_feed.hpp).
#include <cstddef>
#include <cstdint>

#include "analyzer_feed.hpp"
#include "netlib/smtp/session_analyzer.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  netlib::smtp::session_analyzer a;
  netlab::fuzz::feed_analyzer(a, data, size);
  return static_cast<int>(a.session().commands.size() * 0);
}
