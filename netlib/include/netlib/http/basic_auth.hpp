#pragma once
// HTTP Basic authentication (RFC 7617) for one protected folder: credentials are checked against
// an in-memory table the driver loads from a file ("user:password" lines). static_site puts the
// credentials guard between parsing them and checking them.
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "netlib/http/message.hpp"

namespace netlib::http {

std::optional<std::string> base64_decode(std::string_view in);
std::string base64_encode(std::string_view in);

struct basic_auth_rule {
  std::string prefix;   // normalized path prefix, e.g. "private" (a folder under the root)
  std::string realm = "netlab";
  std::map<std::string, std::string> users;  // user -> password
  // Where that folder really is when its name is a symbolic link ("vault" for private -> vault):
  // paths under it are protected too. Empty: the same as prefix.
  std::string real_prefix;
};

// Parses "user:password" lines (blank lines and '#' comments skipped); nullopt names no line.
std::map<std::string, std::string> parse_users(std::string_view text);

struct auth_decision {
  bool required = false;      // the path is under the protected folder (prefix or real_prefix)
  bool granted = false;
  std::string user;           // when granted
};

// True when `path` (normalized) is the protected folder or under it (prefix or real_prefix).
bool requires_auth(const basic_auth_rule& rule, std::string_view path);

struct basic_credentials {
  std::string user;
  std::string password;
};
// The request's Basic credentials, or nullopt when it has none (or malformed ones).
std::optional<basic_credentials> parse_basic_credentials(const request_head& r);
// True when the rule's table holds this user with this password.
bool credentials_match(const basic_auth_rule& rule, const basic_credentials& c);

auth_decision check_basic_auth(const basic_auth_rule& rule, std::string_view path, const request_head& r);

}  // namespace netlib::http
