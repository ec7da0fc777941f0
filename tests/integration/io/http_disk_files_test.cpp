// netlib::io::http_disk_files, the file cache of `lab-http serve` on a real folder, in virtual
// time: a cached answer (a small file's bytes, a larger file's open descriptor, a folder) is used
// without looking at the file until the validity has passed, then compared with the file by one
// stat; a file replaced, deleted, or swapped for a symbolic link out of the root is seen then and
// never later. Until then what is served is the very inode that passed the checked open: never
// anything outside the root. Without validity (0) every request compares.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "netlib/io/http_disk_files.hpp"

namespace http_disk_files_test {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using netlib::io::http_disk_files;

struct site {
  fs::path base, root;
  site() {
    std::string tmpl = (fs::temp_directory_path() / "netlab-http-files-XXXXXX").string();
    if (::mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    base = tmpl;
    root = base / "www";
    write(root / "small.txt", "small, old");
    write(root / "large.bin", std::string(100'000, 'o'));
    write(root / "dir/index.html", "<p>index</p>");
    write(base / "outside.txt", "outside the root");
  }
  ~site() {
    std::error_code ec;
    fs::remove_all(base, ec);
  }
  static void write(const fs::path& p, const std::string& text) {
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary | std::ios::trunc) << text;
  }
  // Replaces `name` by a new file (a new inode renamed over it).
  void replace(const std::string& name, const std::string& text) const {
    write(base / "new.tmp", text);
    fs::rename(base / "new.tmp", root / name);
  }
  void link_out(const std::string& name) const {
    fs::remove(root / name);
    fs::create_symlink(base / "outside.txt", root / name);
  }
};

// The body the server would send for `path` (stat, then open_body, as the driver does).
std::optional<std::string> serve(http_disk_files& files, const std::string& path, const netlib::clock_reading& now) {
  const auto info = files.stat(path, now);
  if (!info || info->is_directory) return std::nullopt;
  const auto body = files.open_body(path);
  if (body.cached && body.cached->descriptor < 0) return body.cached->content;
  if (body.descriptor() < 0) return std::nullopt;
  std::string out(info->size, '\0');
  if (::pread(body.descriptor(), out.data(), out.size(), 0) != static_cast<ssize_t>(out.size())) return std::nullopt;
  return out;
}

struct clock {
  netlib::virtual_clock mono{netlib::time_point(1000h)};
  netlib::clock_reading now() const {  // the wall clock is real: file stamps are
    return {mono.now(), netlib::wall_time(std::chrono::system_clock::now().time_since_epoch())};
  }
};

http_disk_files make(const site& s, netlib::duration valid) {
  netlib::io::http_cache_options o;
  o.settle = netlib::duration::zero();  // cache what was just written
  o.valid = valid;
  return http_disk_files(s.root.string(), o);
}

TEST(HttpDiskFiles, WithinTheValidityTheCachedInodeIsServedThenTheChangeIsSeen) {
  site s;
  clock c;
  auto files = make(s, 1s);
  ASSERT_EQ(serve(files, "small.txt", c.now()), "small, old");
  ASSERT_EQ(serve(files, "large.bin", c.now()), std::string(100'000, 'o'));
  s.replace("small.txt", "small, new");
  s.replace("large.bin", std::string(100'000, 'n'));
  c.mono.advance(900ms);  // within the validity: no look at the files, the inodes that were checked
  EXPECT_EQ(serve(files, "small.txt", c.now()), "small, old");
  EXPECT_EQ(serve(files, "large.bin", c.now()), std::string(100'000, 'o'));
  c.mono.advance(200ms);  // past it: compared, changed, opened again
  EXPECT_EQ(serve(files, "small.txt", c.now()), "small, new");
  EXPECT_EQ(serve(files, "large.bin", c.now()), std::string(100'000, 'n'));
}

TEST(HttpDiskFiles, ACachedFileSwappedForALinkOutOfTheRootIsRefused) {
  site s;
  clock c;
  auto files = make(s, 1s);
  ASSERT_EQ(serve(files, "small.txt", c.now()), "small, old");
  ASSERT_EQ(serve(files, "large.bin", c.now()), std::string(100'000, 'o'));
  s.link_out("small.txt");
  s.link_out("large.bin");
  c.mono.advance(500ms);  // still the old inodes, which were inside: never the outside file
  EXPECT_EQ(serve(files, "small.txt", c.now()), "small, old");
  EXPECT_EQ(serve(files, "large.bin", c.now()), std::string(100'000, 'o'));
  c.mono.advance(1s);
  EXPECT_FALSE(files.stat("small.txt", c.now())) << "the link leads out of the root";
  EXPECT_FALSE(files.stat("large.bin", c.now()));
  c.mono.advance(2s);
  EXPECT_FALSE(serve(files, "small.txt", c.now())) << "and stays refused";
}

TEST(HttpDiskFiles, ACachedFileGivenASecondNameIsRefusedAtTheNextComparison) {
  site s;
  clock c;
  auto files = make(s, 1s);
  ASSERT_EQ(serve(files, "small.txt", c.now()), "small, old");
  ASSERT_EQ(serve(files, "large.bin", c.now()), std::string(100'000, 'o'));
  fs::create_hard_link(s.root / "small.txt", s.base / "small-elsewhere.txt");
  fs::create_hard_link(s.root / "large.bin", s.base / "large-elsewhere.bin");
  c.mono.advance(1001ms);  // compared: the inode has another name now (anywhere): a hard link, 404
  EXPECT_FALSE(files.stat("small.txt", c.now()));
  EXPECT_FALSE(files.stat("large.bin", c.now()));
  EXPECT_FALSE(serve(files, "small.txt", c.now())) << "and stays refused";
  EXPECT_FALSE(files.open_body("large.bin").descriptor() >= 0) << "the body too, without a stat before";
}

TEST(HttpDiskFiles, DeletedFilesAndFoldersAreGoneAfterTheValidity) {
  site s;
  clock c;
  auto files = make(s, 1s);
  ASSERT_TRUE(files.stat("dir", c.now()));
  ASSERT_EQ(serve(files, "dir/index.html", c.now()), "<p>index</p>");
  ASSERT_TRUE(serve(files, "large.bin", c.now()));
  fs::remove_all(s.root / "dir");
  fs::remove(s.root / "large.bin");
  c.mono.advance(1001ms);
  EXPECT_FALSE(files.stat("dir", c.now()));
  EXPECT_FALSE(files.stat("dir/index.html", c.now()));
  EXPECT_FALSE(files.stat("large.bin", c.now()));
}

TEST(HttpDiskFiles, WithoutValidityEveryRequestCompares) {
  site s;
  clock c;
  auto files = make(s, 0s);
  ASSERT_EQ(serve(files, "small.txt", c.now()), "small, old");
  ASSERT_TRUE(serve(files, "large.bin", c.now()));
  s.replace("small.txt", "small, new");
  s.link_out("large.bin");
  EXPECT_EQ(serve(files, "small.txt", c.now()), "small, new");
  EXPECT_FALSE(files.stat("large.bin", c.now()));
}

TEST(HttpDiskFiles, LargeFilesAreKeptOpenWithinTheirCountAndLiveWhileInUse) {
  site s;
  clock c;
  netlib::io::http_cache_options o;
  o.settle = netlib::duration::zero();
  o.max_open = 2;
  http_disk_files files(s.root.string(), o);
  for (const char* name : {"a.bin", "b.bin", "c.bin"}) site::write(s.root / name, std::string(50'000, name[0]));
  ASSERT_TRUE(files.stat("a.bin", c.now()));
  const auto held = files.open_body("a.bin");  // a response still sending from it
  ASSERT_TRUE(held.cached);
  ASSERT_GE(held.cached->descriptor, 0);
  http_disk_files::release_pending();
  EXPECT_EQ(serve(files, "b.bin", c.now()), std::string(50'000, 'b'));
  EXPECT_EQ(serve(files, "c.bin", c.now()), std::string(50'000, 'c'));  // evicts a.bin's entry
  std::string first(10, '\0');
  EXPECT_EQ(::pread(held.cached->descriptor, first.data(), first.size(), 0), 10) << "evicted, still open for its user";
  EXPECT_EQ(first, std::string(10, 'a'));
  EXPECT_EQ(serve(files, "a.bin", c.now()), std::string(50'000, 'a'));
}

}  // namespace http_disk_files_test
