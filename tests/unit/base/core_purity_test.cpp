// docs/architecture.md ("Libraries"): no Boost, OpenSSL or pcap header is included anywhere under the core folders.
#include <gtest/gtest.h>

#include <initializer_list>
#include <regex>
#include <string>
#include <vector>

#include "support/source_lines.hpp"

namespace core_purity_test {  // named: unity batches share one translation unit

// Each area's folder of headers and of sources.
std::vector<std::string> core_folders(std::initializer_list<const char*> areas) {
  std::vector<std::string> out;
  for (const char* base : {"netlib/include/netlib/", "netlib/src/"})
    for (const char* area : areas) out.push_back(std::string(base) + area);
  return out;
}

TEST(CorePurity, core_folders_include_no_io_library) {
  const std::regex forbidden(R"(^\s*#\s*include\s*[<"](boost/|openssl/|pcap))");
  const auto files = netlab::test::for_each_source_line(
      core_folders({"core", "calc", "http", "ftp", "smtp", "pop3", "mail", "l2", "packet", "dc"}),
      [&](const std::string& where, const std::string& line) {
        EXPECT_FALSE(std::regex_search(line, forbidden)) << where << " includes an I/O library: " << line;
      });
  EXPECT_GT(files, 0u) << "no core files found: is NETLAB_SOURCE_DIR right?";
}

// docs/architecture.md ("Protocol cores never do I/O"): time comes in as a value and nothing is
// random, so no core folder reads a clock, sleeps or draws a random number.
TEST(CorePurity, core_folders_read_no_clock_and_no_random_source) {
  const std::regex forbidden(
      R"((steady_clock|system_clock|high_resolution_clock)::now|std::time\(|\bclock_gettime\b|\bgettimeofday\b|)"
      R"(sleep_for|sleep_until|\brandom_device\b|\brand\(\))");
  const auto files = netlab::test::for_each_source_line(
      core_folders({"core", "calc", "http", "ftp", "smtp", "pop3", "mail", "l2", "packet"}),
      [&](const std::string& where, const std::string& line) {
        const auto code = line.substr(0, line.find("//"));  // comments may name what is not done
        EXPECT_FALSE(std::regex_search(code, forbidden)) << where << " reads a clock or a random source: " << line;
      });
  EXPECT_GT(files, 0u);
}

}  // namespace core_purity_test
