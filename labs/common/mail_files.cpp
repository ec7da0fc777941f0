#include "mail_files.hpp"

#include "netlib/app/program.hpp"

namespace lab_mail {

std::pair<std::string, std::string> split_credentials(const std::string& text, const std::string& flag) {
  const auto colon = text.find(':');
  if (colon == std::string::npos || colon == 0)
    throw netlib::app::usage_error(flag + " expects USER:PASSWORD, got '" + text + "'");
  return {text.substr(0, colon), text.substr(colon + 1)};
}

}  // namespace lab_mail
