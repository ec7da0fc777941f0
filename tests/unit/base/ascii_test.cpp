// netlib::ascii: case mapping and comparison of A-Z only, and trimming, checked over every byte.
#include <gtest/gtest.h>

#include <cctype>
#include <clocale>

#include "netlib/core/ascii.hpp"

namespace ascii_test {

namespace ascii = netlib::ascii;

TEST(Ascii, case_mapping_touches_letters_only) {
  for (int i = 0; i < 256; ++i) {
    const char c = static_cast<char>(i);
    const bool upper = i >= 'A' && i <= 'Z';
    const bool lower = i >= 'a' && i <= 'z';
    EXPECT_EQ(ascii::to_lower(c), upper ? static_cast<char>(i + 32) : c) << i;
    EXPECT_EQ(ascii::to_upper(c), lower ? static_cast<char>(i - 32) : c) << i;
    EXPECT_EQ(ascii::is_alpha(c), upper || lower) << i;
    EXPECT_EQ(ascii::is_digit(c), i >= '0' && i <= '9') << i;
  }
  EXPECT_EQ(ascii::to_upper("mail from:<Ä@x>"), "MAIL FROM:<Ä@X>");
  EXPECT_EQ(ascii::to_lower("Content-TYPE"), "content-type");
  std::string s = "eHlO";
  ascii::upper_in_place(s);
  EXPECT_EQ(s, "EHLO");
  ascii::lower_in_place(s);
  EXPECT_EQ(s, "ehlo");
}

TEST(Ascii, iequals_agrees_with_the_c_locale_on_every_byte_pair) {
  std::setlocale(LC_ALL, "C");
  for (int x = 0; x < 256; ++x) {
    for (int y = 0; y < 256; ++y) {
      const char a[1] = {static_cast<char>(x)};
      const char b[1] = {static_cast<char>(y)};
      const bool expected = std::tolower(x) == std::tolower(y);
      ASSERT_EQ(ascii::iequals({a, 1}, {b, 1}), expected) << x << " " << y;
    }
  }
  EXPECT_TRUE(ascii::iequals("Content-Length", "content-length"));
  EXPECT_FALSE(ascii::iequals("Content-Length", "Content-Lengt"));
  EXPECT_FALSE(ascii::iequals("[", "{"));  // 0x5B | 0x20 == 0x7B, but neither is a letter
  EXPECT_TRUE(ascii::istarts_with("Basic dXNlcg==", "basic "));
  EXPECT_FALSE(ascii::istarts_with("Bas", "basic "));
}

TEST(Ascii, trim) {
  EXPECT_EQ(ascii::trim("  a b \t"), "a b");
  EXPECT_EQ(ascii::trim(" \t "), "");
  EXPECT_EQ(ascii::trim(""), "");
  EXPECT_EQ(ascii::trim("\r\n x \n", ascii::white_space), "x");
  EXPECT_EQ(ascii::trim("\r x", " \t"), "\r x");  // only the characters asked for
  EXPECT_EQ(ascii::trim_left("  x "), "x ");
  EXPECT_EQ(ascii::trim_right("  x "), "  x");
  EXPECT_EQ(ascii::trim_right("   "), "");
  static_assert(ascii::trim(" ok ") == "ok");
}

TEST(Ascii, excerpt) {
  EXPECT_EQ(ascii::excerpt("leaf1"), "leaf1");
  EXPECT_EQ(ascii::excerpt("a\x1b[2Jb\x7f\xc3\xa9"), "a?[2Jb???");  // no escape reaches a terminal
  EXPECT_EQ(ascii::excerpt(std::string(41, 'x')), std::string(40, 'x') + "...");
  EXPECT_EQ(ascii::excerpt(std::string(40, 'x')), std::string(40, 'x'));
  EXPECT_EQ(ascii::excerpt("abcdef", 3), "abc...");
  EXPECT_EQ(ascii::excerpt(""), "");
}

}  // namespace ascii_test
