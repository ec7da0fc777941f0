// Fuzzes the passive POP3 session analyzer, like smtp_analyzer_fuzz (analyzer_feed.hpp): the
// commands' client-stream ranges (which netlab-grade's client suite reads) lie within the client
// bytes fed, in order, without overlap.
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "analyzer_feed.hpp"
#include "netlib/pop3/session_analyzer.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  netlib::pop3::session_analyzer a;
  const std::size_t fed = netlab::fuzz::feed_analyzer(a, data, size);
  std::vector<std::pair<std::size_t, std::size_t>> ranges;
  for (const auto& c : a.session().commands) ranges.emplace_back(c.client_begin, c.client_end);
  netlab::fuzz::check_ranges(std::move(ranges), fed);
  return 0;
}
