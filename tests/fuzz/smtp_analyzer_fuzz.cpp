// Fuzzes the passive SMTP session analyzer: input bytes alternate between client and server
// chunks, the chunk boundaries and directions chosen by the data itself (analyzer_feed.hpp).
// Checked: the client-stream ranges of the commands and messages (which netlab-replay re-sends)
// lie within the client bytes fed, in order, without overlap.
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "analyzer_feed.hpp"
#include "netlib/smtp/session_analyzer.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  netlib::smtp::session_analyzer a;
  const std::size_t fed = netlab::fuzz::feed_analyzer(a, data, size);
  std::vector<std::pair<std::size_t, std::size_t>> ranges;
  for (const auto& u : netlib::smtp::units_in_client_order(a.session())) ranges.emplace_back(u.begin, u.end);
  netlab::fuzz::check_ranges(std::move(ranges), fed);
  return 0;
}
