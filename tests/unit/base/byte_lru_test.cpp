#include "netlib/core/byte_lru.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

TEST(ByteLru, EvictsLeastRecentlyUsedUntilTheBudgetFits) {
  netlib::byte_lru<int> lru(100);
  EXPECT_TRUE(lru.put("a", 1, 40));
  EXPECT_TRUE(lru.put("b", 2, 40));
  ASSERT_NE(lru.find("a"), nullptr);  // a is now the most recent
  EXPECT_TRUE(lru.put("c", 3, 40));   // evicts b
  EXPECT_EQ(lru.find("b"), nullptr);
  EXPECT_EQ(*lru.find("a"), 1);
  EXPECT_EQ(*lru.find("c"), 3);
  EXPECT_EQ(lru.bytes(), 80U);
  EXPECT_EQ(lru.size(), 2U);
  EXPECT_EQ(lru.evictions(), 1U);
}

TEST(ByteLru, ReplacingKeepsOneEntryAndItsNewCost) {
  netlib::byte_lru<std::string> lru(100);
  lru.put("k", "old", 30);
  lru.put("k", "new", 50);
  EXPECT_EQ(lru.size(), 1U);
  EXPECT_EQ(lru.bytes(), 50U);
  EXPECT_EQ(*lru.find("k"), "new");
}

TEST(ByteLru, OverBudgetIsRefusedAndDropsTheOldEntry) {
  netlib::byte_lru<int> lru(100);
  lru.put("k", 1, 10);
  EXPECT_FALSE(lru.put("k", 2, 101));
  EXPECT_FALSE(lru.contains("k"));
  EXPECT_EQ(lru.bytes(), 0U);
  lru.put("x", 1, 10);
  lru.erase("x");
  lru.erase("missing");
  EXPECT_EQ(lru.size(), 0U);
  EXPECT_EQ(lru.bytes(), 0U);
}

TEST(ByteLru, ReservedRoomEvictsEntriesAndIsRefusedPastTheBudget) {
  netlib::byte_lru<int> lru(100);
  lru.put("a", 1, 40);
  lru.put("b", 2, 40);
  EXPECT_TRUE(lru.reserve(30));  // 80 + 30 > 100: evicts a, the least recently used
  EXPECT_FALSE(lru.contains("a"));
  EXPECT_TRUE(lru.contains("b"));
  EXPECT_EQ(lru.reserved(), 30U);
  EXPECT_LE(lru.bytes() + lru.reserved(), 100U);
  EXPECT_FALSE(lru.reserve(71));  // the reserved room alone would exceed the budget
  EXPECT_EQ(lru.reserved(), 30U);
  EXPECT_TRUE(lru.contains("b"));       // a refused reservation evicts nothing
  EXPECT_FALSE(lru.put("big", 3, 71));  // does not fit beside the reservation
  EXPECT_TRUE(lru.put("c", 3, 31));     // 40 + 31 + 30 > 100: evicts b
  EXPECT_FALSE(lru.contains("b"));
  lru.release(30);
  EXPECT_EQ(lru.reserved(), 0U);
  EXPECT_TRUE(lru.put("d", 4, 69));
  EXPECT_EQ(lru.bytes(), 100U);
  lru.release(5);  // more than is reserved: nothing left reserved, never below zero
  EXPECT_EQ(lru.reserved(), 0U);
}

}  // namespace
