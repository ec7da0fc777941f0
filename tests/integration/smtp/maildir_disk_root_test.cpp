// maildir_store opens every file through the disk root (docs/architecture.md, "One disk root"):
// a mailbox that is a symbolic link to a folder inside the mail folder works for delivery and
// for POP3 (list, read, delete); one that leads out of the mail folder is refused, and nothing is
// written there.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <string>

#include "netlib/io/maildir_store.hpp"

namespace maildir_disk_root_test {

namespace fs = std::filesystem;
using netlib::io::maildir_store;

struct mail_dirs {
  fs::path base;
  fs::path root;
  mail_dirs() {
    std::string tmpl = (fs::temp_directory_path() / "netlab-maildir-root-XXXXXX").string();
    base = mkdtemp(tmpl.data());
    root = base / "mail";
    fs::create_directories(root / "boxes/alice");
    fs::create_directories(base / "elsewhere");
    fs::create_directory_symlink("boxes/alice", root / "alice");         // stays inside
    fs::create_directory_symlink(base / "elsewhere", root / "mallory");  // leads out
  }
  ~mail_dirs() {
    std::error_code ec;
    fs::remove_all(base, ec);
  }
  mail_dirs(const mail_dirs&) = delete;
  mail_dirs& operator=(const mail_dirs&) = delete;
  [[nodiscard]] static std::size_t files_in(const fs::path& dir) {
    std::size_t n = 0;
    std::error_code ec;
    for (const auto& e : fs::recursive_directory_iterator(dir, ec)) n += e.is_regular_file() ? 1 : 0;
    return n;
  }
};

TEST(MaildirDiskRoot, LinkInsideTheMailFolderIsFollowed) {
  mail_dirs d;
  maildir_store store(d.root);
  ASSERT_TRUE(store.deliver("alice", "Subject: one\r\n\r\nhello\r\n"));
  EXPECT_EQ(mail_dirs::files_in(d.root / "boxes/alice/new"), 1u);
  auto opened = store.open("alice");
  ASSERT_EQ(opened.status, netlib::mail::open_status::opened);
  ASSERT_EQ(opened.box->messages().size(), 1u);
  EXPECT_EQ(opened.box->read(0),
            "Subject: one\n\nhello\n");  // stored with LF line ends (docs/architecture.md, "Mail store")
  const std::size_t first = 0;
  EXPECT_EQ(opened.box->remove(std::span(&first, 1)), 0u);
  EXPECT_EQ(mail_dirs::files_in(d.root / "boxes/alice/new"), 0u);
}

TEST(MaildirDiskRoot, LinkOutOfTheMailFolderIsRefused) {
  mail_dirs d;
  maildir_store store(d.root);
  EXPECT_FALSE(store.deliver("mallory", "Subject: x\r\n\r\nbody\r\n"));
  EXPECT_EQ(store.open("mallory").status, netlib::mail::open_status::failed);
  EXPECT_EQ(mail_dirs::files_in(d.base / "elsewhere"), 0u);
  EXPECT_TRUE(fs::is_empty(d.base / "elsewhere"));
}

}  // namespace maildir_disk_root_test
