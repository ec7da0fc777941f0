// netlib::io::disk_root on a real folder, through openat2(2) and through the portable walk (each
// case runs both ways): paths without links, links that stay inside the root (relative, absolute,
// climbing, chained, to the root itself), links that leave it, loops, the refuse policy, and
// open_parent for the *at() calls.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <string>

#include "netlib/io/asio.hpp"
#include "netlib/io/disk_root.hpp"

namespace disk_root_test {

namespace fs = std::filesystem;
using netlib::io::disk_root;
using netlib::io::link_policy;

struct tree {
  fs::path base;
  fs::path root;
  tree() {
    std::string tmpl = (fs::temp_directory_path() / "netlab-disk-root-XXXXXX").string();
    if (::mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    base = tmpl;
    root = base / "root";
    write(root / "a.txt", "a");
    write(root / "dir/b.txt", "b");
    write(root / "dir/sub/c.txt", "c");
    write(root / "private/secret.txt", "s");
    write(base / "outside.txt", "outside");
    fs::create_symlink("a.txt", root / "rel-file");
    fs::create_directory_symlink("dir", root / "rel-dir");
    fs::create_symlink(root / "dir/b.txt", root / "abs-file");
    fs::create_symlink("../private/secret.txt", root / "dir/up-file");
    fs::create_symlink("rel-dir", root / "chain");
    fs::create_directory_symlink(".", root / "self");
    fs::create_symlink(base / "outside.txt", root / "abs-out");
    fs::create_symlink("../outside.txt", root / "rel-out");
    fs::create_symlink("../../outside.txt", root / "dir/rel-out2");
    fs::create_symlink("loop-b", root / "loop-a");
    fs::create_symlink("loop-a", root / "loop-b");
    fs::create_symlink("missing.txt", root / "dangling");
  }
  ~tree() {
    std::error_code ec;
    fs::remove_all(base, ec);
  }
  static void write(const fs::path& p, const std::string& text) {
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
  }
};

std::string content(int fd) {
  std::string out(64, '\0');
  const ssize_t n = ::pread(fd, out.data(), out.size(), 0);
  out.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
  return out;
}

class DiskRoot : public ::testing::TestWithParam<bool> {
 protected:
  tree t;
  disk_root inside{t.root.string(), {.links = link_policy::inside_root, .use_openat2 = GetParam()}};
  disk_root refuse{t.root.string(), {.links = link_policy::refuse, .use_openat2 = GetParam()}};
};

TEST_P(DiskRoot, PathsWithoutLinks) {
  for (const disk_root* r : {&inside, &refuse}) {
    auto f = r->open("dir/sub/c.txt", O_RDONLY);
    ASSERT_TRUE(f.fd) << f.error;
    EXPECT_EQ(content(f.fd.get()), "c");
    EXPECT_FALSE(f.via_link);
    EXPECT_TRUE(r->open("/dir//b.txt", O_RDONLY).fd) << "leading and doubled slashes are ignored";
    EXPECT_TRUE(r->open("", O_RDONLY | O_DIRECTORY).fd) << "the root itself";
    EXPECT_EQ(r->open("nope.txt", O_RDONLY).error, ENOENT);
    EXPECT_EQ(r->open("a.txt/x", O_RDONLY).error, ENOTDIR);
    EXPECT_EQ(r->open("dir/../../outside.txt", O_RDONLY).error, EXDEV) << "'..' above the root";
  }
}

TEST_P(DiskRoot, LinksThatStayInsideAreFollowedAndReported) {
  const std::pair<const char*, const char*> cases[] = {
      {"rel-file", "a.txt"},
      {"rel-dir/b.txt", "dir/b.txt"},
      {"abs-file", "dir/b.txt"},
      {"dir/up-file", "private/secret.txt"},
      {"chain/sub/c.txt", "dir/sub/c.txt"},
      {"self/self/a.txt", "a.txt"},
      {"rel-dir/up-file", "private/secret.txt"},
  };
  for (const auto& [path, real] : cases) {
    SCOPED_TRACE(path);
    auto f = inside.open(path, O_RDONLY);
    ASSERT_TRUE(f.fd) << f.error;
    EXPECT_TRUE(f.via_link);
    EXPECT_EQ(f.resolved, real);
    EXPECT_EQ(refuse.open(path, O_RDONLY).error, ELOOP) << "the refuse policy never follows a link";
  }
  auto dir = inside.open("rel-dir", O_RDONLY | O_DIRECTORY);
  ASSERT_TRUE(dir.fd);
  EXPECT_EQ(dir.resolved, "dir");
}

TEST_P(DiskRoot, LinksThatLeaveTheRootAreRefused) {
  for (const char* path : {"abs-out", "rel-out", "dir/rel-out2", "rel-dir/rel-out2"}) {
    SCOPED_TRACE(path);
    EXPECT_EQ(inside.open(path, O_RDONLY).error, EXDEV);
    EXPECT_EQ(refuse.open(path, O_RDONLY).error, ELOOP);
  }
  EXPECT_EQ(inside.open("loop-a", O_RDONLY).error, ELOOP);
  EXPECT_EQ(inside.open("dangling", O_RDONLY).error, ENOENT);
}

TEST_P(DiskRoot, CreatesBeneathTheRoot) {
  auto f = inside.open("dir/new.txt", O_WRONLY | O_CREAT | O_EXCL, 0600);
  ASSERT_TRUE(f.fd) << f.error;
  EXPECT_TRUE(fs::exists(t.root / "dir/new.txt"));
  struct stat st {};
  ASSERT_EQ(::stat((t.root / "dir/new.txt").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  EXPECT_EQ(inside.open("dir/new.txt", O_WRONLY | O_CREAT | O_EXCL, 0600).error, EEXIST);
  EXPECT_EQ(inside.open("abs-out", O_WRONLY | O_CREAT | O_EXCL, 0600).error, EEXIST) << "O_EXCL never follows";
  EXPECT_EQ(refuse.open("rel-dir/x.txt", O_WRONLY | O_CREAT | O_EXCL, 0600).error, ELOOP);
}

TEST_P(DiskRoot, OpenParentForTheAtCalls) {
  std::string name;
  auto p = refuse.open_parent("/dir/sub/c.txt", name);
  ASSERT_TRUE(p.fd) << p.error;
  EXPECT_EQ(name, "c.txt");
  struct stat st {};
  EXPECT_EQ(::fstatat(p.fd.get(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW), 0);
  auto top = refuse.open_parent("/", name);
  ASSERT_TRUE(top.fd);
  EXPECT_EQ(name, ".");
  EXPECT_EQ(refuse.open_parent("/rel-dir/b.txt", name).error, ELOOP);
  auto link_last = refuse.open_parent("/rel-file", name);  // the last component is not looked at
  ASSERT_TRUE(link_last.fd);
  EXPECT_EQ(name, "rel-file");
  auto via = inside.open_parent("/rel-dir/b.txt", name);
  ASSERT_TRUE(via.fd);
  EXPECT_TRUE(via.via_link);
  EXPECT_EQ(via.resolved, "dir/b.txt");
  EXPECT_EQ(inside.open_parent("/abs-out/x", name).error, EXDEV);
}

TEST_P(DiskRoot, RootMustBeAFolder) {
  EXPECT_THROW(disk_root((t.root / "a.txt").string()), netlib::io::io_error);
  EXPECT_THROW(disk_root((t.base / "no-such").string()), netlib::io::io_error);
}

INSTANTIATE_TEST_SUITE_P(Both, DiskRoot, ::testing::Values(true, false),
                         [](const auto& p) { return p.param ? std::string("openat2") : std::string("walk"); });

}  // namespace disk_root_test
