// docs/architecture.md ("Libraries"): no Boost, OpenSSL or pcap header is included anywhere under the core folders.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

#include "support/process.hpp"

namespace fs = std::filesystem;

TEST(core_purity, core_folders_include_no_io_library) {
  const std::regex forbidden(R"(^\s*#\s*include\s*[<"](boost/|openssl/|pcap))");
  const char* areas[] = {"core", "calc", "http", "ftp", "smtp", "pop3", "mail", "l2", "packet", "dc"};
  std::size_t files = 0;
  for (const char* base : {"netlib/include/netlib/", "netlib/src/"}) {
    for (const char* area : areas) {
      const fs::path dir = netlab::test::source_path(std::string(base) + area);
      if (!fs::exists(dir)) continue;
      for (const auto& entry : fs::recursive_directory_iterator(dir)) {
        if (!entry.is_regular_file()) continue;
        ++files;
        std::ifstream in(entry.path());
        std::string line;
        int number = 0;
        while (std::getline(in, line)) {
          ++number;
          EXPECT_FALSE(std::regex_search(line, forbidden))
              << entry.path().string() << ":" << number << " includes an I/O library: " << line;
        }
      }
    }
  }
  EXPECT_GT(files, 0u) << "no core files found: is NETLAB_SOURCE_DIR right?";
}

// docs/architecture.md ("Protocol cores never do I/O"): time comes in as a value and nothing is
// random, so no core folder reads a clock, sleeps or draws a random number.
TEST(core_purity, core_folders_read_no_clock_and_no_random_source) {
  const std::regex forbidden(
      R"((steady_clock|system_clock|high_resolution_clock)::now|std::time\(|\bclock_gettime\b|\bgettimeofday\b|)"
      R"(sleep_for|sleep_until|\brandom_device\b|\brand\(\))");
  const char* areas[] = {"core", "calc", "http", "ftp", "smtp", "pop3", "mail", "l2", "packet"};
  std::size_t files = 0;
  for (const char* base : {"netlib/include/netlib/", "netlib/src/"}) {
    for (const char* area : areas) {
      const fs::path dir = netlab::test::source_path(std::string(base) + area);
      if (!fs::exists(dir)) continue;
      for (const auto& entry : fs::recursive_directory_iterator(dir)) {
        if (!entry.is_regular_file()) continue;
        ++files;
        std::ifstream in(entry.path());
        std::string line;
        int number = 0;
        while (std::getline(in, line)) {
          ++number;
          const auto code = line.substr(0, line.find("//"));  // comments may name what is not done
          EXPECT_FALSE(std::regex_search(code, forbidden))
              << entry.path().string() << ":" << number << " reads a clock or a random source: " << line;
        }
      }
    }
  }
  EXPECT_GT(files, 0u);
}
