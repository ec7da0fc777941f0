// FTP's layer over the shared users table: anonymous logins (RFC 1635) on top of the named users,
// whose rules (no duplicates, no empty password, constant-time check) are the table's.
#include <gtest/gtest.h>

#include <type_traits>

#include "netlib/ftp/server_session.hpp"
#include "netlib/ftp/user_table.hpp"

namespace {

using netlib::users_error;
using netlib::users_table;
using netlib::ftp::user_table;

TEST(FtpUserTable, NamedUsersAreTheSharedTable) {
  user_table t(users_table::parse("alice:secret\n"), false);
  EXPECT_TRUE(t.check("alice", "secret"));
  EXPECT_FALSE(t.check("alice", "secreT"));
  EXPECT_FALSE(t.check("alice", ""));
  EXPECT_FALSE(t.check("anonymous", "me@example.org"));
  EXPECT_EQ(t.size(), 1U);
  // add() keeps the file's rules.
  EXPECT_THROW(t.add("alice", "again"), users_error);
  EXPECT_THROW(t.add("bob", ""), users_error);
  EXPECT_THROW(t.add("bob smith", "x"), users_error);
}

TEST(FtpUserTable, AnonymousTakesAnyPasswordInAnyCase) {
  user_table t(users_table::parse("alice:secret\n"), true);
  for (const char* name : {"anonymous", "ANONYMOUS", "ftp", "Ftp"})
    EXPECT_TRUE(t.check(name, "me@example.org")) << name;
  EXPECT_TRUE(t.check("ftp", ""));
  EXPECT_FALSE(t.check("alice", "me@example.org"));
}

// A named "ftp" or "anonymous" would be shadowed by the anonymous login: refused while it is on,
// whichever way round the two are set.
TEST(FtpUserTable, NamedUserCalledAnonymousIsRefusedWhileAnonymousIsOn) {
  EXPECT_THROW(user_table(users_table::parse("FTP:secret\n"), true), users_error);
  EXPECT_THROW(user_table(users_table::parse("anonymous:secret\n"), true), users_error);
  user_table named_ftp(users_table::parse("ftp:secret\n"), false);  // without anonymous access: a user like any other
  EXPECT_TRUE(named_ftp.check("ftp", "secret"));
  EXPECT_FALSE(named_ftp.check("ftp", "other"));
  EXPECT_THROW(named_ftp.set_anonymous(true), users_error);
  user_table anonymous({}, true);
  EXPECT_THROW(anonymous.add("anonymous", "x"), users_error);
}

// The FTP server checks passwords through the shared table (its constant-time check), not a
// table of its own.
static_assert(std::is_same_v<decltype(netlib::ftp::server_config::users), user_table>);
static_assert(std::is_constructible_v<user_table, users_table, bool>);

}  // namespace
