#pragma once
// SMTP command lines (RFC 5321 §4.1): a verb, a space, an argument; MAIL FROM:<path> and
// RCPT TO:<path> with ESMTP parameters (§4.1.2).
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace netlib::smtp {

struct command {
  std::string verb;      // upper-cased
  std::string argument;  // the rest of the line after one space, trailing spaces removed
};
command split_command(std::string_view line);

struct path_argument {
  std::string address;  // "local@domain"; empty for the null reverse-path "<>"
  std::vector<std::pair<std::string, std::string>> params;  // keyword upper-cased, value as sent
};

// Parses "FROM:<a@b> SIZE=10" (prefix "FROM:") or "TO:<a@b>" (prefix "TO:"). Accepts a space after
// the colon as most servers do, strips a source route (§4.1.2 "@a,@b:"). On failure returns nullopt
// and sets `error` to a reason for the 501 reply.
std::optional<path_argument> parse_path(std::string_view argument, std::string_view prefix,
                                        std::string& error);
// A mailbox "local@domain" per §4.1.2 (dot-string or quoted local part, domain or address literal).
bool valid_mailbox(std::string_view address);
// The domain part of a mailbox (after the last '@').
std::string_view domain_of(std::string_view address);
std::string_view local_part_of(std::string_view address);
bool iequals(std::string_view a, std::string_view b) noexcept;

}  // namespace netlib::smtp
