#pragma once
// The users table every password-checking server shares (lab-smtp, lab-pop3, lab-ftp, lab-http
// serve --auth-users): one file format, one parser with line-numbered errors, one constant-time
// check. Protocols put their own rules on top (FTP's anonymous login, HTTP's protected folder).
//
// The users file: one `name:password` per line, LF or CRLF; blank lines and lines starting with
// '#' are skipped. The first ':' ends the name, so a password may hold ':'.
//   - a name is 1..64 characters of [A-Za-z0-9._-], not starting with '.' (it names a Maildir
//     folder for the mail servers, and holds no ':' as RFC 7617 §2 asks of a Basic user-id);
//   - a password is 1..1024 bytes without control characters (RFC 7617 §2; FTP's and POP3's
//     PASS end at CR LF), and neither starts nor ends with a space (`alice: secret` is a typo);
//   - a name appears once; at most 100000 users and 4 MiB of text.
// Anything else is a users_error "line 3: ..." and no table: a server never starts on a file it
// read differently from what its author meant.
//
//   auto users = netlib::users_table::parse("alice:secret\nbob:hunter2\n");
//   users.check("alice", "secret");   // true
#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace netlib {

class users_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// True when a and b hold the same bytes. The time taken depends on their lengths only, never on
// their contents: every byte of the longer one is read, and no branch depends on a byte (a
// guesser timing the answer learns nothing about where a guess went wrong).
[[nodiscard]] bool equal_constant_time(std::string_view a, std::string_view b) noexcept;

class users_table {
 public:
  static constexpr std::size_t max_name = 64;
  static constexpr std::size_t max_password = 1024;
  static constexpr std::size_t max_users = 100000;
  static constexpr std::size_t max_text = 4 << 20;

  users_table() = default;
  // For tests and programs that build a table in code: add() for each pair (users_error when one
  // breaks the rules above).
  users_table(std::initializer_list<std::pair<std::string_view, std::string_view>> users);

  // Throws users_error("line 3: expected name:password").
  static users_table parse(std::string_view text);
  // Adds one user under the file's rules; throws users_error (without a line number) otherwise.
  void add(std::string_view name, std::string_view password);

  [[nodiscard]] bool exists(std::string_view name) const;
  // True when `name` is in the table with this password. The passwords are kept as SHA-256
  // digests and compared with equal_constant_time, so neither where a guess differs nor the
  // length of the real password shows in the time; an unknown name costs the same as a known one.
  [[nodiscard]] bool check(std::string_view name, std::string_view password) const;
  [[nodiscard]] std::size_t size() const noexcept { return users_.size(); }
  [[nodiscard]] bool empty() const noexcept { return users_.empty(); }
  // The first user added (the first line of the users file); empty when there is none.
  [[nodiscard]] const std::string& first() const noexcept { return first_; }
  // The names, sorted.
  [[nodiscard]] std::vector<std::string> names() const;

  // A valid user name: 1..64 characters of [A-Za-z0-9._-], not starting with '.'.
  static bool valid_name(std::string_view name) noexcept;
  // Why `password` breaks the rules, or empty when it does not.
  static std::string password_problem(std::string_view password);

 private:
  using digest = std::array<std::uint8_t, 32>;
  std::map<std::string, digest, std::less<>> users_;
  std::string first_;
};

}  // namespace netlib
