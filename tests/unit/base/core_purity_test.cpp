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
