// Theory of operation: read -> feed -> execute, the thin driver of docs/architecture.md ("Live runners").
//   1. Feed the buffered bytes to the server_session; drop what it consumed.
//   2. need_more: arm the request-head deadline while a head is awaited: from the connection's
//      start for the first request (a client that never sends a byte is closed by it), and for
//      the next ones as soon as part of a head is buffered (slowloris: the whole head must arrive
//      within head_timeout, however slowly it trickles); disarm it between requests and while a
//      body is read (the idle timeout still applies); then read.
//   3. the session's own answer (errors, 405, 501): write it, log it, close when it says so.
//   4. serve_request: the static site plans the response (a plan that must wait for the
//      credentials guard's turn is held on a timer, then asked again); finish_response adds Date, Server and
//      Connection; the head is written, then the body: a string or a small file (up to 32 KiB,
//      usually straight from http_disk_files' cache) gathered with the head into one write, or a
//      larger file part sent with connection::send_file (sendfile(2), no copy through user
//      space; under TLS read and written in 64 KiB pieces). A file that stat() opened and the
//      response did not need is closed after it (release_pending).
//   5. Closing after a reply: shut down our side and drain what the client still sends for a
//      moment, so the kernel does not reset the connection before the client read the reply;
//      after a response to a request that asked to be the last, with no unread input, at once.
#include "netlib/io/http_serve_driver.hpp"

#include <unistd.h>

#include <array>
#include <ctime>

#include "netlib/http/access_log.hpp"
#include "netlib/http/serializer.hpp"
#include "netlib/io/live_clock.hpp"

namespace netlib::io {

http_access_log::http_access_log(const std::string& path) {
  if (path.empty()) return;
  file_ = std::fopen(path.c_str(), "a");
  if (!file_) throw io_error("cannot open access log " + path + " for appending");
}
http_access_log::~http_access_log() {
  if (file_) std::fclose(file_);
}
void http_access_log::write(const std::string& line) {
  if (!file_) return;
  std::lock_guard lock(mutex_);
  std::fprintf(file_, "%s\n", line.c_str());
  std::fflush(file_);
}

namespace {

std::int64_t wall_now() { return static_cast<std::int64_t>(std::time(nullptr)); }

// Appends exactly `length` bytes of the file at `offset` to `out`; false if the file is shorter.
bool append_file(std::string& out, int fd, std::uint64_t offset, std::size_t length) {
  std::size_t have = out.size();
  out.resize(have + length);
  while (length > 0) {
    const ssize_t n = ::pread(fd, out.data() + have, length, static_cast<off_t>(offset));
    if (n <= 0) return false;
    have += static_cast<std::size_t>(n);
    offset += static_cast<std::uint64_t>(n);
    length -= static_cast<std::size_t>(n);
  }
  return true;
}

// Files up to this size go out with their head in one write (one system call, one segment).
constexpr std::uint64_t small_file = 32 * 1024;

// The unsent bytes a connection's last response may keep queued in the kernel (see write_plan).
constexpr std::size_t last_response_unsent = 128 * 1024;

// Writes the planned response; returns false when the connection broke. `last`: the connection
// closes after it.
awaitable<bool> write_plan(connection& c, http_serve_context& ctx, const http::response_plan& plan,
                           bool last, std::uint64_t& body_bytes) {
  std::string head = http::serialize(plan.head);
  if (const auto* text = std::get_if<std::string>(&plan.body)) {
    body_bytes = text->size();
    co_return co_await c.write(as_bytes(head), as_bytes(*text));
  }
  const auto* part = std::get_if<http::file_part>(&plan.body);
  if (!part) co_return co_await c.write(head);
  auto body = ctx.files->open_body(part->path);
  if (body.cached) {  // the whole small file is in memory: head and part in one gathered write
    const std::string_view content = body.cached->content;
    if (part->offset > content.size() || part->length > content.size() - part->offset) co_return false;
    body_bytes = part->length;
    co_return co_await c.write(as_bytes(head), as_bytes(content.substr(part->offset, part->length)));
  }
  if (!body.fd) co_return false;  // vanished since stat: nothing sent, close
  if (part->length <= small_file) {
    if (!append_file(head, body.fd.get(), part->offset, static_cast<std::size_t>(part->length))) co_return false;
    body_bytes = part->length;
    co_return co_await c.write(head);
  }
  if (!co_await c.write(head)) co_return false;
  // A large body on a connection about to close: handed to the kernel whole, most of it would
  // wait for the new connection's window to open and, the socket closed, be sent from the
  // client's acknowledgements on the client's CPU (wrk's CPU per 1 MiB request 0.74 ms against
  // 0.58 paced, docs/performance.md). Kept to about 128 KiB unsent, the rest goes out in this server's
  // turns.
  // Keep-alive responses are not paced: there the window is open and pacing halved the rate;
  // nor are bodies under twice the limit (200 KiB: no gain, one more wake-up each).
  if (last && !c.tls_active() && part->length > 2 * last_response_unsent) c.limit_unsent(last_response_unsent);
  const bool ok = co_await c.send_file(body.fd.get(), part->offset, part->length);
  if (ok) body_bytes = part->length;
  co_return ok;
}

awaitable<void> linger_close(connection& c) {
  c.shutdown_send();
  c.set_deadline(connection::steady::now() + std::chrono::seconds(2));
  std::array<std::byte, 4096> sink;
  for (int i = 0; i < 64 && co_await c.read_some(sink) > 0; ++i) {
  }
  c.close();
}

// After a response the client asked to be the last (Connection: close, HTTP/1.0): it sends nothing
// more (RFC 9112 §9.6), so with no unread input the connection is closed at once. Unread input
// would make the kernel reset the connection, which can destroy the response before the client
// reads it: then, and under TLS, linger.
awaitable<void> close_after_last(connection& c, bool input_buffered) {
  if (!input_buffered && !c.tls_active() && c.available() == 0) {
    c.close();
    co_return;
  }
  co_await linger_close(c);
}

// The client's address for the access log, asked of the kernel once per connection and only when
// a log is written.
class remote_host {
 public:
  explicit remote_host(connection& c) : c_(c) {}
  const std::string& operator()() {
    if (text_.empty()) text_ = c_.remote_endpoint().address().to_string();
    return text_;
  }

 private:
  connection& c_;
  std::string text_;
};

// Serves one request; returns whether the connection stays open.
awaitable<bool> serve_one(connection& c, http_serve_context& ctx, http::server_session& session,
                          const http::serve_request& req, std::int64_t started, remote_host& peer, clock_reading now) {
  http::response_plan plan = [&] {  // built in place, not moved into the frame
    std::unique_lock lock(ctx.site_mutex, std::defer_lock);
    if (ctx.sessions) lock.lock();
    return ctx.site->respond(req.head, now, ctx.guard ? std::string_view(peer()) : std::string_view{});
  }();
  if (plan.wait) {  // Basic auth credentials wait for their turn (the credentials guard)
    asio::steady_timer turn(c.executor(), to_steady(plan.wait->when));
    boost::system::error_code ec;
    co_await turn.async_wait(asio::redirect_error(use_awaitable, ec));
    std::unique_lock lock(ctx.site_mutex, std::defer_lock);
    if (ctx.sessions) lock.lock();
    now = read_clock();
    plan = ctx.site->respond_held(req.head, now, peer());
  }
  const bool keep = session.finish_response(req.head, plan.head, now);
  std::uint64_t body_bytes = 0;
  const bool ok = co_await write_plan(c, ctx, plan, !keep, body_bytes);
  http_disk_files::release_pending();
  if (!ctx.log->enabled()) co_return ok && keep;
  const auto& h = req.head;
  ctx.log->write(http::format_clf({peer(), plan.user, started,
                                   h.method + " " + h.target + " HTTP/" + std::to_string(h.version.major) + "." +
                                       std::to_string(h.version.minor),
                                   plan.head.status, body_bytes}));
  co_return ok && keep;
}

}  // namespace

awaitable<void> http_handle_connection(connection& c, http_serve_context& ctx) {
  http::server_session session(ctx.session);
  http::server_step step;
  input_buffer buf;
  std::array<std::byte, 16384> chunk;
  bool head_deadline = false;
  bool first_request = true;  // its head deadline runs from the connection's start (with
                              // server_options::initial_deadline the server armed it already: the
                              // set_deadline below is then later and costs nothing)
  std::int64_t started = wall_now();
  remote_host peer(c);
  for (int rounds = 0; rounds < 10'000'000; ++rounds) {  // bounded: each round reads or answers
    const clock_reading now = read_clock();
    session.receive(buf.data(), now, step);  // one step's memory for the whole connection
    buf.consume(step.consumed);
    if (step.actions.empty()) {
      const bool in_head = (first_request || !buf.empty()) && session.between_requests();
      if (in_head && !head_deadline && !first_request) started = wall_now();
      if (in_head != head_deadline) c.set_deadline(in_head ? std::optional(connection::steady::now() + ctx.head_timeout) : std::nullopt);
      head_deadline = in_head;
      const std::size_t n = co_await c.read_some(chunk);
      if (n == 0) break;  // end of stream, or a deadline closed the connection
      buf.append(byte_view(chunk.data(), n));
      continue;
    }
    if (head_deadline) c.set_deadline(std::nullopt);
    head_deadline = false;
    first_request = false;
    bool open = true;  // the session's own answer: send_bytes, response_sent[, close_connection]
    std::uint64_t answer_body = 0;
    for (auto& action : step.actions) {
      if (auto* bytes = std::get_if<send_bytes>(&action)) {
        answer_body = http::body_size_of(bytes->bytes);
        open = co_await c.write(bytes->bytes);
      } else if (auto* sent = std::get_if<http::response_sent>(&action)) {
        if (ctx.log->enabled())
          ctx.log->write(http::format_clf({peer(), {}, started, sent->request_line, sent->status, answer_body}));
      } else if (std::holds_alternative<close_connection>(action)) {
        if (open) co_await linger_close(c);
        open = false;
      } else if (auto* req = std::get_if<http::serve_request>(&action);
                 req && !co_await serve_one(c, ctx, session, *req, started, peer, now)) {
        if (c.is_open()) co_await close_after_last(c, !buf.empty());
        open = false;
      }
    }
    if (!open) break;
    started = wall_now();
  }
  c.close();
}

}  // namespace netlib::io
