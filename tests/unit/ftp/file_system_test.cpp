#include <gtest/gtest.h>

#include "netlib/ftp/file_system.hpp"
#include "netlib/ftp/listing.hpp"
#include "netlib/ftp/memory_file_system.hpp"

using namespace netlib;
using namespace netlib::ftp;

TEST(NormalizePath, NothingEscapesTheRoot) {
  EXPECT_EQ(normalize_path("/", "a/b"), "/a/b");
  EXPECT_EQ(normalize_path("/a", "../../../etc/passwd"), "/etc/passwd");
  EXPECT_EQ(normalize_path("/a/b", ".."), "/a");
  EXPECT_EQ(normalize_path("/a/b", "/x//./y/"), "/x/y");
  EXPECT_EQ(normalize_path("/a", ""), "/a");
  EXPECT_EQ(normalize_path("/", ".."), "/");
  EXPECT_EQ(normalize_path("/", std::string("a\0b", 3)), "");
  EXPECT_EQ(parent_path("/a/b"), "/a");
  EXPECT_EQ(parent_path("/a"), "/");
  EXPECT_EQ(base_name("/a/b"), "b");
  EXPECT_EQ(join_path("/", "x"), "/x");
}

TEST(MemoryFileSystem, DirectoriesFilesRename) {
  memory_file_system fs;
  fs.add_file("/d/f.txt", "hello");
  std::vector<file_info> l;
  ASSERT_EQ(fs.list("/", l), fs_status::ok);
  ASSERT_EQ(l.size(), 1u);
  EXPECT_TRUE(l[0].is_directory);
  EXPECT_EQ(fs.remove_directory("/d"), fs_status::not_empty);
  EXPECT_EQ(fs.rename("/d", "/e"), fs_status::ok);
  EXPECT_EQ(fs.content("/e/f.txt"), "hello");
  EXPECT_EQ(fs.rename("/e", "/e/inner"), fs_status::denied);
  EXPECT_EQ(fs.make_directory("/x/y"), fs_status::not_found);
  EXPECT_EQ(fs.remove_file("/e"), fs_status::is_a_directory);
}

TEST(MemoryFileSystem, UploadsAppearOnlyOnCommit) {
  memory_file_system fs;
  fs_status s;
  {
    auto w = fs.open_write("/up", false, 0, netlib::ftp::existing_file::replace, s);
    ASSERT_EQ(s, fs_status::ok);
    w->write(as_bytes("partial"));
  }  // destroyed without commit
  EXPECT_FALSE(fs.contains("/up"));
  auto w = fs.open_write("/up", false, 0, netlib::ftp::existing_file::replace, s);
  w->write(as_bytes("whole"));
  w->commit();
  EXPECT_EQ(fs.content("/up"), "whole");
  auto a = fs.open_write("/up", true, 0, netlib::ftp::existing_file::replace, s);
  a->write(as_bytes("+more"));
  a->commit();
  EXPECT_EQ(fs.content("/up"), "whole+more");
  auto r = fs.open_write("/up", false, 2, netlib::ftp::existing_file::replace, s);
  r->write(as_bytes("XY"));
  r->commit();
  EXPECT_EQ(fs.content("/up"), "whXY");
}

TEST(MemoryFileSystem, KeepingUploadsNeverReplace) {
  memory_file_system fs;
  fs_status s;
  auto late = fs.open_write("/up", false, 0, netlib::ftp::existing_file::keep, s);
  ASSERT_EQ(s, fs_status::ok);
  auto first = fs.open_write("/up", false, 0, netlib::ftp::existing_file::keep, s);
  first->write(as_bytes("first"));
  EXPECT_TRUE(first->commit());
  late->write(as_bytes("second"));
  EXPECT_FALSE(late->commit());  // the name was taken meanwhile
  EXPECT_EQ(fs.content("/up"), "first");
}

TEST(Listing, FormatsLsStyleAndTimeVal) {
  using namespace std::chrono_literals;
  const std::chrono::sys_seconds t{1700000000s};
  const file_info f{"a.txt", false, 1234, t};
  EXPECT_EQ(format_time_val(t), "20231114221320");
  EXPECT_EQ(format_list_line(f, std::chrono::sys_seconds{}),
            "-rw-r--r-- 1 ftp ftp         1234 Nov 14  2023 a.txt\r\n");
  EXPECT_EQ(format_list_line(f, t + 60s), "-rw-r--r-- 1 ftp ftp         1234 Nov 14 22:13 a.txt\r\n");
  EXPECT_EQ(format_nlst({f, file_info{"d", true, 0, {}}}), "a.txt\r\nd\r\n");
}
