// Theory of operation: read -> feed -> execute, the thin driver of docs/architecture.md ("Live runners").
//   1. Feed the buffered bytes to the server_session; drop what it consumed.
//   2. need_more: arm the request-head deadline as soon as part of a head is buffered (slowloris:
//      the whole head must arrive within head_timeout, however slowly it trickles), disarm it
//      between requests and while a body is read (the idle timeout still applies); then read.
//   3. send_reply (errors, 405, 501): write it; close after it when the session says so.
//   4. serve_request: the static site plans the response; finish_response adds Date, Server and
//      Connection; the head is written, then the body: a string or a small file (up to 32 KiB,
//      usually straight from disk_files' cache) gathered with the head into one write, or a
//      larger file part sent with sendfile(2) (no copy through user space) or, under TLS, read
//      and written in 64 KiB pieces.
//   5. Closing after a reply: shut down our side and drain what the client still sends for a
//      moment, so the kernel does not reset the connection before the client read the reply;
//      after a response to a request that asked to be the last, with no unread input, at once.
#include "serve_driver.hpp"

#include <sys/sendfile.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <ctime>

#include "netlib/http/access_log.hpp"
#include "netlib/http/serializer.hpp"

namespace lab_http {

namespace io = netlib::io;
namespace http = netlib::http;

access_log::access_log(const std::string& path) {
  if (path.empty()) return;
  file_ = std::fopen(path.c_str(), "a");
  if (!file_) throw io::io_error("cannot open access log " + path + " for appending");
}
access_log::~access_log() {
  if (file_) std::fclose(file_);
}
void access_log::write(const std::string& line) {
  if (!file_) return;
  std::lock_guard lock(mutex_);
  std::fprintf(file_, "%s\n", line.c_str());
  std::fflush(file_);
}

namespace {

std::int64_t wall_now() { return static_cast<std::int64_t>(std::time(nullptr)); }

struct fd_guard {
  int fd;
  ~fd_guard() {
    if (fd >= 0) ::close(fd);
  }
};

// sendfile(2) on the raw socket: the kernel copies from the page cache to the socket.
io::awaitable<bool> send_file_zero_copy(io::connection& c, int fd, std::uint64_t offset, std::uint64_t length) {
  auto& sock = c.socket();
  boost::system::error_code ec;
  if (!sock.non_blocking()) sock.non_blocking(true, ec);  // once per connection: it is an ioctl
  // The head went out at once (connection::write); the body is long work, so the other
  // connections' ready events go first. Measured with wrk on 1 MiB files: starting sendfile
  // right after the head gave 2,200 requests/s, yielding here 3,800 (docs/performance.md).
  co_await io::asio::post(c.executor(), io::use_awaitable);
  off_t off = static_cast<off_t>(offset);
  std::uint64_t left = length;
  while (left > 0 && c.is_open()) {
    const ssize_t n = ::sendfile(sock.native_handle(), fd, &off, left < (1u << 20) ? left : (1u << 20));
    if (n > 0) {
      left -= static_cast<std::uint64_t>(n);
      if (!co_await c.write(netlib::byte_view{})) co_return false;  // refreshes the idle deadline
    } else if (n == 0) {
      co_return false;  // the file shrank: the promised length cannot be kept
    } else if (errno == EAGAIN || errno == EWOULDBLOCK) {
      co_await sock.async_wait(io::tcp::socket::wait_write, io::asio::redirect_error(io::use_awaitable, ec));
      if (ec) co_return false;
    } else if (errno != EINTR) {
      co_return false;
    }
  }
  co_return left == 0;
}

io::awaitable<bool> send_file_copied(io::connection& c, int fd, std::uint64_t offset, std::uint64_t length) {
  std::array<std::byte, 65536> chunk;
  while (length > 0) {
    const ssize_t n = ::pread(fd, chunk.data(), length < chunk.size() ? length : chunk.size(), static_cast<off_t>(offset));
    if (n <= 0) co_return false;
    if (!co_await c.write(netlib::byte_view(chunk.data(), static_cast<std::size_t>(n)))) co_return false;
    offset += static_cast<std::uint64_t>(n);
    length -= static_cast<std::uint64_t>(n);
  }
  co_return true;
}

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

// Writes the planned response; returns false when the connection broke.
io::awaitable<bool> write_plan(io::connection& c, serve_context& ctx, const http::response_plan& plan,
                               std::uint64_t& body_bytes) {
  std::string head = http::serialize(plan.head);
  if (const auto* text = std::get_if<std::string>(&plan.body)) {
    body_bytes = text->size();
    co_return co_await c.write(netlib::as_bytes(head), netlib::as_bytes(*text));
  }
  const auto* part = std::get_if<http::file_part>(&plan.body);
  if (!part) co_return co_await c.write(head);
  auto body = ctx.files->open_body(part->path);
  if (body.cached) {  // the whole small file is in memory: head and part in one gathered write
    const std::string_view content = body.cached->content;
    if (part->offset > content.size() || part->length > content.size() - part->offset) co_return false;
    body_bytes = part->length;
    co_return co_await c.write(netlib::as_bytes(head), netlib::as_bytes(content.substr(part->offset, part->length)));
  }
  fd_guard fd{body.fd};
  if (fd.fd < 0) co_return false;  // vanished since stat: nothing sent, close
  if (part->length <= small_file) {
    if (!append_file(head, fd.fd, part->offset, static_cast<std::size_t>(part->length))) co_return false;
    body_bytes = part->length;
    co_return co_await c.write(head);
  }
  if (!co_await c.write(head)) co_return false;
  const bool ok = c.tls_active() ? co_await send_file_copied(c, fd.fd, part->offset, part->length)
                                 : co_await send_file_zero_copy(c, fd.fd, part->offset, part->length);
  if (ok) body_bytes = part->length;
  co_return ok;
}

io::awaitable<void> linger_close(io::connection& c) {
  c.shutdown_send();
  c.set_deadline(io::connection::steady::now() + std::chrono::seconds(2));
  std::array<std::byte, 4096> sink;
  for (int i = 0; i < 64 && co_await c.read_some(sink) > 0; ++i) {
  }
  c.close();
}

// After a response the client asked to be the last (Connection: close, HTTP/1.0): it sends nothing
// more (RFC 9112 §9.6), so with no unread input the connection is closed at once. Unread input
// would make the kernel reset the connection, which can destroy the response before the client
// reads it: then, and under TLS, linger.
io::awaitable<void> close_after_last(io::connection& c, bool input_buffered) {
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
  explicit remote_host(io::connection& c) : c_(c) {}
  const std::string& operator()() {
    if (text_.empty()) text_ = c_.remote_endpoint().address().to_string();
    return text_;
  }

 private:
  io::connection& c_;
  std::string text_;
};

// Serves one request; returns whether the connection stays open.
io::awaitable<bool> serve_one(io::connection& c, serve_context& ctx, http::server_session& session,
                              const http::serve_request& req, std::int64_t started, remote_host& peer) {
  http::response_plan plan;
  {
    std::unique_lock lock(ctx.site_mutex, std::defer_lock);
    if (ctx.sessions) lock.lock();
    plan = ctx.site->respond(req.head, wall_now(), io::connection::now());
  }
  const bool keep = session.finish_response(req.head, plan.head, wall_now());
  std::uint64_t body_bytes = 0;
  const bool ok = co_await write_plan(c, ctx, plan, body_bytes);
  if (!ctx.log->enabled()) co_return ok && keep;
  const auto& h = req.head;
  ctx.log->write(http::format_clf({peer(), plan.user, started,
                                   h.method + " " + h.target + " HTTP/" + std::to_string(h.version.major) + "." +
                                       std::to_string(h.version.minor),
                                   plan.head.status, body_bytes}));
  co_return ok && keep;
}

}  // namespace

io::awaitable<void> handle_connection(io::connection& c, serve_context& ctx) {
  http::server_session session(ctx.session);
  netlib::input_buffer buf;
  std::array<std::byte, 16384> chunk;
  bool head_deadline = false;
  std::int64_t started = wall_now();
  remote_host peer(c);
  for (int rounds = 0; rounds < 10'000'000; ++rounds) {  // bounded: each round reads or answers
    auto step = session.next(buf.data(), wall_now());
    buf.consume(step.consumed);
    if (std::holds_alternative<http::need_more>(step.action)) {
      const bool in_head = !buf.empty() && session.between_requests();
      if (in_head && !head_deadline) started = wall_now();
      if (in_head != head_deadline) c.set_deadline(in_head ? std::optional(io::connection::steady::now() + ctx.head_timeout) : std::nullopt);
      head_deadline = in_head;
      const std::size_t n = co_await c.read_some(chunk);
      if (n == 0) break;  // end of stream, or a deadline closed the connection
      buf.append(netlib::byte_view(chunk.data(), n));
      continue;
    }
    if (head_deadline) c.set_deadline(std::nullopt);
    head_deadline = false;
    if (auto* reply = std::get_if<http::send_reply>(&step.action)) {
      const bool ok = co_await c.write(reply->bytes);
      if (ctx.log->enabled())
        ctx.log->write(http::format_clf(
            {peer(), {}, started, reply->request_line, reply->status, http::body_size_of(reply->bytes)}));
      if (!ok) break;
      if (reply->close) {
        co_await linger_close(c);
        break;
      }
    } else if (!co_await serve_one(c, ctx, session, std::get<http::serve_request>(step.action), started, peer)) {
      if (c.is_open()) co_await close_after_last(c, !buf.empty());
      break;
    }
    started = wall_now();
  }
  c.close();
}

}  // namespace lab_http
