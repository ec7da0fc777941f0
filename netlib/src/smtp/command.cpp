// Theory of operation: a command line is split at its first space into an upper-cased verb and an
// argument (netlib::split_command_line). MAIL/RCPT arguments are "FROM:" / "TO:" (case-insensitive), an optional space,
// a path in angle brackets (RFC 5321 §4.1.2) and space-separated ESMTP parameters keyword[=value].
#include "netlib/smtp/command.hpp"

#include <algorithm>
#include <cctype>

namespace netlib::smtp {
namespace {

bool atext(char c) noexcept {  // RFC 5322 §3.2.3
  if (std::isalnum(static_cast<unsigned char>(c))) return true;
  return std::string_view("!#$%&'*+-/=?^_`{|}~").find(c) != std::string_view::npos;
}

bool valid_dot_string(std::string_view s) noexcept {
  if (s.empty() || s.front() == '.' || s.back() == '.') return false;
  char prev = 0;
  for (char c : s) {
    if (c == '.' && prev == '.') return false;
    if (c != '.' && !atext(c)) return false;
    prev = c;
  }
  return true;
}

bool valid_quoted(std::string_view s) noexcept {  // "..." with qtextSMTP / quoted-pairSMTP
  if (s.size() < 2 || s.front() != '"' || s.back() != '"') return false;
  for (std::size_t i = 1; i + 1 < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == '\\') {
      if (++i + 1 >= s.size()) return false;
    } else if (c == '"' || c < 32 || c == 127) {
      return false;
    }
  }
  return true;
}

bool valid_domain(std::string_view d) noexcept {
  if (d.size() > 2 && d.front() == '[' && d.back() == ']') return true;  // address literal
  if (d.empty() || d.size() > 255) return false;
  std::size_t label = 0;
  for (std::size_t i = 0; i <= d.size(); ++i) {
    if (i == d.size() || d[i] == '.') {
      if (label == 0 || label > 63 || d[i - 1] == '-' || d[i - label] == '-') return false;
      label = 0;
    } else if (std::isalnum(static_cast<unsigned char>(d[i])) || d[i] == '-') {
      ++label;
    } else {
      return false;
    }
  }
  return true;
}

}  // namespace

std::string_view domain_of(std::string_view address) {
  const auto at = address.rfind('@');
  return at == std::string_view::npos ? std::string_view{} : address.substr(at + 1);
}

std::string_view local_part_of(std::string_view address) {
  const auto at = address.rfind('@');
  return at == std::string_view::npos ? address : address.substr(0, at);
}

bool valid_mailbox(std::string_view address) {
  const auto at = address.rfind('@');
  if (at == std::string_view::npos || address.size() > 254) return false;
  const std::string_view local = address.substr(0, at);
  if (local.size() > 64) return false;  // RFC 5321 §4.5.3.1.1
  return (valid_dot_string(local) || valid_quoted(local)) && valid_domain(address.substr(at + 1));
}

std::optional<path_argument> parse_path(std::string_view arg, std::string_view prefix, std::string& error) {
  if (arg.size() < prefix.size() || !iequals(arg.substr(0, prefix.size()), prefix)) {
    error = "Syntax: expected " + std::string(prefix) + "<address>";
    return std::nullopt;
  }
  arg.remove_prefix(prefix.size());
  if (!arg.empty() && arg.front() == ' ') arg.remove_prefix(1);
  const auto close = arg.find('>');
  if (arg.empty() || arg.front() != '<' || close == std::string_view::npos) {
    error = "Syntax: the address must be in angle brackets, " + std::string(prefix) + "<user@example.org>";
    return std::nullopt;
  }
  std::string_view addr = arg.substr(1, close - 1);
  if (!addr.empty() && addr.front() == '@') {  // source route, ignored (RFC 5321 §4.1.2, C.)
    const auto colon = addr.find(':');
    if (colon == std::string_view::npos) {
      error = "Syntax: bad source route";
      return std::nullopt;
    }
    addr = addr.substr(colon + 1);
  }
  path_argument p;
  p.address = std::string(addr);
  const bool bare_postmaster = iequals(prefix, "TO:") && iequals(addr, "postmaster");  // RFC 5321 §4.1.1.3
  if (!addr.empty() && !bare_postmaster && !valid_mailbox(addr)) {
    error = "Syntax: '" + p.address + "' is not a valid mailbox (local@domain)";
    return std::nullopt;
  }
  std::string_view rest = arg.substr(close + 1);
  while (!rest.empty()) {
    if (rest.front() != ' ') {
      error = "Syntax: expected a space before a parameter";
      return std::nullopt;
    }
    rest.remove_prefix(1);
    const auto end = rest.find(' ');
    const std::string_view param = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view{} : rest.substr(end);
    if (param.empty()) continue;
    const auto eq = param.find('=');
    p.params.emplace_back(ascii::to_upper(param.substr(0, eq)),
                          eq == std::string_view::npos ? std::string{} : std::string(param.substr(eq + 1)));
  }
  return p;
}

}  // namespace netlib::smtp
