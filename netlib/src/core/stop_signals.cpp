#include "netlib/core/stop_signals.hpp"

#include <signal.h>

#include <atomic>

namespace netlib {
namespace {
// An atomic, not a volatile sig_atomic_t: threads other than the one the signal lands on read it
// (the live switch's port threads, the experiments' traffic loops). Lock-free, so a signal
// handler may set it.
std::atomic<bool> stop_flag{false};
static_assert(std::atomic<bool>::is_always_lock_free);
extern "C" void on_stop_signal(int) {
  stop_flag.store(true, std::memory_order_relaxed);
}
}  // namespace

void catch_stop_signals() {
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

bool stop_requested() noexcept {
  return stop_flag.load(std::memory_order_relaxed);
}

}  // namespace netlib
