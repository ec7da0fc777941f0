// open_hash_map (the flow table of the reassembler and the switch's filtering database) against
// std::unordered_map on a long random sequence of inserts, lookups and erases, with a weak hash that
// puts many keys in the same probe runs, so backward-shift deletion is exercised at every position
// of a run, across the wrap-around at the end of the table, and through growth.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <unordered_map>

#include "netlib/packet/open_hash_map.hpp"

namespace open_hash_map_test {  // named: unity batches share one translation unit

struct clumping_hash {  // 8 distinct hashes only: long runs of colliding keys
  std::uint64_t operator()(std::uint64_t k) const noexcept { return (k % 8) * 0x9e3779b97f4a7c15ULL; }
};

template <class Map>
void expect_same(Map& m, const std::unordered_map<std::uint64_t, int>& ref) {
  ASSERT_EQ(m.size(), ref.size());
  for (const auto& [k, v] : ref) {
    const int* found = m.find(k);
    ASSERT_NE(found, nullptr) << "key " << k;
    ASSERT_EQ(*found, v);
  }
  std::size_t visited = 0;
  m.for_each([&](std::uint64_t k, int v) {
    ++visited;
    ASSERT_EQ(ref.at(k), v);
  });
  ASSERT_EQ(visited, ref.size());
}

TEST(OpenHashMap, AgreesWithUnorderedMapUnderRandomInsertsAndErases) {
  netlib::packet::open_hash_map<std::uint64_t, int, clumping_hash> m;
  std::unordered_map<std::uint64_t, int> ref;
  std::mt19937_64 rng(7);
  for (int step = 0; step < 20000; ++step) {
    const std::uint64_t k = rng() % 300;
    const auto op = rng() % 3;
    if (op == 0 && ref.count(k) == 0) {
      m.insert(k, step);
      ref[k] = step;
    } else if (op == 1) {
      ASSERT_EQ(m.erase(k), ref.erase(k) == 1) << "step " << step;
    } else {
      const int* found = m.find(k);
      ASSERT_EQ(found != nullptr, ref.count(k) == 1) << "step " << step;
    }
    if (step % 1000 == 0) expect_same(m, ref);
  }
  expect_same(m, ref);
  for (std::uint64_t k = 0; k < 300; ++k) m.erase(k);
  EXPECT_TRUE(m.empty());
  EXPECT_EQ(m.find(1), nullptr);
}

TEST(OpenHashMap, EmptyMapFindsAndErasesNothing) {
  netlib::packet::open_hash_map<std::uint64_t, int, clumping_hash> m;
  EXPECT_EQ(m.find(3), nullptr);
  EXPECT_FALSE(m.erase(3));
  EXPECT_EQ(m.insert(3, 4), 4);
  EXPECT_EQ(*m.find(3), 4);
}

}  // namespace open_hash_map_test
