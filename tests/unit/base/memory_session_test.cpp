// The tests' in-memory driver (tests/support/memory_session.hpp) executes the session contract as
// io::run_session does, on a toy core: a wake_at is served when the virtual clock reaches it (the
// SMTP and POP3 harnesses it replaced ignored it), the actions tls_established returns are
// executed (POP3's harness dropped them), start_tls discards what was pipelined after the command,
// a hook's report is followed by a pump that feeds the input waiting behind it, and nothing is fed
// after close_connection.
#include "support/memory_session.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace memory_session_test {

using namespace std::chrono_literals;

struct work {  // the toy protocol's own action: the driver does it and calls done()
  std::string what;
};

// Lines: "HOLD" answers one second later; "TLS" asks for TLS; "WORK" asks the driver for work and
// takes nothing more until done(); "BYE" closes; any other line is echoed.
class toy_core {
 public:
  using action = netlib::session_action<work>;
  std::vector<action> start(const netlib::clock_reading&) { return {netlib::send_bytes{"hello\n"}}; }
  netlib::session_step<action> receive(netlib::byte_view input, const netlib::clock_reading& now) {
    netlib::session_step<action> step;
    const std::string_view text = netlib::as_chars(input);
    while (!held_ && !working_ && !waiting_tls_) {
      const auto eol = text.find('\n', step.consumed);
      if (eol == std::string_view::npos) break;
      const std::string_view line = text.substr(step.consumed, eol - step.consumed);
      step.consumed = eol + 1;
      if (line == "HOLD") {
        held_ = now.mono + 1s;
        step.actions.emplace_back(netlib::wake_at{*held_});
      } else if (line == "TLS") {
        waiting_tls_ = true;
        step.actions.emplace_back(netlib::start_tls{});
      } else if (line == "WORK") {
        working_ = true;
        step.actions.emplace_back(work{"job"});
      } else if (line == "BYE") {
        step.actions.emplace_back(netlib::close_connection{});
        break;
      } else {
        step.actions.emplace_back(netlib::send_bytes{std::string(line) + "\n"});
      }
    }
    return step;
  }
  std::vector<action> tick(const netlib::clock_reading& now) {
    if (!held_ || now.mono < *held_) return {};
    held_.reset();
    return {netlib::send_bytes{"held answer\n"}};
  }
  std::vector<action> tls_established(bool ok) {
    waiting_tls_ = false;
    return {netlib::send_bytes{ok ? "secure\n" : "plain\n"}};
  }
  std::vector<action> receive_eof() { return {netlib::send_bytes{"eof\n"}}; }
  std::vector<action> done() {
    working_ = false;
    return {netlib::send_bytes{"worked\n"}};
  }

 private:
  std::optional<netlib::time_point> held_;
  bool working_ = false;
  bool waiting_tls_ = false;
};
static_assert(netlib::session_core<toy_core>);

struct toy_hooks {
  std::vector<std::string>* jobs;
  template <class Runner>
  void handle(Runner& r, work& w) {
    jobs->push_back(w.what);
    r.execute(r.core().done());
    r.pump();
  }
};

TEST(MemorySession, WakeAtIsServedWhenTheClockGetsThere) {
  std::vector<std::string> jobs;
  netlab::test::memory_session<toy_core, toy_hooks> m(toy_core{}, toy_hooks{&jobs});
  m.feed("HOLD\nafter\n");
  EXPECT_EQ(m.sent, "hello\n");
  ASSERT_TRUE(m.wake);
  EXPECT_EQ(m.unconsumed(), 6U) << "the line after the held one waits in the buffer";
  m.advance(999ms);
  EXPECT_EQ(m.sent, "hello\n");
  m.advance(1ms);
  EXPECT_EQ(m.sent, "hello\nheld answer\nafter\n");
  EXPECT_FALSE(m.wake);
}

TEST(MemorySession, StartTlsDiscardsPipelinedInputAndExecutesTheHandshakesActions) {
  std::vector<std::string> jobs;
  netlab::test::memory_session<toy_core, toy_hooks> m(toy_core{}, toy_hooks{&jobs});
  m.feed("TLS\nsmuggled\n");
  EXPECT_EQ(m.sent, "hello\nsecure\n");
  EXPECT_EQ(m.tls_requests, 1);
  m.feed("inside\n");
  EXPECT_EQ(m.sent, "hello\nsecure\ninside\n");

  netlab::test::memory_session<toy_core, toy_hooks> n(toy_core{}, toy_hooks{&jobs});
  n.handshake = std::nullopt;  // the handshake is left to the test
  n.feed("TLS\n");
  EXPECT_EQ(n.sent, "hello\n");
  n.finish_tls(false);
  EXPECT_EQ(n.sent, "hello\nplain\n");
}

TEST(MemorySession, HookReportsFeedTheInputThatWaitedAndCloseStopsFeeding) {
  std::vector<std::string> jobs;
  netlab::test::memory_session<toy_core, toy_hooks> m(toy_core{}, toy_hooks{&jobs});
  m.feed("WORK\nnext\nBYE\nignored\n");
  EXPECT_EQ(jobs, std::vector<std::string>{"job"});
  EXPECT_EQ(m.sent, "hello\nworked\nnext\n");
  EXPECT_TRUE(m.closed);
  m.feed("more\n");
  m.eof();
  EXPECT_EQ(m.sent, "hello\nworked\nnext\n");
}

}  // namespace memory_session_test
