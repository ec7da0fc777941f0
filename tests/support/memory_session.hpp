#pragma once
// The in-memory twin of netlib::io::run_session (netlib/io/session_driver.hpp): runs any core that
// speaks the session contract (netlib/core/session.hpp) over strings and a virtual clock, and
// executes the contract's common actions the way the live driver does, so that a core's tests
// see what a live connection would:
//   - send_bytes: appended to `sent` (and kept one by one in `sends`);
//   - start_tls: the unconsumed input is discarded (never fed, RFC 3207 §5), then the handshake's
//     result (`handshake`, default: it succeeds) is reported with tls_established() and the
//     actions it returns are executed; with `handshake = std::nullopt` nothing is reported until
//     the test calls finish_tls(ok);
//   - close_connection: `closed`; nothing more is fed;
//   - wake_at: the one next deadline (`wake`); advance() moves the clock and, once the deadline
//     has come, pumps (tick, then receive) as the driver's waker does.
// Every pump is tick(now) + receive(unconsumed input, now) + execute, as the live pump, and a
// protocol's own actions go to its hooks, one small object per protocol, as in run_session:
//
//   struct my_hooks {
//     template <class Runner> void handle(Runner& r, my_protocol::fetch& f);  // one per own action
//     void on_send(std::string_view bytes);                                     // optional
//   };
//
// A hook that reports to the core calls r.execute(r.core().its_report(...)) and then r.pump(): a
// pump asked for inside a pump goes round once more when the current round is done (the live
// driver's run_task), so input that waited behind the work is fed.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "netlib/core/bytes.hpp"
#include "netlib/core/clock.hpp"
#include "netlib/core/session.hpp"
#include "support/split_feed.hpp"

namespace netlab::test {

// Hooks for a core with no actions of its own (POP3).
struct no_memory_hooks {};

template <netlib::session_core Core, class Hooks = no_memory_hooks>
class memory_session {
 public:
  using action = typename Core::action;

  // The session's clock is `clock` (several connections may share one, as the credentials guard's
  // tests do); the core is started (its greeting executed) at once.
  memory_session(Core core, netlib::virtual_clock& clock, Hooks hooks = {})
      : core_(std::move(core)), hooks_(std::move(hooks)), clock_(&clock) {
    execute(core_.start(clock_->reading()));
  }
  explicit memory_session(Core core, Hooks hooks = {})
      : memory_session(std::move(core), own_clock_, std::move(hooks)) {}
  memory_session(const memory_session&) = delete;
  memory_session& operator=(const memory_session&) = delete;

  // What the session did, for the test to look at.
  std::string sent;                        // every byte sent, in order
  std::vector<std::string> sends;          // the same, one entry per send_bytes
  bool closed = false;                     // close_connection was executed
  int tls_requests = 0;                    // start_tls actions executed
  std::optional<netlib::time_point> wake;  // the next wake_at, until it has been served
  std::optional<bool> handshake = true;    // the TLS handshake's result, reported at start_tls

  Core& core() noexcept { return core_; }
  Hooks& hooks() noexcept { return hooks_; }
  netlib::virtual_clock& clock() noexcept { return *clock_; }
  [[nodiscard]] std::size_t unconsumed() const noexcept { return in_.size(); }
  [[nodiscard]] std::string_view unconsumed_text() const noexcept { return netlib::as_chars(in_.data()); }

  // Bytes from the peer: appended to the unconsumed input, then a pump. Nothing after a close.
  void feed(std::string_view bytes) {
    if (closed) return;
    in_.append(bytes);
    pump();
  }
  void feed(const pieces& all) {
    for (auto piece : all) feed(piece);
  }
  // Time passes; when the core's deadline has come, it is served (tick, then receive).
  void advance(netlib::duration d) {
    clock_->advance(d);
    if (wake && clock_->now() >= *wake) {
      wake.reset();
      pump();
    }
  }
  // The driver's waker fired, for a clock that the test moved itself (one shared by several
  // sessions): a pump (tick, then receive); the deadline is spent once it has come.
  void wake_up() {
    if (wake && clock_->now() >= *wake) wake.reset();
    pump();
  }
  // The peer closed its side.
  void eof() {
    if (!closed) execute(core_.receive_eof());
  }
  // Reports the handshake asked for when `handshake` was std::nullopt.
  void finish_tls(bool ok) { execute(core_.tls_established(ok)); }

  // tick(now) + receive(unconsumed input, now) + execute; a pump asked for from inside one (a
  // hook's report) goes round again when it is done. Bounded, as the live pump.
  void pump() {
    if (pumping_) {
      pump_again_ = true;
      return;
    }
    pumping_ = true;
    for (int round = 0; round < 1000; ++round) {
      pump_again_ = false;
      if (closed) break;
      const netlib::clock_reading now = clock_->reading();
      execute(core_.tick(now));
      auto step = core_.receive(in_.data(), now);
      in_.consume(step.consumed);
      execute(std::move(step.actions));
      if (!pump_again_) break;
    }
    pumping_ = false;
  }

  // Runs the core's actions in order, as the live driver's execute.
  void execute(std::vector<action> actions) {
    for (auto& a : actions) {
      std::visit(
          [this](auto& x) {
            using A = std::remove_cvref_t<decltype(x)>;
            if constexpr (std::is_same_v<A, netlib::send_bytes>) {
              if constexpr (requires { hooks_.on_send(std::string_view(x.bytes)); }) hooks_.on_send(x.bytes);
              sent += x.bytes;
              sends.push_back(std::move(x.bytes));
            } else if constexpr (std::is_same_v<A, netlib::start_tls>) {
              ++tls_requests;
              in_.clear();  // plaintext pipelined after the command is never executed
              if (handshake) execute(core_.tls_established(*handshake));
            } else if constexpr (std::is_same_v<A, netlib::close_connection>) {
              closed = true;
            } else if constexpr (std::is_same_v<A, netlib::wake_at>) {
              wake = x.when;
            } else {
              hooks_.handle(*this, x);
            }
          },
          a);
    }
  }

 private:
  Core core_;
  Hooks hooks_;
  netlib::virtual_clock own_clock_;
  netlib::virtual_clock* clock_;
  netlib::input_buffer in_;
  bool pumping_ = false;
  bool pump_again_ = false;
};

}  // namespace netlab::test
