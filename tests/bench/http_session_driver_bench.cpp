// bench_http_session_driver: the static web server's core (http::site_session, the same core
// `lab-http serve` runs) on the line protocols' one live driver, io::run_session, instead of
// HTTP's own loop (io::http_handle_connection). tests/bench/run counts its user-space
// instructions and heap allocations per 1 KiB keep-alive request beside lab-http's: the
// measurement behind docs/architecture.md's "The session contract" (why HTTP keeps its own loop).
//
//   bench_http_session_driver ROOT    listening on 127.0.0.1:PORT (until SIGTERM)
//
// A measuring prototype, not a server to use: the hook writes what the core planned the way
// run_session writes (one send_bytes of the head and a body in memory; a file part by a task after
// it), and has none of lab-http's head deadlines, pacing or access log.
#include <unistd.h>
#include <cstdio>
#include <string>

#include "netlib/http/serializer.hpp"
#include "netlib/http/site_session.hpp"
#include "netlib/io/http_disk_files.hpp"
#include "netlib/io/session_driver.hpp"
#include "netlib/io/tcp_server.hpp"

namespace {

using namespace netlib;

struct site_hooks {
  io::http_disk_files& files;

  template <class Runner>
  void handle(Runner& r, http::send_response& s) {
    std::string bytes;
    http::serialize_into(s.plan->head, bytes);
    if (const auto* text = std::get_if<std::string>(&s.plan->body)) bytes += *text;
    if (const auto* part = std::get_if<http::file_part>(&s.plan->body)) {
      auto body = files.open_body(s.plan->path);
      if (body.cached && body.cached->descriptor < 0) {
        bytes.append(body.cached->content, part->offset, part->length);
      } else if (body.descriptor() >= 0) {  // after the head, by a task (run_session writes first)
        r.run_task([&r, body = std::make_shared<io::http_disk_files::body>(std::move(body)),
                    part = *part]() -> io::awaitable<void> {
          co_await r.conn().send_file(body->descriptor(), part.offset, part.length);
        });
      }
    }
    io::http_disk_files::release_pending();
    r.execute({send_bytes{std::move(bytes)}});
  }
  template <class Runner>
  void handle(Runner&, http::response_sent&) {}
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: bench_http_session_driver ROOT\n");
    return 2;
  }
  io::http_disk_files files(argv[1]);
  http::static_site site({}, files);
  io::server_options o;
  o.idle_timeout = std::chrono::seconds(15);
  o.defer_accept = true;
  io::tcp_server server(
      o, [&](io::connection& c) { return io::run_session(c, http::site_session({}, site), site_hooks{files}); });
  server.run();
  return 0;
}
