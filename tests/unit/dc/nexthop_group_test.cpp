// Next-hop groups: modulo, hash-threshold and resilient selection on small cases computed by hand
// (each resilient table below was also read from Linux 6.18's `ip nexthop bucket show`).
#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "netlib/dc/hash.hpp"
#include "netlib/dc/nexthop_group.hpp"

namespace netlib::dc {
namespace {

using ids = std::vector<std::uint32_t>;

TEST(NexthopGroup, ParsesTheThreeNames) {
  EXPECT_EQ(parse_group_hashing("modulo"), group_hashing::modulo);
  EXPECT_EQ(parse_group_hashing("threshold"), group_hashing::threshold);
  EXPECT_EQ(parse_group_hashing("resilient"), group_hashing::resilient);
  EXPECT_FALSE(parse_group_hashing("hrw"));
  EXPECT_EQ(group_hashing_name(group_hashing::resilient), "resilient");
}

TEST(NexthopGroup, ThresholdWithEqualWeightsIsLinuxSelect) {
  for (std::size_t n = 1; n <= 7; ++n) {
    const std::vector<std::uint32_t> w(n, 1);
    for (std::uint32_t h : {0u, 1u, 0x0FFFFFFFu, 0x2AAAAAAAu, 0x2AAAAAABu, 0x3FFFFFFFu, 0x40000000u, 0x55555555u,
                            0x7FFFFFFEu, 0x7FFFFFFFu}) {
      EXPECT_EQ(threshold_select(h, 31, w), linux_select(h, n)) << n << " " << h;
    }
  }
}

TEST(NexthopGroup, ThresholdWeightsMoveTheBoundary) {
  // Weights 1 and 3 over 31 bits: the first member owns round(1 * 2^31 / 4) = 2^29 hashes.
  const std::array<std::uint32_t, 2> w{1, 3};
  EXPECT_EQ(threshold_select((1u << 29) - 1, 31, w), 0u);
  EXPECT_EQ(threshold_select(1u << 29, 31, w), 1u);
  EXPECT_EQ(threshold_select(0x7FFFFFFFu, 31, w), 1u);
  // 16 bits, weights 1, 1, 2: bounds 16384, 32768, 65536.
  const std::array<std::uint32_t, 3> v{1, 1, 2};
  EXPECT_EQ(threshold_select(16383, 16, v), 0u);
  EXPECT_EQ(threshold_select(16384, 16, v), 1u);
  EXPECT_EQ(threshold_select(32767, 16, v), 1u);
  EXPECT_EQ(threshold_select(32768, 16, v), 2u);
  EXPECT_EQ(threshold_select(65535, 16, v), 2u);
}

TEST(NexthopGroup, ModuloReplicatesMembersByWeight) {
  const std::array<std::uint32_t, 2> w{1, 2};  // table: A B B
  EXPECT_EQ(modulo_select(0, w), 0u);
  EXPECT_EQ(modulo_select(1, w), 1u);
  EXPECT_EQ(modulo_select(2, w), 1u);
  EXPECT_EQ(modulo_select(3, w), 0u);
  const std::array<std::uint32_t, 3> e{1, 1, 1};
  for (std::uint32_t h = 0; h < 50; ++h) EXPECT_EQ(modulo_select(h, e), h % 3);
}

TEST(ResilientTable, NewGroupFillsFromTheLastMember) {
  // Four members want 4 buckets each; the underweight list is built by pushing to its front, so
  // its head is member 4: buckets 0-3 go to 4, 4-7 to 3, 8-11 to 2, 12-15 to 1.
  const resilient_table t(16, ids{1, 2, 3, 4});
  EXPECT_EQ(t.buckets(), (ids{4, 4, 4, 4, 3, 3, 3, 3, 2, 2, 2, 2, 1, 1, 1, 1}));
  EXPECT_EQ(t.select(8), 2u);
  EXPECT_EQ(t.select(16 + 13), 1u);
}

TEST(ResilientTable, RemovalMovesOnlyTheLeaversBuckets) {
  // Member 2 leaves: 1, 3, 4 want round(16/3) = 5, round(32/3) - 5 = 6, 16 - 11 = 5 and hold 4
  // each. The list is 4, 3, 1: bucket 8 to 4 (full at 5), 9 and 10 to 3 (6), 11 to 1 (5).
  resilient_table t(16, ids{1, 2, 3, 4});
  const auto before = t.buckets();
  t.replace(ids{1, 3, 4});
  EXPECT_EQ(t.buckets(), (ids{4, 4, 4, 4, 3, 3, 3, 3, 4, 3, 3, 1, 1, 1, 1, 1}));
  EXPECT_EQ(t.wants(), (std::vector<std::size_t>{5, 6, 5}));
  for (std::size_t b = 0; b < 16; ++b) {
    if (before[b] != 2) {
      EXPECT_EQ(t.buckets()[b], before[b]) << b;
    }
  }
}

TEST(ResilientTable, OverweightBucketsMoveOnlyWhenIdle) {
  resilient_table t(16, ids{1, 2, 3, 4});
  t.replace(ids{1, 3, 4});
  const auto removed = t.buckets();
  // Member 2 back while every bucket is busy: it wants 4 and gets none yet.
  t.replace(ids{1, 2, 3, 4});
  EXPECT_EQ(t.buckets(), removed);
  // Every bucket idle (idle_timer 0): in index order, overweight members' buckets go to 2 until
  // it holds 4: bucket 0 (4 holds 5), 4 and 5 (3 holds 6, then 5), 11 (1 holds 5).
  std::array<bool, 16> idle{};
  idle.fill(true);
  t.replace(ids{1, 2, 3, 4}, {}, idle);
  EXPECT_EQ(t.buckets(), (ids{2, 4, 4, 4, 2, 2, 3, 3, 4, 3, 3, 2, 1, 1, 1, 1}));
}

TEST(ResilientTable, WeightsSetTheShares) {
  // Weights 1 and 3 over 8 buckets: member 10 wants round(8/4) = 2, member 20 wants 6; 20 is the
  // list's head and takes buckets 0-5.
  const std::array<std::uint32_t, 2> w{1, 3};
  const resilient_table t(8, ids{10, 20}, w);
  EXPECT_EQ(t.buckets(), (ids{20, 20, 20, 20, 20, 20, 10, 10}));
}

TEST(ResilientTable, RefusesBadGroups) {
  EXPECT_THROW(resilient_table(16, ids{}), std::invalid_argument);
  EXPECT_THROW(resilient_table(16, ids{1, 1}), std::invalid_argument);
  EXPECT_THROW(resilient_table(0, ids{1}), std::invalid_argument);
  EXPECT_THROW(resilient_table(1, ids{1, 2}), std::invalid_argument);
  EXPECT_THROW(resilient_table(65536, ids{1}), std::invalid_argument);
  const std::array<std::uint32_t, 2> zero{1, 0};
  EXPECT_THROW(resilient_table(16, ids{1, 2}, zero), std::invalid_argument);
  resilient_table t(16, ids{1, 2});
  EXPECT_THROW(t.replace(ids{}), std::invalid_argument);
}

}  // namespace
}  // namespace netlib::dc
