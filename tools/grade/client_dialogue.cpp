// Splitting a recorded client/server dialogue into commands and reply codes.
#include "client_dialogue.hpp"

#include <algorithm>
#include <cctype>

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

namespace {

int code_of(const std::string& line) {
  if (line.size() < 3 || !std::isdigit(static_cast<unsigned char>(line[0])) ||
      !std::isdigit(static_cast<unsigned char>(line[1])) || !std::isdigit(static_cast<unsigned char>(line[2]))) {
    return -1;
  }
  return std::stoi(line.substr(0, 3));
}

}  // namespace

std::vector<coded_reply> parse_coded_replies(const std::string& server_bytes) {
  std::vector<coded_reply> out;
  const auto lines = split_lf(server_bytes);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    coded_reply r{code_of(lines[i]), lines[i]};
    if (r.code < 0) continue;  // not a reply start: skipped
    if (lines[i].size() > 3 && lines[i][3] == '-') {
      const std::string end = lines[i].substr(0, 3) + " ";
      while (++i < lines.size()) {
        r.text += lines[i];
        if (lines[i].starts_with(end)) break;
      }
    }
    out.push_back(std::move(r));
  }
  return out;
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

}  // namespace netlab::grade
