// Theory of operation: read -> feed -> execute (docs/architecture.md, "Proxy core"). Two
// coroutines share one client connection, both on its executor (a strand under --threads), so
// they need no lock between them:
//   - the reader reads the client into the input buffer while it holds less than
//     client_buffer_bytes, and marks the client gone at end of stream or on error; then it
//     closes the current origin connection, which ends the exchange the main coroutine waits on;
//   - the main coroutine asks the core for the next action and executes it: waits for client
//     bytes, writes to the client, connects to and writes to the origin, reads the origin (one
//     read of origin_read_bytes at a time, and only when the core has nothing left to send: the
//     origin goes as fast as the client takes the body), closes.
// Origin deadlines come from the core with each action; between origin reads (while the client
// is written to) none is armed. The client's request-head deadline (slowloris) comes with
// read_client and is the connection's total deadline while it is set. Waiting for the origin counts as activity on the
// client connection, so its idle timeout does not cut a client off while the proxy waits for it. The core is called
// with ctx.mutex held: every session shares the store.
#include "netlib/io/proxy_driver.hpp"

#include <array>
#include <exception>
#include <vector>

#include "netlib/io/live_clock.hpp"
#include "netlib/io/outbound_connection.hpp"

namespace netlib::io {
namespace {

connection::steady::time_point to_steady(netlib::time_point t) {
  return connection::steady::time_point(std::chrono::duration_cast<connection::steady::duration>(t.time_since_epoch()));
}

// A wake-up call between the two coroutines of one connection: the waiter checks its condition,
// then waits; notify() ends a pending wait (and does nothing when none is pending).
class wakeup {
 public:
  explicit wakeup(asio::any_io_executor ex) : timer_(std::move(ex)) {}
  awaitable<void> wait() {
    timer_.expires_at(asio::steady_timer::time_point::max());
    boost::system::error_code ec;
    co_await timer_.async_wait(asio::redirect_error(use_awaitable, ec));
  }
  void notify() { timer_.cancel(); }

 private:
  asio::steady_timer timer_;
};

struct client_side {
  client_side(connection& conn, std::size_t cap_bytes)
      : c(conn), cap(cap_bytes), to_main(conn.executor()), to_reader(conn.executor()) {}
  connection& c;
  std::size_t cap;
  input_buffer buf;
  std::uint64_t arrivals = 0;  // reads that added bytes
  bool gone = false;           // end of stream, an error, or the connection was closed
  bool stopping = false;       // the main coroutine is finishing
  bool reader_done = false;
  outbound_connection* origin = nullptr;
  wakeup to_main, to_reader;
};

awaitable<void> read_client(client_side& cs) {
  std::array<std::byte, 16384> chunk;
  for (std::uint64_t rounds = 0; rounds < (std::uint64_t{1} << 40) && !cs.stopping; ++rounds) {
    if (cs.buf.size() >= cs.cap) {  // the main coroutine consumes, then wakes us
      co_await cs.to_reader.wait();
      continue;
    }
    const std::size_t n = co_await cs.c.read_some(chunk);
    if (cs.stopping) break;
    if (n == 0) break;
    cs.buf.append(byte_view(chunk.data(), n));
    ++cs.arrivals;
    cs.to_main.notify();
  }
}

// The reader: whatever ends it (end of stream, an error, the main coroutine finishing), the
// client counts as gone, the exchange for it ends, and the main coroutine hears of it.
awaitable<void> client_reader(client_side& cs) {
  try {
    co_await read_client(cs);
  } catch (const std::exception&) {  // out of memory: this client only; the rest is as if it left
  }
  cs.gone = true;
  if (cs.origin) cs.origin->close();  // the exchange for a client that left ends now
  cs.reader_done = true;
  cs.to_main.notify();
}

// Runs the session until it says close_client (or the client is gone).
awaitable<void> drive(client_side& cs, proxy_context& ctx, http::proxy_session& core,
                      std::unique_ptr<outbound_connection>& origin) {
  connection& c = cs.c;
  std::vector<std::byte> chunk(ctx.origin_read_bytes);
  const auto never = connection::steady::time_point::max();
  std::optional<netlib::time_point> head_deadline;
  for (std::uint64_t rounds = 0; rounds < (std::uint64_t{1} << 40); ++rounds) {
    const std::uint64_t arrivals = cs.arrivals;
    http::proxy_step step;
    {
      std::lock_guard lock(ctx.mutex);
      step = core.next(cs.buf.data(), read_clock());
    }
    if (step.consumed > 0) {
      cs.buf.consume(step.consumed);
      cs.to_reader.notify();
    }
    if (auto* wait = std::get_if<http::proxy_read_client>(&step.action)) {
      if (wait->deadline != head_deadline) {  // the connection's watchdog closes it at the deadline
        head_deadline = wait->deadline;
        c.set_deadline(head_deadline ? std::optional(to_steady(*head_deadline)) : std::nullopt);
      }
      while (cs.arrivals == arrivals && !cs.gone) co_await cs.to_main.wait();
      if (cs.arrivals == arrivals) {
        std::lock_guard lock(ctx.mutex);
        core.client_gone();
      }
      continue;
    }
    if (head_deadline) {  // a complete request: no head deadline while it is answered
      head_deadline.reset();
      c.set_deadline(std::nullopt);
    }
    if (auto* send = std::get_if<http::proxy_send_client>(&step.action)) {
      // Written even after the client's end of stream: it may only have stopped sending.
      const bool ok = co_await c.write(as_bytes(send->bytes), as_bytes(send->body));
      if (!ok) {
        std::lock_guard lock(ctx.mutex);
        core.client_gone();
      }
    } else if (auto* open = std::get_if<http::proxy_connect_origin>(&step.action)) {
      origin = std::make_unique<outbound_connection>(c.executor());
      cs.origin = origin.get();
      origin->set_deadline(to_steady(open->deadline));
      bool ok = !cs.gone;
      if (ok) ok = co_await origin->connect(open->host, open->port);
      if (ok) ok = co_await origin->write(as_bytes(open->request));
      if (ok) origin->set_deadline(never);
      std::lock_guard lock(ctx.mutex);
      if (cs.gone)
        core.client_gone();
      else if (!ok && origin->timed_out())
        core.origin_deadline(read_clock());
      else if (!ok)
        core.origin_error(origin->failure(), read_clock());
    } else if (auto* read = std::get_if<http::proxy_read_origin>(&step.action)) {
      std::size_t n = 0;
      if (!cs.gone) {
        co_await c.write(byte_view{});  // waiting for the origin is not the client's idleness
        origin->set_deadline(to_steady(read->deadline));
        n = co_await origin->read_some(chunk);
        origin->set_deadline(never);
      }
      std::lock_guard lock(ctx.mutex);
      if (cs.gone)
        core.client_gone();
      else if (n > 0)
        core.origin_data(byte_view(chunk.data(), n), read_clock());
      else if (origin->timed_out())
        core.origin_deadline(read_clock());
      else if (!origin->failure().empty())
        core.origin_error(origin->failure(), read_clock());
      else
        core.origin_eof(read_clock());
    } else if (std::holds_alternative<http::proxy_close_origin>(step.action)) {
      cs.origin = nullptr;
      origin.reset();
    } else {  // proxy_close_client
      co_return;
    }
  }
}

}  // namespace

awaitable<void> run_proxy_connection(connection& c, proxy_context& ctx) {
  client_side cs(c, ctx.client_buffer_bytes);
  asio::co_spawn(c.executor(), client_reader(cs), asio::detached);
  std::unique_ptr<http::proxy_session> core;
  {
    std::lock_guard lock(ctx.mutex);
    http::proxy_options options = ctx.options;
    options.client = c.remote_endpoint().address().to_string();  // for Forwarded: for= (RFC 7239)
    core = std::make_unique<http::proxy_session>(ctx.shared, std::move(options));
  }
  std::unique_ptr<outbound_connection> origin;
  std::exception_ptr failure;
  try {
    co_await drive(cs, ctx, *core, origin);
  } catch (...) {
    failure = std::current_exception();
  }
  // The reader refers to `cs`: it must have finished before this frame goes.
  cs.stopping = true;
  cs.origin = nullptr;
  origin.reset();
  c.shutdown_send();
  c.close();
  cs.to_reader.notify();
  while (!cs.reader_done) co_await cs.to_main.wait();
  {
    std::lock_guard lock(ctx.mutex);
    core.reset();  // gives back room the session had reserved in the store
  }
  if (failure) std::rethrow_exception(failure);
}

}  // namespace netlib::io
