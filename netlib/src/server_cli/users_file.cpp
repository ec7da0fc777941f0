// The users file: see users_file.hpp.
#include "netlib/server_cli/users_file.hpp"

#include <fmt/format.h>

#include "netlib/app/input_file.hpp"
#include "netlib/app/program.hpp"

namespace netlib::server_cli {

users_table load_users(const std::string& path, std::string_view flag) {
  const auto text = app::read_input_file(std::string(flag), path, users_table::max_text);
  try {
    auto users = users_table::parse(text);
    if (users.empty())
      throw app::failure(fmt::format("{} {}: lists no users (one name:password per line)", flag, path));
    return users;
  } catch (const users_error& e) {
    throw app::failure(fmt::format("{} {}: {}", flag, path, e.what()));
  }
}

}  // namespace netlib::server_cli
