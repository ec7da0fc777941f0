#pragma once
// HTTP caching rules for a shared cache (RFC 9111): what may be stored (§3), how long it stays
// fresh (§4.2.1 s-maxage, max-age, Expires; §4.2.2 heuristic freshness), its age (§4.2.3), and
// when a stored response must be revalidated (no-cache, §5.2.2.4, §5.2.1.4). Points in time are
// std::chrono::sys_seconds, handed in by the driver; ages and lifetimes are std::chrono::seconds.
#include <chrono>
#include <optional>
#include <string_view>

#include "netlib/http/message.hpp"

namespace netlib::http {

// A directive's value from Cache-Control ("max-age=60" -> 60); nullopt when absent or invalid.
std::optional<std::chrono::seconds> cache_directive_seconds(const fields& f, std::string_view directive);
bool has_cache_directive(const fields& f, std::string_view directive);

// RFC 9111 §3 for a shared cache. Also never a response that sets a cookie (Set-Cookie, RFC 6265):
// stored, it would hand one user's session to the next (RFC 9111 §7.3; nginx's default).
bool storable(const request_head& request, const response_head& response);
// RFC 9111 §4.1: the request's fields that the response's Vary names, as they are to be stored
// with it (absent fields stay absent).
fields selecting_fields(const response_head& response, const request_head& request);
// RFC 9111 §4.1: whether a stored response with these selecting fields may answer `request`:
// every field its Vary names has the same value in both (lists compared after trimming their
// members), absent in both counts as the same; Vary: * never matches.
bool vary_matches(const response_head& stored, const fields& selecting, const request_head& request);
// RFC 9111 §4.2.1 and §4.2.2 (10% of the time since Last-Modified, at most one day).
std::chrono::seconds freshness_lifetime(const response_head& response);
// RFC 9111 §4.2.3: request_time/response_time when the cache sent the request and got the response.
std::chrono::seconds current_age(const response_head& response, std::chrono::sys_seconds request_time,
                                 std::chrono::sys_seconds response_time, std::chrono::sys_seconds now);
// A stored response may be served without contacting the origin (§4.2, §5.2.1.4, §5.2.2.4).
bool can_serve_fresh(const request_head& request, const response_head& stored, std::chrono::seconds age);
// Hop-by-hop fields (RFC 9110 §7.6.1): Connection and the fields it names, Keep-Alive,
// Proxy-Connection, TE, Transfer-Encoding, Upgrade, Trailer, Proxy-Authenticate/-Authorization.
void remove_hop_by_hop(fields& f);

}  // namespace netlib::http
