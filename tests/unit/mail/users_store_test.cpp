#include <gtest/gtest.h>

#include "netlib/mail/memory_store.hpp"
#include "netlib/mail/users_table.hpp"

namespace {

using namespace netlib::mail;

TEST(UsersTable, ParsesNamesPasswordsCommentsAndCrlf) {
  const auto t = users_table::parse("# users\nalice:secret\r\n\nbob:pa:ss\n");
  EXPECT_EQ(t.size(), 2U);
  EXPECT_TRUE(t.exists("alice"));
  EXPECT_TRUE(t.check("alice", "secret"));
  EXPECT_FALSE(t.check("alice", "secreT"));
  EXPECT_FALSE(t.check("alice", "secret2"));
  EXPECT_FALSE(t.check("alice", ""));
  EXPECT_TRUE(t.check("bob", "pa:ss"));
  EXPECT_FALSE(t.check("carol", "x"));
  EXPECT_FALSE(t.exists("carol"));
  EXPECT_EQ(t.first(), "alice");  // the file's first user (the default postmaster), not the map's first
  EXPECT_EQ(users_table::parse("zed:1\nadam:2\n").first(), "zed");
}

TEST(UsersTable, BadLinesNameTheirNumber) {
  const auto message = [](std::string_view text) {
    try {
      (void)users_table::parse(text);
    } catch (const users_error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message("alice:x\nnocolon\n"), "line 2: expected name:password");
  EXPECT_EQ(message("../etc:x"), "line 1: bad user name '../etc' (use letters, digits, '.', '_', '-')");
  EXPECT_EQ(message("a b:x"), "line 1: bad user name 'a b' (use letters, digits, '.', '_', '-')");
  EXPECT_EQ(message("alice:"), "line 1: empty password for 'alice'");
  EXPECT_EQ(message("alice:x\nalice:y"), "line 2: user 'alice' listed twice");
  EXPECT_EQ(message(":x"), "line 1: bad user name '' (use letters, digits, '.', '_', '-')");
}

TEST(MemoryStore, DeliversWithStableUidsAndLocksOneSessionPerMailbox) {
  memory_store store;
  store.add_user("alice");
  ASSERT_TRUE(store.deliver("alice", "a\r\n"));
  ASSERT_TRUE(store.deliver("alice", "bb\n"));
  auto first = store.open("alice");
  ASSERT_EQ(first.status, open_status::opened);
  EXPECT_EQ(store.open("alice").status, open_status::locked);
  EXPECT_EQ(store.open("nobody").status, open_status::no_such_user);
  ASSERT_EQ(first.box->messages().size(), 2U);
  EXPECT_EQ(first.box->messages()[0].uid, "m1");
  EXPECT_EQ(first.box->messages()[1].size, 4U);  // "bb\n" counts as "bb\r\n"
  const std::size_t doomed[] = {0};
  EXPECT_EQ(first.box->remove(doomed), 0U);
  first.box.reset();
  auto second = store.open("alice");
  ASSERT_EQ(second.status, open_status::opened);
  ASSERT_EQ(second.box->messages().size(), 1U);
  EXPECT_EQ(second.box->messages()[0].uid, "m2");
  EXPECT_EQ(second.box->read(0).value(), "bb\n");
}

}  // namespace
