// maildir_store::write_batch (group commit) on a real file system: every file durable in new/
// byte for byte, failures confined to their group, nothing left behind in tmp/ or new/.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "netlib/io/maildir_store.hpp"

namespace {

namespace fs = std::filesystem;
using netlib::io::maildir_store;

struct batch_dir {
  fs::path root;
  batch_dir() {
    std::string tmpl = (fs::temp_directory_path() / "netlab-maildir-batch-XXXXXX").string();
    root = mkdtemp(tmpl.data());
  }
  ~batch_dir() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
  batch_dir(const batch_dir&) = delete;
  batch_dir& operator=(const batch_dir&) = delete;
  [[nodiscard]] std::vector<std::string> contents(const std::string& box, const char* sub) const {
    std::vector<std::string> out;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(root / box / sub, ec)) {
      std::ifstream in(e.path(), std::ios::binary);
      std::ostringstream s;
      s << in.rdbuf();
      out.push_back(s.str());
    }
    std::sort(out.begin(), out.end());
    return out;
  }
};

TEST(MaildirBatch, EveryFileLandsInNewByteIdentical) {
  batch_dir d;
  maildir_store store(d.root);
  const std::string a = "Subject: a\r\n\r\nfor alice\r\n", b = "Subject: b\r\n\r\nfor bob\r\n";
  const std::string relay = maildir_store::relay_file("x@example.org", std::vector<std::string>{"y@far.example"}, a);
  std::vector<maildir_store::batch_file> files{{"alice", a, 0}, {"bob", b, 1}, {"alice", b, 1},
                                               {std::string(maildir_store::relay_mailbox), relay, 2}};
  store.write_batch(files);
  for (const auto& f : files) EXPECT_EQ(f.error, 0) << f.mailbox;
  EXPECT_EQ(d.contents("alice", "new"), (std::vector<std::string>{a, b}));
  EXPECT_EQ(d.contents("bob", "new"), std::vector<std::string>{b});
  EXPECT_EQ(d.contents(".relay", "new"),
            std::vector<std::string>{"X-Netlab-Envelope-From: <x@example.org>\r\nX-Netlab-Envelope-To: <y@far.example>\r\n" + a});
  for (const char* box : {"alice", "bob", ".relay"}) EXPECT_TRUE(d.contents(box, "tmp").empty()) << box;
  // The POP3 side sees them with their sizes from the names.
  const auto opened = store.open("alice");
  ASSERT_EQ(opened.status, netlib::mail::open_status::opened);
  ASSERT_EQ(opened.box->messages().size(), 2U);
  EXPECT_EQ(opened.box->messages()[0].size + opened.box->messages()[1].size, a.size() + b.size());
}

TEST(MaildirBatch, OneSingleFileAndAnEmptyBatch) {
  batch_dir d;
  maildir_store store(d.root);
  std::vector<maildir_store::batch_file> none;
  store.write_batch(none);
  EXPECT_TRUE(store.deliver("alice", "x\r\n"));
  EXPECT_EQ(d.contents("alice", "new"), std::vector<std::string>{"x\r\n"});
}

TEST(MaildirBatch, ABrokenMailboxFailsItsGroupOnly) {
  batch_dir d;
  maildir_store store(d.root);
  std::ofstream(d.root / "alice") << "a file where alice's Maildir should be";
  std::vector<maildir_store::batch_file> files{{"bob", "one\r\n", 0}, {"alice", "one\r\n", 0},  // one message
                                               {"bob", "two\r\n", 1}, {"../evil", "three\r\n", 2}};
  store.write_batch(files);
  EXPECT_NE(files[1].error, 0);
  EXPECT_EQ(files[0].error, files[1].error);  // the other copy of the same message failed with it
  EXPECT_EQ(files[2].error, 0);
  EXPECT_EQ(files[3].error, EINVAL);
  EXPECT_EQ(d.contents("bob", "new"), std::vector<std::string>{"two\r\n"});  // no copy of "one"
  EXPECT_TRUE(d.contents("bob", "tmp").empty());
  EXPECT_FALSE(fs::exists(d.root.parent_path() / "evil"));
}

// alice's tmp/ is a symbolic link to another file system, out of the mail folder: the disk root
// refuses it (EXDEV, before anything of hers is written; before the disk root it was the rename
// into new/ that failed with EXDEV), nothing is left in tmp/ or new/, and the other copy of the
// message (bob's, same group) is taken back out.
TEST(MaildirBatch, AFailedRenameLeavesNothingBehind) {
  batch_dir d;
  const fs::path elsewhere = fs::path("/dev/shm") / d.root.filename();
  struct stat a{}, b{};
  if (::stat("/dev/shm", &a) != 0 || ::stat(d.root.c_str(), &b) != 0 || a.st_dev == b.st_dev)
    GTEST_SKIP() << "needs /dev/shm on another file system than " << d.root;
  maildir_store store(d.root);
  ASSERT_TRUE(store.ensure_mailbox("bob"));
  fs::create_directories(d.root / "alice" / "new");
  fs::create_directories(d.root / "alice" / "cur");
  fs::create_directories(elsewhere);
  fs::create_symlink(elsewhere, d.root / "alice" / "tmp");
  std::vector<maildir_store::batch_file> files{{"bob", "first\r\n", 0}, {"alice", "first\r\n", 0}, {"bob", "second\r\n", 1}};
  store.write_batch(files);
  std::error_code ec;
  const bool tmp_empty = fs::is_empty(elsewhere, ec);
  fs::remove_all(elsewhere, ec);
  EXPECT_EQ(files[1].error, EXDEV);
  EXPECT_EQ(files[0].error, EXDEV);
  EXPECT_EQ(files[2].error, 0);
  EXPECT_TRUE(tmp_empty);
  EXPECT_TRUE(d.contents("alice", "new").empty());
  EXPECT_EQ(d.contents("bob", "new"), std::vector<std::string>{"second\r\n"});
  EXPECT_TRUE(d.contents("bob", "tmp").empty());
}

}  // namespace
