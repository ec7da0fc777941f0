#pragma once
// What the line-protocol suites share around one check: its result, its connection, and how a
// failure is recorded (the reason, what was sent and received, what was expected). The FTP and
// POP3 suites' sessions derive from probe_session; the SMTP suite records with record_failure.
#include <chrono>
#include <string>
#include <utility>

#include "check.hpp"
#include "common/tcp_probe.hpp"

namespace netlab::grade {

// Fails check `c` with `reason`, the bytes probe `p` sent and received made printable, and what
// was `expected`.
inline void record_failure(check_result& c, const tcp_probe& p, std::string reason, std::string expected) {
  c.passed = false;
  c.reason = std::move(reason);
  c.sent = printable(p.sent());
  c.received = printable(p.received());
  c.expected = std::move(expected);
}

class probe_session {
 public:
  probe_session(check_result& c, const std::string& host, unsigned short port, std::chrono::milliseconds timeout)
      : c_(c), probe_(host, port, timeout) {}

  // A failure found by the check itself (a wrong count, a wrong size); only the first one counts.
  void fail_with(std::string reason, std::string expected) {
    if (failed_) return;
    failed_ = true;
    record_failure(c_, probe_, std::move(reason), std::move(expected));
  }
  // Ends the check: passed unless it failed; QUIT and wait for the close when `quit`.
  void finish(bool quit = true) {
    finished_ = true;
    if (!failed_) c_.passed = true;
    if (quit && probe_.send("QUIT\r\n")) probe_.wait_closed();
  }
  tcp_probe& probe() { return probe_; }
  [[nodiscard]] bool finished() const { return finished_; }

 protected:
  check_result& c_;
  tcp_probe probe_;
  bool failed_ = false;
  bool finished_ = false;
};

}  // namespace netlab::grade
