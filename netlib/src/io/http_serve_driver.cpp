// Theory of operation: read -> feed -> execute, the thin driver of docs/architecture.md ("Live runners").
// The core is http::site_session (server_session + static_site, a session_core): one request at
// a time, with the contract's actions (send_bytes, close_connection, wake_at) and its own
// (send_response, response_sent).
//   1. Feed the buffered bytes to the core; it answers at most one request per call.
//   2. No action: drop what it consumed; arm the request-head deadline while a head is awaited:
//      from the connection's start for the first request (a client that never sends a byte is
//      closed by it), and for the next ones as soon as part of a head is buffered (slowloris: the
//      whole head must arrive within head_timeout, however slowly it trickles); disarm it between
//      requests and while a body is read (the idle timeout still applies); then read.
//   3. Actions, in order: send_bytes (the core's own answers: errors, 405, 501) is written;
//      response_sent and send_response are logged; send_response writes the planned head (into
//      one buffer kept for the connection), then the body: a string, a small file (up to 32 KiB,
//      usually from http_disk_files' cache) gathered with the head into one write, or a larger
//      file part sent with connection::send_file (sendfile(2) from the cache's open descriptor,
//      no copy through user space, head and body corked into full segments; under TLS read and
//      written in 64 KiB pieces); wake_at
//      (credentials held for the credentials guard's turn) waits on a timer (the connection's
//      idle deadline deferred past it: the client waits for an answer), then the core's tick()
//      answers; close_connection closes (step 5). Then the consumed bytes are dropped:
//      the request the actions point into (views of the buffer) was read from them.
//   4. A file that stat() opened and the response did not need is closed after it
//      (release_pending).
//   5. Closing after a reply: shut down our side and drain what the client still sends for a
//      moment, so the kernel does not reset the connection before the client read the reply;
//      after a response to a request that asked to be the last, with no unread input, at once.
#include "netlib/io/http_serve_driver.hpp"

#include <unistd.h>

#include <array>

#include <fmt/format.h>

#include "netlib/http/access_log.hpp"
#include "netlib/http/forwarded.hpp"
#include "netlib/http/serializer.hpp"
#include "netlib/http/site_session.hpp"
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

// A response on its way out: the head and a body in memory (a string, or a small file's cached
// content) are written by one gathered sendmsg(2); a file body (part) after the head.
struct outgoing {
  byte_view head, body;
  std::shared_ptr<const http::cached_file> keep;  // what `body` (or the descriptor) belongs to
  unique_fd fd;                                   // a file body not in the cache
  int descriptor = -1;                            // the file to send `part` from
  http::file_part part;
  bool file = false;
};

// Prepares the planned response in `out` and writes what it can now, without waiting (no
// coroutine): true when all of it went out (or the connection broke: `ok` says which), false when
// the rest must be written the waiting way (send_rest). `head`: the connection's head buffer.
bool write_plan_now(connection& c, http_serve_context& ctx, const http::response_plan& plan, std::string& head,
                    outgoing& out, bool& ok, std::uint64_t& body_bytes) {
  head.clear();
  http::serialize_into(plan.head, head);
  out.head = as_bytes(head);
  out.body = {};
  out.file = false;
  if (const auto* text = std::get_if<std::string>(&plan.body)) {
    out.body = as_bytes(*text);
    body_bytes = text->size();
  } else if (const auto* part = std::get_if<http::file_part>(&plan.body)) {
    auto body = ctx.files->open_body(plan.path);
    if (body.cached && body.cached->descriptor < 0) {  // a small file in memory: head and part in one gathered write
      const std::string_view content = body.cached->content;
      if (part->offset > content.size() || part->length > content.size() - part->offset) return !(ok = false);
      out.body = as_bytes(content.substr(part->offset, part->length));
      out.keep = std::move(body.cached);
      body_bytes = part->length;
    } else {
      out.descriptor = body.descriptor();
      if (out.descriptor < 0) return !(ok = false);  // vanished since stat: nothing sent, close
      out.keep = std::move(body.cached);
      out.fd = std::move(body.fd);
      out.part = *part;
      if (part->length <= small_file) {  // read into the head's buffer: one write
        const bool read = append_file(head, out.descriptor, part->offset, static_cast<std::size_t>(part->length));
        if (!read) return !(ok = false);
        out.head = as_bytes(head);
        body_bytes = part->length;
      } else {
        out.file = true;
      }
    }
  }
  // A head before a sendfile(2) body goes out corked, uncorked after the body (send_rest): sent
  // alone, it is a segment of its own that wakes the client for 235 bytes (docs/performance.md).
  if (out.file) c.cork(true);
  ok = c.write_now(out.head, out.body);
  if (!ok) return true;
  return out.head.empty() && out.body.empty() && !out.file;
}

// The rest of a response write_plan_now began: what the kernel did not take, then a file part.
awaitable<bool> send_rest(connection& c, outgoing& out, bool last, std::uint64_t& body_bytes) {
  if ((!out.head.empty() || !out.body.empty()) && !co_await c.write(out.head, out.body)) co_return false;
  if (!out.file) co_return true;
  // A large body on a connection about to close: handed to the kernel whole, most of it would
  // wait for the new connection's window to open and, the socket closed, be sent from the
  // client's acknowledgements on the client's CPU (wrk's CPU per 1 MiB request 0.74 ms against
  // 0.58 paced, docs/performance.md). Kept to about 128 KiB unsent, the rest goes out in this server's
  // turns.
  // Keep-alive responses are not paced: there the window is open and pacing halved the rate;
  // nor are bodies under twice the limit (200 KiB: no gain, one more wake-up each).
  if (last && !c.tls_active() && out.part.length > 2 * last_response_unsent) c.limit_unsent(last_response_unsent);
  const bool ok = co_await c.send_file(out.descriptor, out.part.offset, out.part.length);
  c.cork(false);  // sends the last, part-filled segment now
  if (ok) body_bytes = out.part.length;
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

// One connection: the core, its input, and the memory kept from request to request.
class http_connection {
 public:
  http_connection(connection& c, http_serve_context& ctx)
      : c_(c),
        ctx_(ctx),
        peer_(c),
        core_(ctx.session, *ctx.site, ctx.guard ? peer_() : std::string(),
              ctx.guard ? ctx.trusted_proxies : std::vector<std::string>()) {}
  awaitable<void> run();

 private:
  // Runs the core's actions in order (and, after a wake_at, those of its tick); false when the
  // connection is done.
  awaitable<bool> execute(std::vector<http::site_action>& actions);
  // The core's calls go under the site's lock when the cookie sessions' store is shared.
  template <class F>
  decltype(auto) locked(F&& f) {
    std::unique_lock lock(ctx_.site_mutex, std::defer_lock);
    if (ctx_.sessions) lock.lock();
    return f();
  }
  // After a response: lets go of its file (a cache entry, a descriptor, what stat() opened).
  void responded() {
    out_.keep.reset();
    out_.fd.reset();
    http_disk_files::release_pending();
  }
  void log(std::string_view user, std::string request_line, int status, std::uint64_t body_bytes) {
    ctx_.log->write(
        http::format_clf({peer_(), std::string(user), started_, std::move(request_line), status, body_bytes}));
  }

  connection& c_;
  http_serve_context& ctx_;
  remote_host peer_;
  http::site_session core_;
  http::site_step step_;  // one step's memory for the whole connection
  input_buffer buf_;
  std::string head_;  // the response head, serialized
  outgoing out_;
  std::chrono::sys_seconds started_ = read_clock().wall_seconds();
  std::size_t unread_ = 0;  // input after what the core consumed
  std::uint64_t answer_body_ = 0;
  bool graceful_ = false;  // the last response answered a request that asked to be the last
};

awaitable<bool> http_connection::execute(std::vector<http::site_action>& first) {
  bool open = true;
  std::vector<http::site_action> later;  // a tick's actions (credentials held for their turn)
  std::vector<http::site_action>* actions = &first;
  for (std::size_t i = 0; open && i < actions->size(); ++i) {
    auto& action = (*actions)[i];
    if (auto* r = std::get_if<http::send_response>(&action)) {
      std::uint64_t body_bytes = 0;
      if (!write_plan_now(c_, ctx_, *r->plan, head_, out_, open, body_bytes))
        open = co_await send_rest(c_, out_, r->last, body_bytes);
      responded();
      graceful_ = r->last;
      if (ctx_.log->enabled()) {
        const auto& h = *r->request;
        log(r->plan->user, fmt::format("{} {} HTTP/{}.{}", h.method, h.target, h.version.major, h.version.minor),
            r->plan->head.status, body_bytes);
      }
    } else if (auto* bytes = std::get_if<send_bytes>(&action)) {
      answer_body_ = http::body_size_of(bytes->bytes);
      open = co_await c_.write(bytes->bytes);
    } else if (auto* sent = std::get_if<http::response_sent>(&action)) {
      if (ctx_.log->enabled()) log({}, sent->request_line, sent->status, answer_body_);
    } else if (auto* wake = std::get_if<wake_at>(&action)) {  // credentials wait for their turn
      c_.defer_idle_until(to_steady(wake->when));             // the client waits for this answer: not idle
      asio::steady_timer turn(c_.executor(), to_steady(wake->when));
      boost::system::error_code ec;
      co_await turn.async_wait(asio::redirect_error(use_awaitable, ec));
      later = locked([&] { return core_.tick(read_clock()); });
      actions = &later;  // the core took nothing after its wake_at: what follows is the tick's
      i = static_cast<std::size_t>(-1);
    } else if (std::holds_alternative<close_connection>(action)) {
      if (c_.is_open()) {
        if (graceful_)
          co_await close_after_last(c_, unread_ > 0);
        else
          co_await linger_close(c_);
      }
      open = false;
    }  // start_tls: not an HTTP action (HTTPS is TLS from the first byte)
  }
  co_return open;
}

awaitable<void> http_connection::run() {
  std::array<std::byte, 16384> chunk;
  bool head_deadline = false;
  bool first_request = true;  // its head deadline runs from the connection's start (with
                              // server_options::initial_deadline the server armed it already: the
                              // set_deadline below is then later and costs nothing)
  for (int rounds = 0; rounds < 10'000'000; ++rounds) {  // bounded: each round reads or answers
    const clock_reading now = read_clock();
    locked([&] { core_.receive(buf_.data(), now, step_); });
    if (step_.actions.empty()) {
      buf_.consume(step_.consumed);
      const bool in_head = (first_request || !buf_.empty()) && core_.between_requests();
      if (in_head && !head_deadline && !first_request && ctx_.log->enabled()) started_ = read_clock().wall_seconds();
      if (in_head != head_deadline)
        c_.set_deadline(in_head ? std::optional(connection::steady::now() + ctx_.head_timeout) : std::nullopt);
      head_deadline = in_head;
      const std::size_t n = co_await c_.read_some(chunk);
      if (n == 0) break;  // end of stream, or a deadline closed the connection
      buf_.append(byte_view(chunk.data(), n));
      continue;
    }
    if (head_deadline) c_.set_deadline(std::nullopt);
    head_deadline = false;
    first_request = false;
    unread_ = buf_.size() - step_.consumed;
    bool open = true;
    // The usual step, one planned response, is written here without a coroutine of its own.
    if (auto* r = std::get_if<http::send_response>(&step_.actions.front());
        r && step_.actions.size() == 1 && !ctx_.log->enabled()) {
      std::uint64_t body_bytes = 0;
      if (!write_plan_now(c_, ctx_, *r->plan, head_, out_, open, body_bytes))
        open = co_await send_rest(c_, out_, r->last, body_bytes);
      responded();
    } else {
      open = co_await execute(step_.actions);
    }
    buf_.consume(step_.consumed);  // the request the actions pointed into is done with
    if (!open) break;
    if (ctx_.log->enabled()) started_ = read_clock().wall_seconds();
  }
  c_.close();
}

}  // namespace

awaitable<void> http_handle_connection(connection& c, http_serve_context& ctx) {
  http_connection connection(c, ctx);
  co_await connection.run();
}

}  // namespace netlib::io
