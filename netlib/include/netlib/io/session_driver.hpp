#pragma once
// The one live driver of the line-protocol servers (docs/architecture.md, "The live driver"): runs
// any core that speaks the session contract (netlib/core/session.hpp) on a tcp_server connection.
//
//   tcp_server server(opts, [&](connection& c) {
//     return run_session(c, pop3::server_session(config, store, users));
//   });
//
// The driver executes the contract's common actions itself (send, start_tls, close, wake_at) and
// hands a protocol's own actions to its hooks, one small object per protocol:
//
//   struct my_hooks {
//     template <class Runner> void handle(Runner& r, my_protocol::fetch& f);  // one per own action
//     template <class Runner> void on_start(Runner& r);   // optional: before the greeting
//     template <class Runner> void on_finish(Runner& r);  // optional: the connection is done
//     void on_send(std::string_view bytes);               // optional: every send (logs)
//   };
//
// A hook that starts work of its own runs it as a task. r.run_task(make_task): the task reports to
// the core (r.execute(r.core().its_report(...))) and the driver then feeds the input that waited
// behind the work; nothing is read meanwhile (SMTP's delivery). r.spawn(make_task): the task runs
// beside the reading (FTP's transfer, which ABOR must be able to stop) and pumps itself
// (r.pump()) after its report. r.pause_input(true) stops reading until pause_input(false).
#include <array>
#include <chrono>
#include <concepts>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "netlib/core/bytes.hpp"
#include "netlib/core/session.hpp"
#include "netlib/io/asio.hpp"
#include "netlib/io/connection.hpp"
#include "netlib/io/live_clock.hpp"

namespace netlib::io {

struct session_options {
  std::size_t read_size = 16384;     // bytes asked of each read
  std::size_t max_buffered = 65536;  // unconsumed input at which reading pauses (back-pressure)
};

// Hooks for a core with no actions of its own (POP3).
struct no_session_hooks {};

template <class Core, class Hooks>
class session_runner : public std::enable_shared_from_this<session_runner<Core, Hooks>> {
 public:
  using action = typename Core::action;

  session_runner(connection& c, Core core, Hooks hooks, session_options options)
      : conn_(c),
        core_(std::move(core)),
        hooks_(std::move(hooks)),
        options_(options),
        waker_(c.executor()),
        notify_(c.executor()) {}

  awaitable<void> run();

  // For hooks.
  Core& core() noexcept { return core_; }
  Hooks& hooks() noexcept { return hooks_; }
  connection& conn() noexcept { return conn_; }
  // The connection is done (end of stream or closed): reports to the core come to nothing.
  [[nodiscard]] bool finished() const noexcept { return finished_; }
  // Runs the core's actions in order.
  void execute(std::vector<action> actions);
  // tick(now) + receive(unconsumed input, now) + execute; synchronous, never nested.
  void pump();
  void pause_input(bool paused) {
    paused_ = paused;
    notify();
  }
  // Runs `make_task()` (a callable returning awaitable<void>) on the connection's executor,
  // beside the reading; the driver returns only once it is done.
  template <class F>
  void spawn(F make_task);
  // Runs `make_task()` before anything more is read, then pumps. Called from a pump of the read
  // loop (the usual case) the read loop awaits it; otherwise it is spawned.
  template <class F>
  void run_task(F make_task);

 private:
  void send(std::string bytes);
  void request_tls();
  void cancel_read_now();
  void notify() { notify_.cancel(); }
  awaitable<void> wait_until(const std::function<bool()>& done);
  awaitable<void> writer();
  awaitable<void> write_out();
  awaitable<void> flush();
  awaitable<void> settle();
  [[nodiscard]] bool may_read() const {
    return !conn_.is_open() || tls_requested_ || (!paused_ && in_.size() < options_.max_buffered);
  }
  awaitable<void> wake_loop();
  awaitable<void> switch_to_tls();

  connection& conn_;
  Core core_;
  Hooks hooks_;
  session_options options_;
  input_buffer in_;
  std::string out_;
  bool writing_ = false;
  bool close_after_write_ = false;
  bool tls_requested_ = false;
  bool cancel_read_pending_ = false;
  bool reading_ = false;
  bool paused_ = false;
  bool finished_ = false;
  bool waking_ = false;
  bool pumping_ = false;
  bool pump_again_ = false;
  bool read_loop_active_ = false;  // not parked in a read: it writes what is sent before it parks
  std::size_t tasks_ = 0;
  std::deque<std::function<awaitable<void>()>> read_loop_tasks_;  // run_task from the read loop
  std::optional<time_point> wake_;
  asio::steady_timer waker_;
  asio::steady_timer notify_;
};

// Runs `core` on `c` until the connection ends; then every hook task is done too.
template <session_core Core, class Hooks = no_session_hooks>
awaitable<void> run_session(connection& c, Core core, Hooks hooks = {}, session_options options = {}) {
  auto runner = std::make_shared<session_runner<Core, Hooks>>(c, std::move(core), std::move(hooks), options);
  co_await runner->run();
}

// ---- implementation ------------------------------------------------------------------------
// Theory of operation: all of it runs on the connection's executor (one thread, or one strand
// of a shared pool), so no locks. Coroutines:
//   - the read loop (run): waits while reading is paused or the unconsumed input is at its cap,
//     reads, appends to in_, pump(), then settles: writes what was sent, awaits the tasks asked
//     for with run_task and pumps after each;
//   - the writer: sends are queued in out_ and written in order. While the read loop is active
//     (not parked in a read) it writes them itself before it parks, so a reply costs no extra
//     coroutine; a send while it is parked starts one writer coroutine. One writes at a time, so
//     a pump from any coroutine never waits for the network;
//   - the waker: sleeps until the last wake_at time, then pump() (which ticks the core first); the
//     connection's idle deadline does not pass before that time (connection::defer_idle_until);
//   - the hooks' spawned tasks.
// notify_ (a timer that is only ever cancelled) wakes whoever waits for a state change.
// start_tls: the core stopped consuming at the line that asked for TLS. Whatever else was read
// is discarded, never fed (RFC 3207 §5, RFC 2595 §4, RFC 4217 §4); a read in progress is
// cancelled before the reply is written (the bytes it would bring came before the reply, so they
// are plaintext pipelined after the command), then the reply is written and the handshake runs.
// The handler returns only when the writer, the waker and every task are done, since they use
// the connection.

template <class Core, class Hooks>
void session_runner<Core, Hooks>::execute(std::vector<action> actions) {
  for (auto& a : actions) {
    std::visit(
        [this](auto& x) {
          using A = std::remove_cvref_t<decltype(x)>;
          if constexpr (std::same_as<A, send_bytes>) {
            if constexpr (requires { hooks_.on_send(std::string_view(x.bytes)); }) hooks_.on_send(x.bytes);
            send(std::move(x.bytes));
          } else if constexpr (std::same_as<A, start_tls>) {
            request_tls();
          } else if constexpr (std::same_as<A, close_connection>) {
            close_after_write_ = true;
            if (!writing_ && out_.empty()) conn_.close();
            notify();
          } else if constexpr (std::same_as<A, wake_at>) {
            wake_ = x.when;
            // The core works on an answer until then (a login held for its turn): the client,
            // waiting for it, is not idle (issue 31: the idle timeout closed it first).
            conn_.defer_idle_until(to_steady(x.when));
            waker_.cancel();  // re-arm
          } else {
            hooks_.handle(*this, x);
          }
        },
        a);
  }
}

template <class Core, class Hooks>
void session_runner<Core, Hooks>::pump() {
  if (pumping_) {  // a hook reported from inside a pump: go round once more when it is done
    pump_again_ = true;
    return;
  }
  pumping_ = true;
  for (int round = 0; round < 1000; ++round) {  // bounded: a round only repeats after a nested report
    pump_again_ = false;
    if (finished_) break;
    const clock_reading now = read_clock();
    execute(core_.tick(now));
    auto step = core_.receive(in_.data(), now);
    in_.consume(step.consumed);
    execute(std::move(step.actions));
    if (!pump_again_) break;
  }
  pumping_ = false;
  notify();
}

template <class Core, class Hooks>
template <class F>
void session_runner<Core, Hooks>::spawn(F make_task) {
  ++tasks_;
  asio::co_spawn(
      conn_.executor(),
      [self = this->shared_from_this(), make_task = std::move(make_task)]() mutable -> awaitable<void> {
        try {
          co_await make_task();
        } catch (...) {  // a failed task must not keep the connection's handler waiting
        }
        --self->tasks_;
        self->notify();
      },
      asio::detached);
}

template <class Core, class Hooks>
template <class F>
void session_runner<Core, Hooks>::run_task(F make_task) {
  if (read_loop_active_) {
    read_loop_tasks_.emplace_back(std::move(make_task));
    return;
  }
  spawn([this, make_task = std::move(make_task)]() mutable -> awaitable<void> {
    co_await make_task();
    pump();
  });
}

template <class Core, class Hooks>
void session_runner<Core, Hooks>::send(std::string bytes) {
  if (out_.empty())
    out_ = std::move(bytes);  // the usual case: no copy
  else
    out_ += bytes;
  if (writing_ || read_loop_active_) return;  // a writer is at work, or the read loop writes next
  writing_ = true;
  asio::co_spawn(
      conn_.executor(), [self = this->shared_from_this()] { return self->writer(); }, asio::detached);
}

template <class Core, class Hooks>
awaitable<void> session_runner<Core, Hooks>::writer() {
  co_await write_out();
}

template <class Core, class Hooks>
awaitable<void> session_runner<Core, Hooks>::flush() {
  if (out_.empty() || writing_) co_return;  // nothing queued, or the writer at work takes it
  writing_ = true;
  co_await write_out();
}

// The read loop, after a pump: write what was sent; run the tasks it asked for, pumping after
// each (what waited behind the work), until nothing is left to do before the next read.
template <class Core, class Hooks>
awaitable<void> session_runner<Core, Hooks>::settle() {
  for (int round = 0; round < 1'000'000; ++round) {
    if (!out_.empty() && !writing_) {  // flush(), without a coroutine of its own
      writing_ = true;
      co_await write_out();
    }
    if (read_loop_tasks_.empty()) co_return;
    auto task = std::move(read_loop_tasks_.front());
    read_loop_tasks_.pop_front();
    try {
      co_await task();
    } catch (...) {  // a failed task must not end the connection's handler abnormally
    }
    pump();
  }
}

// Writes out_ until it is empty; writing_ is set by the caller.
template <class Core, class Hooks>
awaitable<void> session_runner<Core, Hooks>::write_out() {
  while (!out_.empty()) {
    if (cancel_read_pending_) cancel_read_now();  // before the reply to the TLS command goes out
    const std::string chunk = std::move(out_);
    out_.clear();
    if (!co_await conn_.write(chunk)) {
      out_.clear();
      break;
    }
  }
  writing_ = false;
  if (close_after_write_) conn_.close();
  notify();
}

template <class Core, class Hooks>
void session_runner<Core, Hooks>::request_tls() {
  tls_requested_ = true;
  if (reading_) {
    cancel_read_pending_ = true;
    if (!writing_) cancel_read_now();  // the writer has not started: no write to cancel
  }
  notify();
}

template <class Core, class Hooks>
void session_runner<Core, Hooks>::cancel_read_now() {
  cancel_read_pending_ = false;
  if (reading_) conn_.cancel_read();
}

template <class Core, class Hooks>
awaitable<void> session_runner<Core, Hooks>::wait_until(const std::function<bool()>& done) {
  for (int i = 0; i < 1'000'000 && !done(); ++i) {
    notify_.expires_at(std::chrono::steady_clock::time_point::max());
    boost::system::error_code ec;
    co_await notify_.async_wait(asio::redirect_error(use_awaitable, ec));
  }
}

template <class Core, class Hooks>
awaitable<void> session_runner<Core, Hooks>::wake_loop() {
  while (!finished_) {
    waker_.expires_at(wake_ ? to_steady(*wake_) : std::chrono::steady_clock::time_point::max());
    boost::system::error_code ec;
    co_await waker_.async_wait(asio::redirect_error(use_awaitable, ec));
    if (ec || finished_ || !wake_ || read_clock().mono < *wake_) continue;  // cancelled: re-arm
    wake_.reset();
    pump();
  }
  waking_ = false;
  notify();
}

template <class Core, class Hooks>
awaitable<void> session_runner<Core, Hooks>::switch_to_tls() {
  tls_requested_ = false;
  in_.clear();  // plaintext pipelined after the command is never executed
  co_await flush();
  if (writing_) co_await wait_until([this] { return !writing_; });
  const bool ok = conn_.is_open() && co_await conn_.start_tls();
  execute(core_.tls_established(ok));
}

template <class Core, class Hooks>
awaitable<void> session_runner<Core, Hooks>::run() {
  read_loop_active_ = true;
  if constexpr (requires { hooks_.on_start(*this); }) hooks_.on_start(*this);
  execute(core_.start(read_clock()));
  waking_ = true;
  asio::co_spawn(
      conn_.executor(), [self = this->shared_from_this()] { return self->wake_loop(); }, asio::detached);
  co_await settle();
  std::vector<std::byte> buffer(options_.read_size);
  while (conn_.is_open()) {
    if (!may_read()) {  // settled: nothing queued to write
      read_loop_active_ = false;
      co_await wait_until([this] { return may_read(); });
      read_loop_active_ = true;
    }
    if (!conn_.is_open()) break;
    if (tls_requested_) {
      co_await switch_to_tls();
      co_await settle();
      continue;
    }
    read_loop_active_ = false;
    reading_ = true;
    const std::size_t n = co_await conn_.read_some(buffer);
    reading_ = false;
    read_loop_active_ = true;
    if (tls_requested_) continue;  // what this read brought came before the reply: discarded
    if (n == 0) break;
    in_.append(byte_view(buffer.data(), n));
    pump();
    if (!out_.empty() || !read_loop_tasks_.empty()) co_await settle();
  }
  execute(core_.receive_eof());
  co_await settle();
  finished_ = true;
  read_loop_active_ = false;
  if constexpr (requires { hooks_.on_finish(*this); }) hooks_.on_finish(*this);
  waker_.cancel();
  if (writing_ || waking_ || tasks_ > 0) co_await wait_until([this] { return !writing_ && !waking_ && tasks_ == 0; });
  conn_.close();
}

}  // namespace netlib::io
