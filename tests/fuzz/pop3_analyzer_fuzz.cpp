// Fuzzes the passive POP3 session analyzer, like smtp_analyzer_fuzz (analyzer_feed.hpp).
#include <cstddef>
#include <cstdint>

#include "analyzer_feed.hpp"
#include "netlib/pop3/session_analyzer.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  netlib::pop3::session_analyzer a;
  netlab::fuzz::feed_analyzer(a, data, size);
  return static_cast<int>(a.session().commands.size() * 0);
}
