// The users table every password-checking server shares (netlib::users_table): the file format,
// its rules with line-numbered errors, its limits, and the constant-time comparison, tested for
// what it answers (the time it takes is not measured here: it is in the code's shape, see
// users_table.cpp).
#include <gtest/gtest.h>

#include <string>

#include "netlib/core/users_table.hpp"

namespace {

using netlib::users_error;
using netlib::users_table;

std::string error_of(std::string_view text) {
  try {
    (void)users_table::parse(text);
  } catch (const users_error& e) {
    return e.what();
  }
  return "no error";
}

TEST(UsersTable, ParsesNamesPasswordsCommentsAndCrlf) {
  const auto t = users_table::parse("# users\nalice:secret\r\n\nbob:pa:ss\n");
  EXPECT_EQ(t.size(), 2U);
  EXPECT_TRUE(t.exists("alice"));
  EXPECT_TRUE(t.check("alice", "secret"));
  EXPECT_FALSE(t.check("alice", "secreT"));
  EXPECT_FALSE(t.check("alice", "secret2"));
  EXPECT_FALSE(t.check("alice", "secre"));
  EXPECT_FALSE(t.check("alice", ""));
  EXPECT_FALSE(t.check("Alice", "secret"));  // names are case-sensitive
  EXPECT_TRUE(t.check("bob", "pa:ss"));      // the first ':' ends the name
  EXPECT_FALSE(t.check("bob", "pa"));
  EXPECT_FALSE(t.check("carol", "x"));
  EXPECT_FALSE(t.check("carol", ""));
  EXPECT_FALSE(t.exists("carol"));
  EXPECT_EQ(t.first(), "alice");  // the file's first user (the default postmaster), not the map's first
  EXPECT_EQ(users_table::parse("zed:1\nadam:2\n").first(), "zed");
  EXPECT_EQ(users_table::parse("zed:1\nadam:2").names(), (std::vector<std::string>{"adam", "zed"}));
  EXPECT_TRUE(users_table::parse("").empty());
  EXPECT_TRUE(users_table::parse("# nobody\n\n").empty());
}

TEST(UsersTable, BadLinesNameTheirNumber) {
  EXPECT_EQ(error_of("alice:x\nnocolon\n"), "line 2: expected name:password");
  EXPECT_EQ(error_of("../etc:x"),
            "line 1: bad user name '../etc' (1 to 64 letters, digits, '.', '_', '-'; not starting with '.')");
  EXPECT_EQ(error_of("a b:x").substr(0, 25), "line 1: bad user name 'a ");
  EXPECT_EQ(error_of(":x").substr(0, 24), "line 1: bad user name ''");
  EXPECT_EQ(error_of(".hidden:x").substr(0, 31), "line 1: bad user name '.hidden'");
  EXPECT_EQ(error_of(std::string(65, 'a') + ":x").substr(0, 22), "line 1: bad user name ");
  EXPECT_EQ(error_of(std::string(64, 'a') + ":x"), "no error");
  EXPECT_EQ(error_of("# c\n\nalice:"), "line 3: empty password for 'alice'");
  EXPECT_EQ(error_of("alice:x\r\nbob:y\r\nalice:y"), "line 3: user 'alice' listed twice");
  EXPECT_EQ(error_of("alice:se\tcret"), "line 1: control character in the password for 'alice'");
  EXPECT_EQ(error_of(std::string("alice:se\0cret", 13)), "line 1: control character in the password for 'alice'");
  EXPECT_EQ(error_of("alice:x\x7f"), "line 1: control character in the password for 'alice'");
  EXPECT_EQ(error_of("alice: secret").substr(0, 45), "line 1: the password starts or ends with a sp");
  EXPECT_EQ(error_of("alice:secret ").substr(0, 45), "line 1: the password starts or ends with a sp");
  EXPECT_EQ(error_of("alice:se cret"), "no error");  // a space inside is a character like any other
  EXPECT_EQ(error_of(" alice:x").substr(0, 24), "line 1: bad user name ' ");
  EXPECT_EQ(error_of("alice\x01:x").substr(0, 29), "line 1: bad user name 'alice?");  // shown printable
}

TEST(UsersTable, Limits) {
  EXPECT_EQ(error_of("alice:" + std::string(1024, 'p')), "no error");
  EXPECT_EQ(error_of("alice:" + std::string(1025, 'p')), "line 1: password longer than 1024 bytes for 'alice'");
  EXPECT_EQ(error_of(std::string(users_table::max_text + 1, '#')), "larger than 4 MiB");
  std::string many;
  for (std::size_t i = 0; i <= users_table::max_users; ++i) many += "u" + std::to_string(i) + ":p\n";
  EXPECT_EQ(error_of(many), "line 100001: more than 100000 users");
  // A bad name is shown cut to 40 characters, so an error stays one readable line.
  const auto long_name = error_of(std::string(200, '/') + ":x");
  EXPECT_LT(long_name.size(), 140U) << long_name;
}

TEST(UsersTable, BuiltInCodeUnderTheSameRules) {
  const users_table t{{"alice", "pw"}, {"bob", "hunter2"}};
  EXPECT_TRUE(t.check("alice", "pw"));
  EXPECT_TRUE(t.check("bob", "hunter2"));
  EXPECT_EQ(t.first(), "alice");
  EXPECT_THROW((users_table{{"alice", "pw"}, {"alice", "other"}}), users_error);
  EXPECT_THROW((users_table{{"alice", ""}}), users_error);
  users_table u;
  EXPECT_THROW(u.add("a:b", "x"), users_error);
  EXPECT_TRUE(u.empty());
}

// The comparison every server's password check ends in: right for every pair, wherever the
// bytes differ and whatever the lengths (its time depends on the lengths only; the loop has no
// early exit, which a result test cannot see but the code shows).
TEST(EqualConstantTime, AnswersLikeEqualityForEveryCase) {
  using netlib::equal_constant_time;
  EXPECT_TRUE(equal_constant_time("", ""));
  EXPECT_TRUE(equal_constant_time("secret", "secret"));
  EXPECT_FALSE(equal_constant_time("secret", "Secret"));  // first byte
  EXPECT_FALSE(equal_constant_time("secret", "secreT"));  // last byte
  EXPECT_FALSE(equal_constant_time("secret", "secre"));   // a prefix
  EXPECT_FALSE(equal_constant_time("secre", "secret"));
  EXPECT_FALSE(equal_constant_time("", "x"));
  EXPECT_FALSE(equal_constant_time("x", ""));
  // Bytes past the shorter one read as 0 in the loop: a trailing NUL must still differ.
  EXPECT_FALSE(equal_constant_time("abc", std::string_view("abc\0", 4)));
  EXPECT_FALSE(equal_constant_time(std::string_view("abc\0", 4), "abc"));
  EXPECT_TRUE(equal_constant_time(std::string_view("a\0c", 3), std::string_view("a\0c", 3)));
  // Every single-bit difference at every position of a 32-byte digest-sized value.
  std::string a(32, '\x5a');
  for (std::size_t i = 0; i < a.size(); ++i)
    for (int bit = 0; bit < 8; ++bit) {
      std::string b = a;
      b[i] = static_cast<char>(b[i] ^ (1 << bit));
      EXPECT_FALSE(equal_constant_time(a, b)) << i << " " << bit;
    }
  EXPECT_TRUE(equal_constant_time(a, std::string(32, '\x5a')));
  std::string high(8, '\xff');
  EXPECT_TRUE(equal_constant_time(high, std::string(8, '\xff')));
  EXPECT_FALSE(equal_constant_time(high, std::string(8, '\x7f')));
}

}  // namespace
