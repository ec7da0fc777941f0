// The static server's small-file cache: hits only for an unchanged stamp, racily recent files
// kept out, LRU eviction within the byte budget, entries alive while handed out.
#include <gtest/gtest.h>

#include "netlib/http/file_cache.hpp"

namespace http = netlib::http;

namespace {
constexpr netlib::duration sec = std::chrono::seconds(1);
constexpr netlib::wall_time now{std::chrono::seconds(1'800'000'000)};

std::shared_ptr<const http::cached_file> small_file(std::uint64_t inode, std::string content,
                                                    netlib::wall_time changed = now - 10 * sec) {
  http::cached_file f;
  f.stamp = {1, inode, content.size(), changed, changed};
  f.info = {false, content.size(), std::chrono::floor<std::chrono::seconds>(changed)};
  f.content = std::move(content);
  return std::make_shared<const http::cached_file>(std::move(f));
}
}  // namespace

TEST(FileCache, HitOnlyWhileTheStampIsUnchanged) {
  http::file_cache cache(1 << 20, 32 << 10);
  const auto f = small_file(7, "hello");
  ASSERT_TRUE(cache.put("a.txt", f, now));
  EXPECT_TRUE(cache.contains("a.txt"));
  const auto hit = cache.find("a.txt", f->stamp);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->content, "hello");
  EXPECT_EQ(hit->info.size, 5u);
  EXPECT_FALSE(cache.find("b.txt", f->stamp));
  for (auto changed :
       {http::file_stamp{1, 7, 6, f->stamp.mtime, f->stamp.ctime},                                   // size
        http::file_stamp{1, 8, 5, f->stamp.mtime, f->stamp.ctime},                                   // inode (replaced)
        http::file_stamp{2, 7, 5, f->stamp.mtime, f->stamp.ctime},                                   // device
        http::file_stamp{1, 7, 5, f->stamp.mtime + std::chrono::nanoseconds(1), f->stamp.ctime},     // written
        http::file_stamp{1, 7, 5, f->stamp.mtime, f->stamp.ctime + std::chrono::nanoseconds(1)}}) {  // chmod
    ASSERT_TRUE(cache.put("a.txt", f, now));
    EXPECT_FALSE(cache.find("a.txt", changed));
    EXPECT_FALSE(cache.contains("a.txt")) << "a changed file's entry is dropped";
    EXPECT_EQ(cache.bytes(), 0u);
  }
}

TEST(FileCache, RecentlyChangedOversizedOrShortFilesAreNotStored) {
  http::file_cache cache(1 << 20, 16);
  EXPECT_FALSE(cache.put("new.txt", small_file(1, "x", now - sec), now));  // within the 2 s settle time
  EXPECT_TRUE(cache.put("old.txt", small_file(2, "x", now - 2 * sec), now));
  EXPECT_FALSE(cache.put("big.txt", small_file(3, std::string(17, 'b')), now));
  http::cached_file shorter = *small_file(4, "abc");
  shorter.stamp.size = 4;  // read fewer bytes than the stamp says: not a consistent snapshot
  EXPECT_FALSE(cache.put("short.txt", std::make_shared<const http::cached_file>(shorter), now));
  EXPECT_EQ(cache.size(), 1u);
  http::file_cache settled_at_once(1 << 20, 16, netlib::duration::zero());
  EXPECT_TRUE(settled_at_once.put("new.txt", small_file(1, "x", now), now));
  http::file_cache disabled(0, 32 << 10);
  EXPECT_FALSE(disabled.put("a.txt", small_file(1, "x"), now));
}

TEST(FileCache, EvictsLeastRecentlyUsedWithinTheBudget) {
  // Each entry costs its path + content + 128 bytes of bookkeeping: 1 + 100 + 128 = 229.
  http::file_cache cache(3 * 229, 1000);
  const auto a = small_file(1, std::string(100, 'a')), b = small_file(2, std::string(100, 'b')),
             c = small_file(3, std::string(100, 'c')), d = small_file(4, std::string(100, 'd'));
  ASSERT_TRUE(cache.put("a", a, now));
  ASSERT_TRUE(cache.put("b", b, now));
  ASSERT_TRUE(cache.put("c", c, now));
  EXPECT_EQ(cache.bytes(), 3u * 229);
  const auto held = cache.find("a", a->stamp);  // a becomes most recent; b is now the oldest
  ASSERT_TRUE(cache.put("d", d, now));
  EXPECT_FALSE(cache.contains("b"));
  EXPECT_TRUE(cache.contains("a"));
  EXPECT_TRUE(cache.contains("c"));
  EXPECT_EQ(cache.evictions(), 1u);
  EXPECT_LE(cache.bytes(), 3u * 229);
  cache.erase("a");
  EXPECT_FALSE(cache.contains("a"));
  EXPECT_EQ(held->content, std::string(100, 'a')) << "a handed-out entry outlives its eviction";
  ASSERT_TRUE(cache.put("c", small_file(5, "short"), now));  // replacing updates the byte count
  EXPECT_EQ(cache.bytes(), 229u + (1 + 5 + 128));
}

TEST(FileCache, DirectoriesAreStampOnly) {
  http::file_cache cache(1 << 20, 32 << 10);
  http::cached_file dir;
  dir.stamp = {1, 9, 4096, now - 10 * sec, now - 10 * sec};
  dir.info = {true, 4096, std::chrono::floor<std::chrono::seconds>(now - 10 * sec)};
  ASSERT_TRUE(cache.put("img", std::make_shared<const http::cached_file>(dir), now));
  const auto hit = cache.find("img", dir.stamp);
  ASSERT_TRUE(hit);
  EXPECT_TRUE(hit->info.is_directory);
}
