// The users file of every server that checks passwords (lab-smtp serve --users, lab-pop3 serve
// --users, lab-ftp serve --users, lab-http serve --auth-users), read and parsed one way: the
// format and its rules are netlib::users_table's (core/users_table.hpp).
#pragma once

#include <string>
#include <string_view>

#include "netlib/core/users_table.hpp"

namespace netlib::server_cli {

// Reads and parses the users file named by `flag` (e.g. "--users"). A file that does not exist
// is a usage error (exit 2, "--users: 'x': no such file"); one that cannot be read, breaks a
// rule or lists nobody is a runtime failure (exit 1, "--users users.txt: line 3: user 'alice'
// listed twice"), as for any input file that exists but cannot be parsed (docs/conventions.md).
users_table load_users(const std::string& path, std::string_view flag);

}  // namespace netlib::server_cli
