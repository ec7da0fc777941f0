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

#include <charconv>

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

void response_plan::reset() {
  head.version = {};
  head.status = 200;
  head.reason.clear();
  head.fields.clear();
  head.trailers.clear();
  body = std::monostate{};
  path.clear();
  user.clear();
  wait.reset();
}

void static_site::text_reply(int status, std::string_view message, response_plan& p) {
  p.head.fields.clear();
  p.head.fields.reserve(response_field_room);
  p.head.status = status;
  p.head.fields.add("Content-Type", "text/plain; charset=utf-8");
  char digits[24];
  p.head.fields.add(
      "Content-Length",
      std::string_view(digits, std::to_chars(digits, digits + sizeof digits, message.size()).ptr - digits));
  p.body = std::string(message);
}

response_plan static_site::respond(const request_view& r, const clock_reading& now, std::string_view peer) {
  response_plan plan;
  respond_into(r, now, peer, false, plan);
  return plan;
}

response_plan static_site::respond_held(const request_view& r, const clock_reading& now, std::string_view peer) {
  response_plan plan;
  respond_into(r, now, peer, true, plan);
  return plan;
}

void static_site::respond(const request_view& r, const clock_reading& now, std::string_view peer, response_plan& plan) {
  plan.reset();
  respond_into(r, now, peer, false, plan);
}

void static_site::respond_held(const request_view& r, const clock_reading& now, std::string_view peer,
                               response_plan& plan) {
  plan.reset();
  respond_into(r, now, peer, true, plan);
}

void static_site::respond_into(const request_view& r, const clock_reading& now, std::string_view peer,
                               bool turn_reached, response_plan& plan) {
  // Date is set by server_session::finish_response.
  target_path& t = plan.target;
  if (const auto error = decode_target(r.target, t)) {  // step 2
    if (*error == target_error::escapes_root)
      text_reply(403, "403 Forbidden: the path leaves the root\n", plan);
    else
      text_reply(400, "400 Bad Request: malformed path\n", plan);
    return;
  }
  std::optional<std::string> user;                                                  // set once credentials were granted
  if (refuse_unauthorized(r, t.path, user, now, peer, turn_reached, plan)) return;  // step 3
  std::optional<session_visit> visit;
  if (options_.cookies && sessions_) {  // step 4
    const auto cookie = r.fields.combined("Cookie");
    const auto id = cookie ? find_cookie(*cookie, options_.cookie_name) : std::nullopt;
    visit = sessions_->touch(id ? std::optional<std::string_view>(*id) : std::nullopt, now.mono,
                             t.path == options_.visits_path);
  }
  if (visit && t.path == options_.visits_path) {
    visits_page(*visit, plan);
  } else {
    plan_file(r, t, user, now, peer, turn_reached, plan);
  }
  if (visit && visit->is_new) {  // RFC 6265 §4.1
    plan.head.fields.add("Set-Cookie",
                         fmt::format("{}={}; Path=/; Max-Age={}; HttpOnly", options_.cookie_name, visit->id,
                                     std::chrono::duration_cast<std::chrono::seconds>(sessions_->ttl()).count()));
    // A session cookie is one user's: no shared cache may store it for others (RFC 9111 §5.2.2.7).
    if (!plan.head.fields.contains("Cache-Control")) plan.head.fields.add("Cache-Control", "private");
  }
  if (r.method == "HEAD") plan.body = std::monostate{};
  if (user) plan.user = std::move(*user);
}

// Steps 5 and 6 for the decoded target `t`.
void static_site::plan_file(const request_view& r, const target_path& t, std::optional<std::string>& user,
                            const clock_reading& now, std::string_view peer, bool turn_reached, response_plan& plan) {
  // A file or folder reached through a link is checked again on the path it really has.
  const auto refused = [&](const std::optional<file_info>& info) {
    return info && info->resolved && refuse_unauthorized(r, *info->resolved, user, now, peer, turn_reached, plan);
  };
  std::string& path = plan.path;
  path.assign(t.path);
  auto info = files_.stat(path, now);  // step 5
  if (refused(info)) return;
  if (info && info->is_directory && !t.trailing_slash && !path.empty()) {
    text_reply(301, "301 Moved Permanently\n", plan);
    plan.head.fields.add("Location", percent_encode_path("/" + path + "/"));  // never a raw name
    return;
  }
  if (info && !info->is_directory && t.trailing_slash) {
    text_reply(404, "404 Not Found\n", plan);  // a file is no folder (nginx and Apache agree)
    return;
  }
  if (info && info->is_directory) {
    if (path.empty())
      path = options_.index;
    else
      path.append("/").append(options_.index);
    info = files_.stat(path, now);
    if (refused(info)) return;
  }
  if (!info || info->is_directory)
    text_reply(404, "404 Not Found\n", plan);
  else
    respond_file(r, *info, plan);  // step 6
}

bool static_site::refuse_unauthorized(const request_view& r, std::string_view path, std::optional<std::string>& user,
                                      const clock_reading& now, std::string_view peer, bool turn_reached,
                                      response_plan& plan) {
  if (!options_.auth || !requires_auth(*options_.auth, path)) return false;
  if (user) return false;  // granted already: one rule, one user table
  const auto unauthorized = [this, &plan] {
    text_reply(401, "401 Unauthorized: this folder needs a user name and password\n", plan);
    plan.head.fields.add("WWW-Authenticate",
                         fmt::format("Basic realm=\"{}\", charset=\"UTF-8\"", options_.auth->realm));
    return true;
  };
  const auto credentials = parse_basic_credentials(r);
  if (!credentials) return unauthorized();
  if (options_.guard && !turn_reached) {
    const admission a = options_.guard->admit(peer, credentials->user, now.mono);
    if (a.locked) {
      text_reply(429, "429 Too Many Requests: too many failed logins, try again later\n", plan);
      plan.head.fields.add("Retry-After",
                           std::to_string(std::chrono::ceil<std::chrono::seconds>(a.retry_after).count()));
      return true;
    }
    if (a.turn > now.mono) {
      plan.head.fields.clear();
      plan.body = std::monostate{};
      plan.wait = wake_at{a.turn};
      return true;
    }
  }
  const bool right = credentials_match(*options_.auth, *credentials);
  if (options_.guard) options_.guard->report(peer, credentials->user, right, now.mono);
  if (!right) return unauthorized();
  user = credentials->user;
  return false;
}

// `p` is a reset plan; p.path names the file.
void static_site::respond_file(const request_view& r, const file_info& info, response_plan& p) {
  etag_buffer etag_text;
  const std::string_view etag = make_etag(info.size, info.mtime, etag_text);
  http_date_buffer date;
  auto& f = p.head.fields;
  f.reserve(response_field_room);
  f.add("Last-Modified", format_http_date(info.mtime, date));
  f.add("ETag", etag);
  f.add("Accept-Ranges", "bytes");
  if (not_modified(r, etag, info.mtime)) {  // step 6, RFC 9110 §15.4.5: no content
    p.head.status = 304;
    return;
  }
  f.add("Content-Type", mime_type_for(p.path));
  std::uint64_t first = 0;
  std::uint64_t length = info.size;
  if (const auto range = r.fields.get("Range"); range && r.method == "GET" && if_range_allows(r, etag, info.mtime)) {
    const range_decision d = evaluate_range(*range, info.size);
    if (d.result == range_decision::kind::unsatisfiable) {
      text_reply(416, "416 Range Not Satisfiable\n", p);
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
  char digits[24];
  f.add("Content-Length", std::string_view(digits, std::to_chars(digits, digits + sizeof digits, length).ptr - digits));
  if (length > 0) p.body = file_part{first, length};
}

void static_site::visits_page(const session_visit& v, response_plan& p) {
  const std::string html = fmt::format(
      "<!doctype html>\n<html><head><title>Visits</title></head><body>\n"
      "<h1>Cookie lab</h1>\n<p>{}</p>\n<p>Visits with this session: <b id=\"visits\">{}</b></p>\n"
      "<p>Session id: <code>{}</code></p>\n</body></html>\n",
      v.is_new ? "Welcome, new visitor: your browser has just been given a session cookie."
               : "Welcome back: your browser sent its session cookie.",
      v.visits, v.id);
  p.head.fields.add("Content-Type", "text/html; charset=utf-8");
  p.head.fields.add("Content-Length", std::to_string(html.size()));
  p.head.fields.add("Cache-Control", "no-store");
  p.body = html;
}

}  // namespace netlib::http
