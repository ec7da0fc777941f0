// Theory of operation: the named users are a netlib::users_table (parsed, checked and compared
// there); this layer adds the anonymous switch. User names are case-sensitive except the
// anonymous names (RFC 1635 clients send "anonymous" or "ftp").
#include "netlib/ftp/user_table.hpp"

#include <fmt/format.h>

#include "netlib/core/ascii.hpp"

namespace netlib::ftp {
namespace {

users_error anonymous_name(std::string_view name) {
  return users_error(fmt::format(
      "user '{}' is the anonymous login (RFC 1635): with anonymous access on it takes any password; name the user "
      "otherwise",
      name));
}

}  // namespace

user_table::user_table(users_table named, bool anonymous) : named_(std::move(named)), anonymous_(anonymous) {
  refuse_anonymous_names();
}

void user_table::add(std::string_view name, std::string_view password) {
  if (anonymous_ && is_anonymous_name(name)) throw anonymous_name(name);
  named_.add(name, password);
}

void user_table::set_anonymous(bool allowed) {
  anonymous_ = allowed;
  refuse_anonymous_names();
}

void user_table::refuse_anonymous_names() const {
  if (!anonymous_) return;
  for (const auto& name : named_.names())
    if (is_anonymous_name(name)) throw anonymous_name(name);
}

bool user_table::is_anonymous_name(std::string_view name) {
  return ascii::iequals(name, "anonymous") || ascii::iequals(name, "ftp");
}

bool user_table::check(std::string_view name, std::string_view password) const {
  if (anonymous_ && is_anonymous_name(name)) return true;
  return named_.check(name, password);
}

}  // namespace netlib::ftp
