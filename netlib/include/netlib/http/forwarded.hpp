#pragma once
// Who the client is when a proxy stands between (RFC 7239 Forwarded). lab-http proxy adds
// "Forwarded: for=CLIENT" to every request it forwards; lab-http serve believes that element
// only from a proxy it was told to trust (--trusted-proxy, as nginx's set_real_ip_from), and then
// keys the credentials guard on that client instead of on the proxy, which is one address for
// all its users (docs/security.md, "Password guessing").
#include <algorithm>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "netlib/http/fields.hpp"

namespace netlib::http {

// The Forwarded element a proxy appends for its client at `address` (an IP address as text):
// for=192.0.2.43, for="[2001:db8::17]".
std::string forwarded_element(std::string_view address);

namespace detail {
// The for= address of the last element of a Forwarded list value (all its lines combined).
std::optional<std::string> last_forwarded_for(std::string_view list);
}  // namespace detail

// The address in the for= parameter of the last Forwarded element (the one the nearest proxy
// added), or nullopt when there is none or it names no IP address (RFC 7239 §6: "unknown",
// obfuscated names). Either form of a field list: a request's views (the server's) or owned
// fields.
template <class List>
std::optional<std::string> last_forwarded_for(const field_queries<List>& f) {
  const auto all = f.combined("Forwarded");
  if (!all) return std::nullopt;
  return detail::last_forwarded_for(*all);
}

// The address the credentials guard should key on: `peer`, or, when `peer` is one of `trusted`
// and the request has a usable Forwarded element, the client that element names.
template <class List>
std::string client_address(const field_queries<List>& f, std::string_view peer, std::span<const std::string> trusted) {
  if (std::find(trusted.begin(), trusted.end(), peer) == trusted.end()) return std::string(peer);
  return last_forwarded_for(f).value_or(std::string(peer));
}

}  // namespace netlib::http
