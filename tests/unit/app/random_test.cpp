// netlib::app::random_hex: getrandom(2) bytes as hex (session ids, Message-ID tokens).
#include <gtest/gtest.h>

#include <set>

#include "netlib/app/random.hpp"

TEST(RandomHex, GivesTwoLowercaseHexDigitsPerByteAndNeverRepeats) {
  EXPECT_EQ(netlib::app::random_hex(0), "");
  std::set<std::string> seen;
  for (int i = 0; i < 1000; ++i) {
    const auto id = netlib::app::random_hex(16);
    ASSERT_EQ(id.size(), 32u);
    EXPECT_EQ(id.find_first_not_of("0123456789abcdef"), std::string::npos) << id;
    seen.insert(id);
  }
  EXPECT_EQ(seen.size(), 1000u) << "128-bit ids repeated";
}
