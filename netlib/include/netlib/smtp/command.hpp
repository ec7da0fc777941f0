#pragma once
// SMTP command lines (RFC 5321 §4.1): a verb, a space, an argument; MAIL FROM:<path> and
// RCPT TO:<path> with ESMTP parameters (§4.1.2).
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "netlib/core/ascii.hpp"
#include "netlib/core/command_line.hpp"

namespace netlib::smtp {

// The verb upper-cased; the argument is the rest of the line after one space, trailing spaces
// removed.
using command = command_line;
inline command split_command(std::string_view line) {
  return split_command_line(line, {.trim_argument = true});
}

struct path_argument {
  std::string address;                                      // "local@domain"; empty for the null reverse-path "<>"
  std::vector<std::pair<std::string, std::string>> params;  // keyword upper-cased, value as sent
};

// Parses "FROM:<a@b> SIZE=10" (prefix "FROM:") or "TO:<a@b>" (prefix "TO:"). Accepts a space after
// the colon as most servers do, strips a source route (§4.1.2 "@a,@b:"). On failure returns nullopt
// and sets `error` to a reason for the 501 reply.
std::optional<path_argument> parse_path(std::string_view argument, std::string_view prefix, std::string& error);
// A mailbox "local@domain" per §4.1.2 (dot-string or quoted local part, domain or address literal).
bool valid_mailbox(std::string_view address);
// The domain part of a mailbox (after the last '@').
std::string_view domain_of(std::string_view address);
std::string_view local_part_of(std::string_view address);
using ascii::iequals;

}  // namespace netlib::smtp
