#pragma once
// Real-world captures made by other projects (zeek's and PcapPlusPlus's test traces). They are not
// in the repository: captures/ holds only what this project's own tools made, each with its recipe
// (docs/testing.md). The tests that read them look in ../shared/real-captures beside the source
// tree and skip, naming what is missing, where it is absent.
//
//   NETLAB_REQUIRE_REAL_CAPTURE("zeek_smtp.pcap");
//   const auto doc = analyze(netlab::test::real_capture("zeek_smtp.pcap"));
#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "support/process.hpp"

namespace netlab::test {

inline std::filesystem::path real_captures_folder() {
  return source_path("../shared/real-captures");
}

inline std::string real_capture(const std::string& name) {
  return (real_captures_folder() / name).string();
}

// Every .pcap and .pcapng file of the folder, sorted; none when it is absent.
inline std::vector<std::filesystem::path> all_real_captures() {
  std::vector<std::filesystem::path> out;
  if (!std::filesystem::is_directory(real_captures_folder())) return out;
  for (const auto& e : std::filesystem::directory_iterator(real_captures_folder())) {
    const auto ext = e.path().extension();
    if (ext == ".pcap" || ext == ".pcapng") out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace netlab::test

// Skips the test unless the real-world capture `name` is present.
#define NETLAB_REQUIRE_REAL_CAPTURE(name)                                                                \
  do {                                                                                                   \
    if (!std::filesystem::exists(::netlab::test::real_capture(name)))                                    \
      GTEST_SKIP() << ::netlab::test::real_capture(name)                                                 \
                   << " is absent (a real-world capture, kept outside the repository: docs/testing.md)"; \
  } while (0)
