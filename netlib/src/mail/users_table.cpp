// Theory of operation: the users file is split into lines (LF or CRLF); each non-blank line not
// starting with '#' must be `name:password` with a valid name (it becomes a Maildir folder) and
// a password without control characters. The first ':' separates them, so passwords may hold ':'.
#include "netlib/mail/users_table.hpp"

#include <fmt/format.h>

namespace netlib::mail {

bool users_table::valid_name(std::string_view name) noexcept {
  if (name.empty() || name.size() > 64 || name.front() == '.') return false;
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '.' || c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

users_table users_table::parse(std::string_view text) {
  users_table table;
  std::size_t line_no = 0;
  while (!text.empty()) {
    ++line_no;
    const auto lf = text.find('\n');
    std::string_view line = text.substr(0, lf);
    text = lf == std::string_view::npos ? std::string_view{} : text.substr(lf + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty() || line.front() == '#') continue;
    const auto colon = line.find(':');
    if (colon == std::string_view::npos)
      throw users_error(fmt::format("line {}: expected name:password", line_no));
    const std::string_view name = line.substr(0, colon);
    const std::string_view password = line.substr(colon + 1);
    if (!valid_name(name))
      throw users_error(fmt::format("line {}: bad user name '{}' (use letters, digits, '.', '_', '-')", line_no, name));
    if (password.empty()) throw users_error(fmt::format("line {}: empty password for '{}'", line_no, name));
    for (char c : password)
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
        throw users_error(fmt::format("line {}: control character in the password of '{}'", line_no, name));
    if (table.exists(name)) throw users_error(fmt::format("line {}: user '{}' listed twice", line_no, name));
    table.add(std::string(name), std::string(password));
  }
  return table;
}

void users_table::add(const std::string& name, const std::string& password) {
  if (users_.empty()) first_ = name;
  users_[name] = password;
}

bool users_table::exists(std::string_view name) const { return users_.find(name) != users_.end(); }

bool users_table::check(std::string_view name, std::string_view password) const {
  const auto it = users_.find(name);
  const std::string_view expected = it == users_.end() ? std::string_view{} : std::string_view(it->second);
  // Constant-time over the supplied password's length.
  unsigned diff = expected.size() == password.size() ? 0U : 1U;
  for (std::size_t i = 0; i < password.size(); ++i)
    diff |= static_cast<unsigned>(static_cast<unsigned char>(password[i]) ^
                                  static_cast<unsigned char>(i < expected.size() ? expected[i] : 0));
  return it != users_.end() && diff == 0;
}

}  // namespace netlib::mail
