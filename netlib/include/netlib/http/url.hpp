#pragma once
// http and https URLs (RFC 9110 §4.2) and resolving references against a base (RFC 3986 §5.2),
// for the client and the proxy.
#include <optional>
#include <string>
#include <string_view>

namespace netlib::http {

struct url {
  std::string scheme = "http";  // "http" or "https", lower case
  std::string host;             // lower case; IPv6 without brackets
  unsigned short port = 80;
  std::string target = "/";  // path and query, origin-form
  [[nodiscard]] bool secure() const noexcept { return scheme == "https"; }
  // "host" or "host:port" when the port is not the scheme's default (the Host field value).
  [[nodiscard]] std::string authority() const;
  [[nodiscard]] std::string to_string() const;
  [[nodiscard]] std::string path() const;  // target without the query
};

std::optional<url> parse_url(std::string_view text);
// A reference from a page (href/src) resolved against the page's URL; nullopt for other schemes
// (mailto:, data:, javascript:) and malformed references. Fragments are dropped.
std::optional<url> resolve_reference(const url& base, std::string_view ref);

}  // namespace netlib::http
