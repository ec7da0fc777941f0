#pragma once
// A user agent's cookie store (RFC 6265 §5.2-§5.4): Set-Cookie parsing with Expires, Max-Age,
// Domain, Path, Secure and HttpOnly; domain-match and path-match; host-only cookies; expiry by an
// injected time (std::chrono::sys_seconds); Secure cookies only over https. Saved and loaded in
// the Netscape cookie-file format that curl and wget also read.
#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "netlib/http/url.hpp"

namespace netlib::http {

struct cookie {
  std::string name, value;
  std::string domain;  // lower case, no leading dot
  std::string path = "/";
  bool host_only = true;
  bool secure = false;
  bool http_only = false;
  std::optional<std::chrono::sys_seconds> expires;  // nullopt: a session cookie
};

class cookie_jar {
 public:
  // RFC 6265 §5.3: stores, replaces or (when expired) deletes the cookie; false when refused
  // (malformed, or a Domain the request host does not domain-match, or a public-suffix-like
  // single label domain).
  bool set_from_header(const url& request_url, std::string_view set_cookie, std::chrono::sys_seconds now);
  // RFC 6265 §5.4: the Cookie field value for a request, or "" when no cookie applies.
  [[nodiscard]] std::string cookie_header(const url& request_url, std::chrono::sys_seconds now) const;
  void remove_expired(std::chrono::sys_seconds now);
  [[nodiscard]] const std::vector<cookie>& cookies() const noexcept { return cookies_; }

  [[nodiscard]] std::string save(bool include_session_cookies = true) const;
  void load(std::string_view netscape_text);

 private:
  std::vector<cookie> cookies_;
};

bool domain_match(std::string_view host, std::string_view domain);             // RFC 6265 §5.1.3
bool path_match(std::string_view request_path, std::string_view cookie_path);  // §5.1.4
std::string default_path(std::string_view request_path);                       // §5.1.4

}  // namespace netlib::http
