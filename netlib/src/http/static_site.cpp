// Theory of operation: respond() runs these steps in order, each of which may answer:
//   1. method: GET and HEAD only (others are refused earlier by server_session with 405).
//   2. target -> normalized path (target_path): 400 when malformed, 403 when it climbs above root.
//   3. Basic auth for the protected folder (RFC 7617): 401 with WWW-Authenticate. Credentials go
//      to the credentials guard first: a locked address or account gets 429 with Retry-After
//      (RFC 6585 §4); an attempt whose turn is later gets a plan with `wait` (respond_held()
//      checks it then); each check is reported to the guard.
//   4. cookie lab: a session for every request; the visits page answers with the counter. A
//      response that sets the session cookie is marked "Cache-Control: private".
//   5. stat: 404 when absent (or outside the root, which the file_system refuses), and for a
//      file asked for with a trailing slash ("/file.png/"); a file or folder reached through a
//      symbolic link is checked against the auth rule again on the path it really has (step 3
//      saw only the requested one), so a link into the protected folder asks for credentials
//      too; a directory without '/' -> 301 to the slash form; a directory -> its index file
//      (checked the same way).
//   6. file: validators (ETag, Last-Modified); conditional GET (304, RFC 9110 §13.2.2);
//      Range (206 / 416, RFC 9110 §14); else 200. HEAD gets the same head without a body.
#include "netlib/http/static_site.hpp"

#include <fmt/format.h>

#include "netlib/http/byte_range.hpp"
#include "netlib/http/cookie.hpp"
#include "netlib/http/http_date.hpp"
#include "netlib/http/mime_types.hpp"
#include "netlib/http/target_path.hpp"
#include "netlib/http/validators.hpp"

namespace netlib::http {

static_site::static_site(site_options options, file_system& files, session_store* sessions)
    : options_(std::move(options)), files_(files), sessions_(sessions) {}

// Room for every field a response can get here and in finish_response (Date, Server,
// Connection, Set-Cookie), so the list is allocated once.
constexpr std::size_t response_field_room = 10;

response_plan static_site::text_reply(int status, std::string_view message) {
  response_plan p;
  p.head.fields.reserve(response_field_room);
  p.head.status = status;
  p.head.fields.add("Content-Type", "text/plain; charset=utf-8");
  p.head.fields.add("Content-Length", std::to_string(message.size()));
  p.body = std::string(message);
  return p;
}

response_plan static_site::respond(const request_head& r, const clock_reading& now, std::string_view peer) {
  return respond(r, now, peer, false);
}

response_plan static_site::respond_held(const request_head& r, const clock_reading& now, std::string_view peer) {
  return respond(r, now, peer, true);
}

response_plan static_site::respond(const request_head& r, const clock_reading& now, std::string_view peer,
                                   bool turn_reached) {
  response_plan plan;
  respond_into(r, now, peer, turn_reached, plan);
  return plan;
}

void static_site::respond_into(const request_head& r, const clock_reading& now, std::string_view peer,
                               bool turn_reached, response_plan& plan) {
  // Date is set by server_session::finish_response.
  const auto decoded = decode_target(r.target);  // step 2
  if (!decoded.value) {
    plan = decoded.error == target_error::escapes_root ? text_reply(403, "403 Forbidden: the path leaves the root\n")
                                                       : text_reply(400, "400 Bad Request: malformed path\n");
    return;
  }
  const target_path& t = *decoded.value;
  std::optional<std::string> user;  // set once credentials were granted
  if (auto refused = refuse_unauthorized(r, t.path, user, now, peer, turn_reached)) {  // step 3
    plan = std::move(*refused);
    return;
  }
  std::optional<session_visit> visit;
  if (options_.cookies && sessions_) {  // step 4
    const auto cookie = r.fields.combined("Cookie");
    const auto id = cookie ? find_cookie(*cookie, options_.cookie_name) : std::nullopt;
    visit = sessions_->touch(id ? std::optional<std::string_view>(*id) : std::nullopt, now.mono,
                             t.path == options_.visits_path);
  }
  if (visit && t.path == options_.visits_path) {
    plan = visits_page(r, *visit);
  } else {
    std::string path = t.path;
    auto info = files_.stat(path);  // step 5
    std::optional<response_plan> refused;
    if (info && info->resolved) refused = refuse_unauthorized(r, *info->resolved, user, now, peer, turn_reached);
    if (refused) {
      plan = std::move(*refused);
    } else if (info && info->is_directory && !t.trailing_slash && !path.empty()) {
      plan = text_reply(301, "301 Moved Permanently\n");
      plan.head.fields.add("Location", "/" + path + "/");
    } else if (info && !info->is_directory && t.trailing_slash) {
      plan = text_reply(404, "404 Not Found\n");  // a file is no folder (nginx and Apache agree)
    } else {
      if (info && info->is_directory) {
        path = path.empty() ? options_.index : path + "/" + options_.index;
        info = files_.stat(path);
        if (info && info->resolved) refused = refuse_unauthorized(r, *info->resolved, user, now, peer, turn_reached);
      }
      if (refused) plan = std::move(*refused);
      else if (!info || info->is_directory) plan = text_reply(404, "404 Not Found\n");
      else respond_file(r, path, *info, plan);
    }
  }
  if (visit && visit->is_new) {  // RFC 6265 §4.1
    plan.head.fields.add("Set-Cookie", fmt::format("{}={}; Path=/; Max-Age={}; HttpOnly", options_.cookie_name,
                                                   visit->id, std::chrono::duration_cast<std::chrono::seconds>(sessions_->ttl()).count()));
    // A session cookie is one user's: no shared cache may store it for others (RFC 9111 §5.2.2.7).
    if (!plan.head.fields.contains("Cache-Control")) plan.head.fields.add("Cache-Control", "private");
  }
  if (r.method == "HEAD") plan.body = std::monostate{};
  if (user) plan.user = std::move(*user);
}

std::optional<response_plan> static_site::refuse_unauthorized(const request_head& r, std::string_view path,
                                                             std::optional<std::string>& user, const clock_reading& now,
                                                             std::string_view peer, bool turn_reached) {
  if (!options_.auth || !requires_auth(*options_.auth, path)) return std::nullopt;
  if (user) return std::nullopt;  // granted already: one rule, one user table
  const auto unauthorized = [this] {
    response_plan p = text_reply(401, "401 Unauthorized: this folder needs a user name and password\n");
    p.head.fields.add("WWW-Authenticate", fmt::format("Basic realm=\"{}\", charset=\"UTF-8\"", options_.auth->realm));
    return p;
  };
  const auto credentials = parse_basic_credentials(r);
  if (!credentials) return unauthorized();
  if (options_.guard && !turn_reached) {
    const admission a = options_.guard->admit(peer, credentials->user, now.mono);
    if (a.locked) {
      response_plan p = text_reply(429, "429 Too Many Requests: too many failed logins, try again later\n");
      p.head.fields.add("Retry-After", std::to_string(std::chrono::ceil<std::chrono::seconds>(a.retry_after).count()));
      return p;
    }
    if (a.turn > now.mono) {
      response_plan p;
      p.wait = wake_at{a.turn};
      return p;
    }
  }
  const bool right = credentials_match(*options_.auth, *credentials);
  if (options_.guard) options_.guard->report(peer, credentials->user, right, now.mono);
  if (!right) return unauthorized();
  user = credentials->user;
  return std::nullopt;
}

// `p` is a fresh plan.
void static_site::respond_file(const request_head& r, const std::string& path, const file_info& info,
                               response_plan& p) {
  const std::string etag = make_etag(info.size, info.mtime_s);
  auto& f = p.head.fields;
  f.reserve(response_field_room);
  f.add("Last-Modified", format_http_date(info.mtime_s));
  f.add("ETag", etag);
  f.add("Accept-Ranges", "bytes");
  if (not_modified(r, etag, info.mtime_s)) {  // step 6, RFC 9110 §15.4.5: no content
    p.head.status = 304;
    return;
  }
  f.add("Content-Type", mime_type_for(path));
  std::uint64_t first = 0;
  std::uint64_t length = info.size;
  if (const auto range = r.fields.get("Range"); range && r.method == "GET" && if_range_allows(r, etag, info.mtime_s)) {
    const range_decision d = evaluate_range(*range, info.size);
    if (d.result == range_decision::kind::unsatisfiable) {
      p = text_reply(416, "416 Range Not Satisfiable\n");
      p.head.fields.add("Content-Range", fmt::format("bytes */{}", info.size));
      return;
    }
    if (d.result == range_decision::kind::satisfiable) {
      p.head.status = 206;
      first = d.first;
      length = d.last - d.first + 1;
      f.add("Content-Range", fmt::format("bytes {}-{}/{}", d.first, d.last, info.size));
    }
  }
  f.add("Content-Length", std::to_string(length));
  if (length > 0) p.body = file_part{path, first, length};
}

response_plan static_site::visits_page(const request_head& r, const session_visit& v) {
  (void)r;
  const std::string html = fmt::format(
      "<!doctype html>\n<html><head><title>Visits</title></head><body>\n"
      "<h1>Cookie lab</h1>\n<p>{}</p>\n<p>Visits with this session: <b id=\"visits\">{}</b></p>\n"
      "<p>Session id: <code>{}</code></p>\n</body></html>\n",
      v.is_new ? "Welcome, new visitor: your browser has just been given a session cookie."
               : "Welcome back: your browser sent its session cookie.",
      v.visits, v.id);
  response_plan p;
  p.head.fields.add("Content-Type", "text/html; charset=utf-8");
  p.head.fields.add("Content-Length", std::to_string(html.size()));
  p.head.fields.add("Cache-Control", "no-store");
  p.body = html;
  return p;
}

}  // namespace netlib::http
