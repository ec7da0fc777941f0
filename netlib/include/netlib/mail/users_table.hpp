#pragma once
// The users file: one `name:password` per line; blank lines and lines starting with '#' are
// skipped. Parsing is pure (the driver reads the file); a bad line is an error naming its number.
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>

namespace netlib::mail {

class users_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class users_table {
 public:
  // Throws users_error("line 3: expected name:password").
  static users_table parse(std::string_view text);
  void add(const std::string& name, const std::string& password);
  [[nodiscard]] bool exists(std::string_view name) const;
  // Compares in time independent of where the passwords differ.
  [[nodiscard]] bool check(std::string_view name, std::string_view password) const;
  [[nodiscard]] std::size_t size() const noexcept { return users_.size(); }
  // The first user added (the first line of the users file); empty when there is none.
  [[nodiscard]] const std::string& first() const noexcept { return first_; }
  // A valid user name: 1..64 chars of [A-Za-z0-9._-], not starting with '.' (it names a folder).
  static bool valid_name(std::string_view name) noexcept;

 private:
  std::map<std::string, std::string, std::less<>> users_;
  std::string first_;
};

}  // namespace netlib::mail
