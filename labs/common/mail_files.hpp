#pragma once
// Helpers shared by lab-smtp and lab-pop3: USER:PASSWORD flags (the users file is read by
// netlib::server_cli::load_users, as for every server; other files by netlib::app::read_input_file).
#include <string>
#include <utility>

namespace lab_mail {

// "user:password" -> pair; usage error otherwise.
std::pair<std::string, std::string> split_credentials(const std::string& text, const std::string& flag);

}  // namespace lab_mail
