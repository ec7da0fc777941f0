#include "netlib/core/units.hpp"

#include <gtest/gtest.h>

namespace u = netlib::units;

TEST(Units, parses_textbook_notation) {
  EXPECT_DOUBLE_EQ(u::parse_bits("1500B"), 12000);
  EXPECT_DOUBLE_EQ(u::parse_bits("12000b"), 12000);
  EXPECT_DOUBLE_EQ(u::parse_bytes("1KiB"), 1024);
  EXPECT_DOUBLE_EQ(u::parse_bytes("2MB"), 2e6);
  EXPECT_DOUBLE_EQ(u::parse_rate_bps("10Mbps"), 1e7);
  EXPECT_DOUBLE_EQ(u::parse_rate_bps("1Gbps"), 1e9);
  EXPECT_DOUBLE_EQ(u::parse_rate_bps("100kbps"), 1e5);
  EXPECT_DOUBLE_EQ(u::parse_distance_m("2500km"), 2.5e6);
  EXPECT_DOUBLE_EQ(u::parse_speed_mps("2.5e8m/s"), 2.5e8);
  EXPECT_DOUBLE_EQ(u::parse_duration_s("30ms"), 0.03);
  EXPECT_DOUBLE_EQ(u::parse_duration_s("1.5 s"), 1.5);
  EXPECT_DOUBLE_EQ(u::parse_per_second("500/s"), 500);
  EXPECT_DOUBLE_EQ(u::parse_fraction("10%"), 0.1);
  EXPECT_DOUBLE_EQ(u::parse_fraction("0.25"), 0.25);
}

TEST(Units, rejects_with_a_message_that_says_what_to_write) {
  try {
    u::parse_rate_bps("10Mbs");
    FAIL() << "10Mbs accepted";
  } catch (const u::unit_error& e) {
    EXPECT_NE(std::string(e.what()).find("10Mbps"), std::string::npos) << e.what();
  }
  try {
    u::parse_distance_m("-5km");
    FAIL() << "-5km accepted";
  } catch (const u::unit_error& e) {
    EXPECT_NE(std::string(e.what()).find("negative"), std::string::npos) << e.what();
  }
  EXPECT_THROW(u::parse_bits("1500"), u::unit_error);  // the unit must be written
  EXPECT_THROW(u::parse_rate_bps("10"), u::unit_error);
  EXPECT_THROW(u::parse_per_second("500"), u::unit_error);
  EXPECT_THROW(u::parse_bits("abc"), u::unit_error);
  EXPECT_THROW(u::parse_bits(""), u::unit_error);
  EXPECT_THROW(u::parse_duration_s("infms"), u::unit_error);
  EXPECT_THROW(u::parse_fraction("1.5"), u::unit_error);
  EXPECT_THROW(u::parse_rate_bps("10 furlongs"), u::unit_error);
}

TEST(Units, zero_needs_no_unit_and_a_bare_duration_is_seconds) {
  EXPECT_EQ(u::parse_bits("0"), 0);
  EXPECT_EQ(u::parse_rate_bps("0"), 0);
  EXPECT_EQ(u::parse_distance_m("0"), 0);
  EXPECT_EQ(u::parse_duration_s("0"), 0);
  EXPECT_DOUBLE_EQ(u::parse_duration_s("2"), 2);
  EXPECT_DOUBLE_EQ(u::parse_duration_s("0.5"), 0.5);
  EXPECT_DOUBLE_EQ(u::parse_duration_s("2s"), 2);
  EXPECT_THROW(u::parse_duration_s("-2"), u::unit_error);
  EXPECT_THROW(u::parse_duration_s("2 fortnights"), u::unit_error);
}

TEST(Units, long_durations_are_not_written_in_megaseconds) {
  EXPECT_EQ(u::format_seconds(999), "999 s");
  EXPECT_EQ(u::format_seconds(1200), "20 min");
  EXPECT_EQ(u::format_seconds(7200), "2 h");
  EXPECT_EQ(u::format_seconds(30e6), "347 days");
  EXPECT_EQ(u::format_seconds(3e9), "95.1 years");
}

TEST(Units, formats_with_si_prefixes) {
  EXPECT_EQ(u::format_seconds(0.012), "12 ms");
  EXPECT_EQ(u::format_seconds(1.2), "1.2 s");
  EXPECT_EQ(u::format_bps(1e7), "10 Mbps");
  EXPECT_EQ(u::format_bytes(1500), "1.5 kB");
  EXPECT_EQ(u::format_seconds(0), "0 s");
}
// An error quotes at most 40 characters of what it refuses, control bytes as '?' (found by the
// fuzz target dc_collective: a 1000-digit start= echoed whole into lab-dc's message).
TEST(Units, errors_quote_a_short_printable_excerpt) {
  const std::string long_value = std::string(1000, '1') + "rt";
  for (const std::string& bad : {long_value, std::string("5\x1b[31mfortnights")}) {
    try {
      (void)u::parse_duration_s(bad);
      ADD_FAILURE() << "accepted " << bad.size() << " characters";
    } catch (const u::unit_error& e) {
      const std::string what = e.what();
      EXPECT_LT(what.size(), 200u) << what;
      EXPECT_EQ(what.find('\x1b'), std::string::npos) << what;
    }
  }
  EXPECT_THROW(u::parse_duration_s("1e400s"), u::unit_error);
  try {
    (void)u::parse_bits(std::string(500, '9') + "B");
  } catch (const u::unit_error& e) {
    EXPECT_NE(std::string(e.what()).find("out of range for a size"), std::string::npos) << e.what();
  }
}
