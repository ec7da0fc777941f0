#pragma once
// The static web server's decisions (no I/O): map a request to a file under the root through an
// injected file_system, and plan the response: status, header fields and where the body comes
// from (RFC 9110 GET/HEAD semantics, conditional requests §13, ranges §14, Basic auth RFC 7617
// behind the credentials guard, the cookie lab's visit page). The driver executes the plan: it
// writes the head and streams the file part (sendfile where it can); a plan that says `wait`
// holds the request until then and asks again with respond_held().
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "netlib/core/clock.hpp"
#include "netlib/core/credentials_guard.hpp"
#include "netlib/core/session.hpp"
#include "netlib/http/basic_auth.hpp"
#include "netlib/http/message.hpp"
#include "netlib/http/session_store.hpp"
#include "netlib/http/target_path.hpp"

namespace netlib::http {

struct file_info {
  bool is_directory = false;
  std::uint64_t size = 0;
  std::chrono::sys_seconds mtime{};
  // Set when the path reached the file through a symbolic link: the path the file really has
  // under the root. Access rules are decided on it as well as on the requested path.
  std::optional<std::string> resolved;
};

// What the core needs from a file system. Paths are relative to the root, '/'-separated and
// normalized (target_path); implementations must refuse anything that resolves outside the root
// (symbolic links included) by answering nullopt, and report where a link led (resolved). `now`
// is the request's time: a file system that caches what it found may answer from memory for a
// while (io::http_disk_files: up to its validity) and says how long.
class file_system {
 public:
  virtual ~file_system() = default;
  virtual std::optional<file_info> stat(std::string_view path, const clock_reading& now) = 0;
};

// The body is part of the file the plan names (response_plan::path).
struct file_part {
  std::uint64_t offset = 0;
  std::uint64_t length = 0;
};

// A planned response. A driver keeps one per connection and has the site plan every response
// into it (static_site::respond with a plan): its fields and strings keep their memory from one
// response to the next, so a file response allocates nothing once the plan is warm.
struct response_plan {
  response_head head;
  std::variant<std::monostate, std::string, file_part> body;  // none for HEAD, 304, ...
  // The requested path under the root, decoded and normalized (for a folder, its index file):
  // the file a file_part body comes from, as given to file_system::stat.
  std::string path;
  std::string user;  // authenticated user, for the access log
  // Set when the credentials must wait for the credentials guard's turn: no response yet; call
  // respond_held() with the same request at this time.
  std::optional<wake_at> wait;
  // Scratch memory of the site's steps (the decoded target), kept with the plan.
  target_path target;
  // Empties the plan, keeping its memory.
  void reset();
};

struct site_options {
  std::string server_name = "netlab-http";
  std::string index = "index.html";
  std::optional<basic_auth_rule> auth;
  bool cookies = false;
  std::string visits_path = "visits";  // the cookie lab's counter page (under the root URL)
  std::string cookie_name = "sid";
  credentials_gate* guard = nullptr;  // Basic auth throttling (429 with Retry-After), or none
};

class static_site {
 public:
  static_site(site_options options, file_system& files, session_store* sessions = nullptr);
  // `now.mono` for session expiry and the guard; `peer` is the client's address (for the guard).
  response_plan respond(const request_view& r, const clock_reading& now, std::string_view peer = {});
  // The same request again once its `wait` has come: the credentials are checked now.
  response_plan respond_held(const request_view& r, const clock_reading& now, std::string_view peer = {});
  // Both into `plan` (reset first), reusing its memory.
  void respond(const request_view& r, const clock_reading& now, std::string_view peer, response_plan& plan);
  void respond_held(const request_view& r, const clock_reading& now, std::string_view peer, response_plan& plan);

 private:
  // The steps of respond(), building into one plan.
  void respond_into(const request_view& r, const clock_reading& now, std::string_view peer, bool turn_reached,
                    response_plan& plan);
  void plan_file(const request_view& r, const target_path& t, std::optional<std::string>& user,
                 const clock_reading& now, std::string_view peer, bool turn_reached, response_plan& plan);
  void respond_file(const request_view& r, const file_info& info, response_plan& p);
  void visits_page(const session_visit& v, response_plan& p);
  static void text_reply(int status, std::string_view message, response_plan& p);
  // When the auth rule covers `path` and the request's credentials were not granted, plans the
  // answer (401, the guard's 429, or a wait for the guard's turn) and returns true; otherwise
  // false, with the authenticated user (if any) in `user`.
  bool refuse_unauthorized(const request_view& r, std::string_view path, std::optional<std::string>& user,
                           const clock_reading& now, std::string_view peer, bool turn_reached, response_plan& plan);

  site_options options_;
  file_system& files_;
  session_store* sessions_;
};

}  // namespace netlib::http
