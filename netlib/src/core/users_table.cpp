// Theory of operation: the users file is split into lines (LF or CRLF); each line that is not
// blank and does not start with '#' is `name:password`, checked against the rules in
// users_table.hpp, and a broken rule names the line. Passwords are kept as SHA-256 digests; a
// check hashes the guess and compares 32 bytes with equal_constant_time, against a fixed digest
// for an unknown name, so the work is the same whatever the name and wherever the guess differs.
#include "netlib/core/users_table.hpp"
#include "netlib/core/ascii.hpp"

#include <fmt/format.h>

#include "netlib/core/sha256.hpp"

namespace netlib {

bool equal_constant_time(std::string_view a, std::string_view b) noexcept {
  const std::size_t n = a.size() > b.size() ? a.size() : b.size();
  unsigned diff = a.size() == b.size() ? 0U : 1U;
  for (std::size_t i = 0; i < n; ++i) {
    // A byte past the end of the shorter one reads as 0 without a branch on the contents (the
    // index test depends on the lengths only).
    const auto x = i < a.size() ? static_cast<unsigned char>(a[i]) : 0U;
    const auto y = i < b.size() ? static_cast<unsigned char>(b[i]) : 0U;
    diff |= x ^ y;
  }
  return diff == 0;
}

namespace {

std::array<std::uint8_t, 32> digest_of(std::string_view password) noexcept {
  sha256 h;
  h.update(password);
  return h.finish();
}

std::string_view as_view(const std::array<std::uint8_t, 32>& d) noexcept {
  return {reinterpret_cast<const char*>(d.data()), d.size()};
}

}  // namespace

users_table::users_table(std::initializer_list<std::pair<std::string_view, std::string_view>> users) {
  for (const auto& [name, password] : users) add(name, password);
}

bool users_table::valid_name(std::string_view name) noexcept {
  if (name.empty() || name.size() > max_name || name.front() == '.') return false;
  for (char c : name) {
    const bool ok =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

std::string users_table::password_problem(std::string_view password) {
  if (password.empty()) return "empty password";
  if (password.size() > max_password) return fmt::format("password longer than {} bytes", max_password);
  for (char c : password)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return "control character in the password";
  if (password.front() == ' ' || password.back() == ' ')
    return "the password starts or ends with a space (write name:password with nothing around the ':')";
  return {};
}

void users_table::add(std::string_view name, std::string_view password) {
  if (!valid_name(name))
    throw users_error(fmt::format("bad user name '{}' (1 to {} letters, digits, '.', '_', '-'; not starting with '.')",
                                  ascii::excerpt(name), max_name));
  if (const auto problem = password_problem(password); !problem.empty())
    throw users_error(fmt::format("{} for '{}'", problem, name));
  if (exists(name)) throw users_error(fmt::format("user '{}' listed twice", name));
  if (users_.size() >= max_users) throw users_error(fmt::format("more than {} users", max_users));
  if (users_.empty()) first_ = std::string(name);
  users_.emplace(std::string(name), digest_of(password));
}

users_table users_table::parse(std::string_view text) {
  if (text.size() > max_text) throw users_error(fmt::format("larger than {} MiB", max_text >> 20));
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
    if (colon == std::string_view::npos) throw users_error(fmt::format("line {}: expected name:password", line_no));
    try {
      table.add(line.substr(0, colon), line.substr(colon + 1));
    } catch (const users_error& e) {
      throw users_error(fmt::format("line {}: {}", line_no, e.what()));
    }
  }
  return table;
}

bool users_table::exists(std::string_view name) const {
  return users_.find(name) != users_.end();
}

bool users_table::check(std::string_view name, std::string_view password) const {
  static const digest unknown = digest_of("\x01 no such user");  // never a valid password's digest to match
  const auto it = users_.find(name);
  const bool known = it != users_.end();
  const bool same = equal_constant_time(as_view(known ? it->second : unknown), as_view(digest_of(password)));
  return known && same;
}

std::vector<std::string> users_table::names() const {
  std::vector<std::string> out;
  out.reserve(users_.size());
  for (const auto& entry : users_) out.push_back(entry.first);
  return out;
}

}  // namespace netlib
