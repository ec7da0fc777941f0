#pragma once
// The credentials guard a server process shares between all its connections and threads
// (docs/architecture.md, "The credentials guard"): netlib::credentials_guard behind a mutex.
// Cores hold it as a credentials_gate*, so they stay sans I/O.
#include <mutex>

#include "netlib/core/credentials_guard.hpp"

namespace netlib::io {

class shared_credentials_guard final : public credentials_gate {
 public:
  explicit shared_credentials_guard(guard_policy policy = {}) : guard_(policy) {}
  admission admit(std::string_view address, std::string_view account, time_point now) override {
    std::lock_guard lock(mutex_);
    return guard_.admit(address, account, now);
  }
  void report(std::string_view address, std::string_view account, bool succeeded, time_point now) override {
    std::lock_guard lock(mutex_);
    guard_.report(address, account, succeeded, now);
  }
  [[nodiscard]] std::size_t tracked() {
    std::lock_guard lock(mutex_);
    return guard_.tracked();
  }
  [[nodiscard]] const guard_policy& policy() const noexcept { return guard_.policy(); }

 private:
  std::mutex mutex_;
  credentials_guard guard_;
};

}  // namespace netlib::io
