#include <gtest/gtest.h>

#include "netlib/mail/memory_store.hpp"

namespace {

using namespace netlib::mail;

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
