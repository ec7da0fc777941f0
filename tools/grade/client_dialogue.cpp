// Splitting a recorded client dialogue into commands.
#include "client_dialogue.hpp"

#include "client_run.hpp"
#include "netlib/core/command_line.hpp"

namespace netlab::grade {

client_command parse_command(const std::string& raw) {
  client_command c{raw, {}, {}};
  std::string line = raw;
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
  auto split = netlib::split_command_line(line);
  c.verb = std::move(split.verb);
  c.arg = std::move(split.argument);
  return c;
}

bool ends_with_crlf(const std::string& line) {
  return line.size() >= 2 && line.ends_with("\r\n");
}

std::string shown(const client_command& c) {
  return c.arg.empty() ? c.verb : c.verb + " " + c.arg;
}

std::string command_list(const std::vector<client_command>& commands) {
  std::string out;
  for (const auto& c : commands) out += c.raw;
  return out;
}

std::vector<client_command> unread_lines(const std::string& client, std::size_t read) {
  std::vector<client_command> out;
  if (read >= client.size()) return out;
  for (const auto& line : split_lf(client.substr(read))) out.push_back(parse_command(line));
  return out;
}

}  // namespace netlab::grade
