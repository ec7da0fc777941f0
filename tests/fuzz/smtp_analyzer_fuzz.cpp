// Fuzzes the passive SMTP session analyzer: input bytes alternate between client and server
// chunks, the chunk boundaries and directions chosen by the data itself (analyzer_feed.hpp).
// Checked: the client-stream ranges of the commands and messages (which netlab-replay re-sends)
// lie within the client bytes fed, in order, without overlap.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <utility>
#include <vector>

#include "analyzer_feed.hpp"
#include "netlib/smtp/session_analyzer.hpp"

namespace {

// Counts the client's bytes on their way to the analyzer.
struct counting_feed {
  netlib::smtp::session_analyzer& a;
  std::size_t client = 0;
  void client_bytes(netlib::byte_view b) {
    client += b.size();
    a.client_bytes(b);
  }
  void server_bytes(netlib::byte_view b) { a.server_bytes(b); }
  void gap(bool from_client, std::size_t n) { a.gap(from_client, n); }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  netlib::smtp::session_analyzer a;
  counting_feed feed{a};
  netlab::fuzz::feed_analyzer(feed, data, size);
  std::vector<std::pair<std::size_t, std::size_t>> ranges;
  for (const auto& c : a.session().commands) {
    if (c.verb != "<unsolicited>") ranges.emplace_back(c.client_begin, c.client_end);
  }
  for (const auto& m : a.session().messages) ranges.emplace_back(m.client_begin, m.client_end);
  std::sort(ranges.begin(), ranges.end());
  std::size_t at = 0;
  for (const auto& [begin, end] : ranges) {
    if (begin < at || end < begin || end > feed.client) std::abort();
    at = end;
  }
  return 0;
}
