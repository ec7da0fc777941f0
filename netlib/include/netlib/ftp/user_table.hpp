#pragma once
// Who may log in: named users with passwords (a users file, one "name:password" per line) and,
// optionally, anonymous access ("anonymous" or "ftp" with any password, RFC 1635).
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace netlib::ftp {

class user_table {
 public:
  // Parses a users file. Blank lines and lines starting with '#' are skipped. Throws
  // std::invalid_argument naming the line for a line without ':' or with an empty name.
  static user_table parse(std::string_view text);

  void add(std::string name, std::string password) { users_[std::move(name)] = std::move(password); }
  void set_anonymous(bool allowed) noexcept { anonymous_ = allowed; }
  [[nodiscard]] bool anonymous() const noexcept { return anonymous_; }
  [[nodiscard]] static bool is_anonymous_name(std::string_view name);
  [[nodiscard]] bool check(std::string_view name, std::string_view password) const;
  [[nodiscard]] std::size_t size() const noexcept { return users_.size(); }

 private:
  std::map<std::string, std::string, std::less<>> users_;
  bool anonymous_ = false;
};

}  // namespace netlib::ftp
