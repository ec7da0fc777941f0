#pragma once
// HTTP Basic authentication (RFC 7617) for one protected folder: credentials are checked against
// the users table every server shares (netlib::users_table, the users file of --auth-users: one
// parser, one constant-time check). This layer adds the folder and the realm. static_site puts
// the credentials guard between parsing the credentials and checking them.
#include <optional>
#include <string>
#include <string_view>

#include "netlib/core/users_table.hpp"
#include "netlib/http/message.hpp"

namespace netlib::http {

std::optional<std::string> base64_decode(std::string_view in);
std::string base64_encode(std::string_view in);

struct basic_auth_rule {
  std::string prefix;  // normalized path prefix, e.g. "private" (a folder under the root)
  std::string realm = "netlab";
  users_table users;
  // Where that folder really is when its name is a symbolic link ("vault" for private -> vault):
  // paths under it are protected too. Empty: the same as prefix.
  std::string real_prefix;
};

struct auth_decision {
  bool required = false;  // the path is under the protected folder (prefix or real_prefix)
  bool granted = false;
  std::string user;  // when granted
};

// True when `path` (normalized) is the protected folder or under it (prefix or real_prefix).
bool requires_auth(const basic_auth_rule& rule, std::string_view path);

struct basic_credentials {
  std::string user;
  std::string password;
};
// The request's Basic credentials, or nullopt when it has none (or malformed ones).
std::optional<basic_credentials> parse_basic_credentials(const request_view& r);
// True when the rule's table holds this user with this password (users_table::check).
bool credentials_match(const basic_auth_rule& rule, const basic_credentials& c);

auth_decision check_basic_auth(const basic_auth_rule& rule, std::string_view path, const request_view& r);

}  // namespace netlib::http
