// Cookie header (RFC 6265 §4.2.1, parsed leniently as §5.4 allows for user agents' output).
#include "netlib/http/cookie.hpp"

#include "netlib/http/fields.hpp"

namespace netlib::http {

std::vector<std::pair<std::string, std::string>> parse_cookie_header(std::string_view value) {
  std::vector<std::pair<std::string, std::string>> out;
  while (!value.empty()) {
    const std::size_t semi = value.find(';');
    const std::string_view pair = trim_ows(value.substr(0, semi));
    const std::size_t eq = pair.find('=');
    if (eq != std::string_view::npos && eq > 0) {
      std::string_view v = trim_ows(pair.substr(eq + 1));
      if (v.size() >= 2 && v.front() == '"' && v.back() == '"') v = v.substr(1, v.size() - 2);
      out.emplace_back(std::string(trim_ows(pair.substr(0, eq))), std::string(v));
    }
    if (semi == std::string_view::npos) break;
    value.remove_prefix(semi + 1);
  }
  return out;
}

std::optional<std::string> find_cookie(std::string_view header_value, std::string_view name) {
  for (auto& [n, v] : parse_cookie_header(header_value))
    if (n == name) return v;
  return std::nullopt;
}

}  // namespace netlib::http
