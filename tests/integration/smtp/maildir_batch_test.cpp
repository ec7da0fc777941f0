// maildir_store::write_batch (group commit) on a real file system: every file durable in new/
// with LF line ends (the Maildir convention), failures confined to their group, nothing left
// behind in tmp/ or new/; and the POP3 side of the store reading LF files, older CRLF files and
// other programs' files with their CRLF sizes (RFC 1939 §11).
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "netlib/io/maildir_store.hpp"

namespace {

namespace fs = std::filesystem;
using netlib::io::maildir_store;

// The text with every CRLF turned into LF, as the store keeps it.
std::string lf(std::string text) {
  for (std::size_t at = 0; (at = text.find("\r\n", at)) != std::string::npos;) text.erase(at, 1);
  return text;
}

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

TEST(MaildirBatch, EveryFileLandsInNewWithLfLineEnds) {
  batch_dir d;
  maildir_store store(d.root);
  const std::string a = "Subject: a\r\n\r\nfor alice\r\n", b = "Subject: b\r\n\r\nfor bob\r\n";
  const std::string relay = maildir_store::relay_file("x@example.org", std::vector<std::string>{"y@far.example"}, a);
  std::vector<maildir_store::batch_file> files{
      {"alice", a, 0}, {"bob", b, 1}, {"alice", b, 1}, {std::string(maildir_store::relay_mailbox), relay, 2}};
  store.write_batch(files);
  for (const auto& f : files) EXPECT_EQ(f.error, 0) << f.mailbox;
  EXPECT_EQ(d.contents("alice", "new"), (std::vector<std::string>{lf(a), lf(b)}));
  EXPECT_EQ(d.contents("bob", "new"), std::vector<std::string>{lf(b)});
  EXPECT_EQ(d.contents(".relay", "new"),
            std::vector<std::string>{
                "X-Netlab-Envelope-From: <x@example.org>\nX-Netlab-Envelope-To: <y@far.example>\n" + lf(a)});
  for (const char* box : {"alice", "bob", ".relay"}) EXPECT_TRUE(d.contents(box, "tmp").empty()) << box;
  // The POP3 side sees them with their CRLF sizes, which the names state (S= file, W= CRLF).
  const auto opened = store.open("alice");
  ASSERT_EQ(opened.status, netlib::mail::open_status::opened);
  ASSERT_EQ(opened.box->messages().size(), 2U);
  EXPECT_EQ(opened.box->messages()[0].size + opened.box->messages()[1].size, a.size() + b.size());
  for (const auto& e : fs::directory_iterator(d.root / "bob" / "new"))
    EXPECT_TRUE(e.path().filename().string().ends_with(fmt::format(",S={},W={}", lf(b).size(), b.size()))) << e.path();
}

TEST(MaildirBatch, OneSingleFileAndAnEmptyBatch) {
  batch_dir d;
  maildir_store store(d.root);
  std::vector<maildir_store::batch_file> none;
  store.write_batch(none);
  EXPECT_TRUE(store.deliver("alice", "x\r\n"));
  EXPECT_EQ(d.contents("alice", "new"), std::vector<std::string>{"x\n"});
}

TEST(MaildirBatch, ABrokenMailboxFailsItsGroupOnly) {
  batch_dir d;
  maildir_store store(d.root);
  std::ofstream(d.root / "alice") << "a file where alice's Maildir should be";
  std::vector<maildir_store::batch_file> files{{"bob", "one\r\n", 0},
                                               {"alice", "one\r\n", 0},  // one message
                                               {"bob", "two\r\n", 1},
                                               {"../evil", "three\r\n", 2}};
  store.write_batch(files);
  EXPECT_NE(files[1].error, 0);
  EXPECT_EQ(files[0].error, files[1].error);  // the other copy of the same message failed with it
  EXPECT_EQ(files[2].error, 0);
  EXPECT_EQ(files[3].error, EINVAL);
  EXPECT_EQ(d.contents("bob", "new"), std::vector<std::string>{"two\n"});  // no copy of "one"
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
  struct stat a {
  }, b{};
  if (::stat("/dev/shm", &a) != 0 || ::stat(d.root.c_str(), &b) != 0 || a.st_dev == b.st_dev)
    GTEST_SKIP() << "needs /dev/shm on another file system than " << d.root;
  maildir_store store(d.root);
  ASSERT_TRUE(store.ensure_mailbox("bob"));
  fs::create_directories(d.root / "alice" / "new");
  fs::create_directories(d.root / "alice" / "cur");
  fs::create_directories(elsewhere);
  fs::create_symlink(elsewhere, d.root / "alice" / "tmp");
  std::vector<maildir_store::batch_file> files{
      {"bob", "first\r\n", 0}, {"alice", "first\r\n", 0}, {"bob", "second\r\n", 1}};
  store.write_batch(files);
  std::error_code ec;
  const bool tmp_empty = fs::is_empty(elsewhere, ec);
  fs::remove_all(elsewhere, ec);
  EXPECT_EQ(files[1].error, EXDEV);
  EXPECT_EQ(files[0].error, EXDEV);
  EXPECT_EQ(files[2].error, 0);
  EXPECT_TRUE(tmp_empty);
  EXPECT_TRUE(d.contents("alice", "new").empty());
  EXPECT_EQ(d.contents("bob", "new"), std::vector<std::string>{"second\n"});
  EXPECT_TRUE(d.contents("bob", "tmp").empty());
}

// Files the store did not write with W= in their names: a CRLF file written by an older netlab
// (S= was its CRLF size), a LF file from another program with S= only (Dovecot, qmail), and one
// with no size at all. Each is listed with its CRLF size and read as it is (never rewritten).
TEST(MaildirBatch, OlderCrlfFilesAndOtherProgramsFilesAreReadWithTheirCrlfSizes) {
  batch_dir d;
  maildir_store store(d.root);
  ASSERT_TRUE(store.ensure_mailbox("alice"));
  const std::string crlf = "Subject: old\r\n\r\nstored with CRLF\r\n.dot\r\n";
  const std::string from_dovecot = "Subject: lf\n\nstored with LF\n";
  const std::string bare = "Subject: none\n\nno size in the name";  // and no final line end
  std::ofstream(d.root / "alice" / "new" / fmt::format("1700000000.M1P1Q1.old,S={}", crlf.size()), std::ios::binary)
      << crlf;
  std::ofstream(d.root / "alice" / "cur" / fmt::format("1700000001.M1P1Q1.dovecot,S={}:2,S", from_dovecot.size()),
                std::ios::binary)
      << from_dovecot;
  std::ofstream(d.root / "alice" / "new" / "1700000002.plain", std::ios::binary) << bare;
  const auto opened = store.open("alice");
  ASSERT_EQ(opened.status, netlib::mail::open_status::opened);
  std::map<std::string, std::size_t> sizes;
  std::map<std::string, std::string> bytes;
  for (std::size_t i = 0; i < opened.box->messages().size(); ++i) {
    sizes[opened.box->messages()[i].uid] = opened.box->messages()[i].size;
    bytes[opened.box->messages()[i].uid] = opened.box->read(i).value_or("?");
  }
  EXPECT_EQ(sizes, (std::map<std::string, std::size_t>{{"1700000000.M1P1Q1.old", crlf.size()},
                                                       {"1700000001.M1P1Q1.dovecot", from_dovecot.size() + 3},
                                                       {"1700000002.plain", bare.size() + 2 + 2}}));
  EXPECT_EQ(bytes["1700000000.M1P1Q1.old"], crlf);
  EXPECT_EQ(bytes["1700000001.M1P1Q1.dovecot"], from_dovecot);
}

}  // namespace
