// Parser for the VLAN configuration text (format in vlan_config.hpp). Line-oriented, whitespace-
// separated words; every error names its line. Limits: 4096 ports, lines of at most 4096 bytes.
#include "netlib/l2/vlan_config.hpp"

#include <fmt/format.h>

#include <charconv>
#include <vector>

namespace netlib::l2 {

namespace {

constexpr std::size_t max_line = 4096;
constexpr unsigned max_port = 4095;

std::vector<std::string_view> words(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    std::size_t j = i;
    while (j < line.size() && line[j] != ' ' && line[j] != '\t' && line[j] != '\r') ++j;
    if (j > i) out.push_back(line.substr(i, j - i));
    i = j;
  }
  return out;
}

std::optional<unsigned> number(std::string_view s, unsigned min, unsigned max) {
  unsigned v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{} || p != s.data() + s.size() || v < min || v > max) return std::nullopt;
  return v;
}

// "10,20,30" -> the set, or an error message.
std::variant<std::set<vlan_id>, std::string> vid_list(std::string_view s) {
  std::set<vlan_id> out;
  while (!s.empty()) {
    const auto comma = s.find(',');
    const auto item = s.substr(0, comma);
    const auto v = number(item, 1, 4094);
    if (!v) return fmt::format("bad VLAN id '{}' (1..4094)", item);
    out.insert(static_cast<vlan_id>(*v));
    s = comma == std::string_view::npos ? std::string_view{} : s.substr(comma + 1);
  }
  return out;
}

// One non-empty line -> (port, config), or an error message.
std::variant<std::pair<port_id, port_config>, std::string> parse_line(std::vector<std::string_view> w) {
  port_config pc;
  if (!w.empty() && w.back() == "hairpin") {
    pc.hairpin = true;
    w.pop_back();
  }
  if (w.size() < 4 || w[0] != "port")
    return std::string("expected 'port N access VID' or 'port N trunk VIDS [native VID]'");
  const auto port = number(w[1], 0, max_port);
  if (!port) return fmt::format("bad port '{}' (0..{})", w[1], max_port);
  if (w[2] == "access") {
    if (w.size() != 4) return std::string("'access' takes one VLAN id");
    const auto v = number(w[3], 1, 4094);
    if (!v) return fmt::format("bad VLAN id '{}' (1..4094)", w[3]);
    pc.pvid = static_cast<vlan_id>(*v);
  } else if (w[2] == "trunk") {
    pc.mode = port_mode::trunk;
    auto list = vid_list(w[3]);
    if (auto* e = std::get_if<std::string>(&list)) return *e;
    pc.allowed = std::get<std::set<vlan_id>>(list);
    if (w.size() == 6 && w[4] == "native") {
      const auto v = number(w[5], 1, 4094);
      if (!v) return fmt::format("bad native VLAN id '{}' (1..4094)", w[5]);
      pc.native = static_cast<vlan_id>(*v);
    } else if (w.size() != 4) {
      return std::string("after the trunk's VLANs only 'native VID' may follow");
    }
  } else {
    return fmt::format("unknown mode '{}' (access or trunk)", w[2]);
  }
  return std::pair{static_cast<port_id>(*port), pc};
}

}  // namespace

std::variant<std::map<port_id, port_config>, vlan_config_error> parse_vlan_config(std::string_view text) {
  std::map<port_id, port_config> ports;
  std::size_t line_no = 0;
  while (!text.empty()) {
    ++line_no;
    const auto nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    if (line.size() > max_line)
      return vlan_config_error{line_no, fmt::format("line {}: longer than {} bytes", line_no, max_line)};
    if (const auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    const auto w = words(line);
    if (w.empty()) continue;
    auto parsed = parse_line(w);
    if (auto* e = std::get_if<std::string>(&parsed))
      return vlan_config_error{line_no, fmt::format("line {}: {}", line_no, *e)};
    auto [port, pc] = std::get<std::pair<port_id, port_config>>(parsed);
    if (!ports.emplace(port, pc).second) {
      return vlan_config_error{line_no, fmt::format("line {}: port {} configured twice", line_no, port)};
    }
  }
  return ports;
}

}  // namespace netlib::l2
