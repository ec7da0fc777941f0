#include "mail_files.hpp"

#include <fstream>
#include <sstream>

#include "netlib/app/program.hpp"

namespace lab_mail {

std::string read_whole_file(const std::string& path, const std::string& what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw netlib::app::failure("cannot read " + what + " '" + path + "': no such file or not readable");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

netlib::mail::users_table load_users(const std::string& path) {
  const std::string text = read_whole_file(path, "users file");
  try {
    auto users = netlib::mail::users_table::parse(text);
    if (users.size() == 0) throw netlib::app::failure("users file '" + path + "' lists no users (one name:password per line)");
    return users;
  } catch (const netlib::mail::users_error& e) {
    throw netlib::app::failure("users file '" + path + "': " + e.what());
  }
}

std::pair<std::string, std::string> split_credentials(const std::string& text, const std::string& flag) {
  const auto colon = text.find(':');
  if (colon == std::string::npos || colon == 0)
    throw netlib::app::usage_error(flag + " expects USER:PASSWORD, got '" + text + "'");
  return {text.substr(0, colon), text.substr(colon + 1)};
}

}  // namespace lab_mail
