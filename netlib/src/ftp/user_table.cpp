// Theory of operation: a map from name to password, plus the anonymous switch. User names are
// case-sensitive except the anonymous names (RFC 1635 clients send "anonymous" or "ftp").
#include "netlib/ftp/user_table.hpp"
#include "netlib/core/ascii.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include <fmt/format.h>

namespace netlib::ftp {

user_table user_table::parse(std::string_view text) {
  user_table t;
  std::size_t line_no = 0;
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty() || line.front() == '#') continue;
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos || colon == 0) {
      throw std::invalid_argument(fmt::format("users file line {}: expected name:password", line_no));
    }
    t.add(std::string(line.substr(0, colon)), std::string(line.substr(colon + 1)));
  }
  return t;
}

bool user_table::is_anonymous_name(std::string_view name) {
  return ascii::iequals(name, "anonymous") || ascii::iequals(name, "ftp");
}

bool user_table::check(std::string_view name, std::string_view password) const {
  if (is_anonymous_name(name) && anonymous_) return true;
  auto it = users_.find(name);
  return it != users_.end() && it->second == password;
}

}  // namespace netlib::ftp
