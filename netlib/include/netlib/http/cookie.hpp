#pragma once
// Cookie header parsing and Set-Cookie building (RFC 6265 §4.1, §4.2, §5.4).
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace netlib::http {

// "a=1; b=2" -> {{"a","1"},{"b","2"}}; malformed pairs are skipped.
std::vector<std::pair<std::string, std::string>> parse_cookie_header(std::string_view value);
// The value of cookie `name` in any Cookie field of a request's header value.
std::optional<std::string> find_cookie(std::string_view header_value, std::string_view name);

}  // namespace netlib::http
