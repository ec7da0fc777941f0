#pragma once
// Who may log in to the FTP server: the named users of the shared users table (the users file,
// netlib::users_table: one parser, one constant-time check for every server) and, when allowed,
// anonymous access ("anonymous" or "ftp", any letter case, with any password, RFC 1635). The FTP
// layer's own rule: while anonymous access is on, no named user may be called "anonymous" or
// "ftp" (their password would never be asked for).
#include <string_view>

#include "netlib/core/users_table.hpp"

namespace netlib::ftp {

class user_table {
 public:
  user_table() = default;
  // Throws users_error when `anonymous` and a named user has an anonymous name.
  user_table(users_table named, bool anonymous);

  // A named user under the users file's rules (users_error otherwise).
  void add(std::string_view name, std::string_view password);
  // Throws users_error when a named user has an anonymous name.
  void set_anonymous(bool allowed);
  [[nodiscard]] bool anonymous() const noexcept { return anonymous_; }
  [[nodiscard]] static bool is_anonymous_name(std::string_view name);
  // An anonymous login while allowed, else the named users' constant-time check.
  [[nodiscard]] bool check(std::string_view name, std::string_view password) const;
  // Named users only.
  [[nodiscard]] std::size_t size() const noexcept { return named_.size(); }

 private:
  void refuse_anonymous_names() const;

  users_table named_;
  bool anonymous_ = false;
};

}  // namespace netlib::ftp
