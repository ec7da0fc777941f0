#pragma once
// File helpers shared by lab-smtp and lab-pop3: reading the users file and a whole file, the TLS
// option checks.
#include <string>

#include "netlib/mail/users_table.hpp"

namespace lab_mail {

// Reads a whole file; throws netlib::app::failure naming the file.
std::string read_whole_file(const std::string& path, const std::string& what);
// Reads and parses the users file; throws netlib::app::failure("users file 'F': line 3: ...").
netlib::mail::users_table load_users(const std::string& path);
// "user:password" -> pair; usage error otherwise.
std::pair<std::string, std::string> split_credentials(const std::string& text, const std::string& flag);

}  // namespace lab_mail
