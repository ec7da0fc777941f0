// The one live driver (netlib::io::run_session) with a toy core that speaks the session contract,
// over real sockets on 127.0.0.1 port 0: every common action (send, start_tls, close, wake_at),
// an action of the toy protocol's own run by a hook task, pipelined input kept in order behind
// held answers, STARTTLS asked for while a read is in progress, and the handler waiting for its
// tasks. A new protocol needs only a core and, for its own actions, hooks like these.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "netlib/core/command_line.hpp"
#include "netlib/core/session.hpp"
#include "netlib/io/session_driver.hpp"
#include "netlib/io/tcp_client.hpp"
#include "netlib/io/tcp_server.hpp"
#include "netlib/io/tls.hpp"
#include "support/process.hpp"
#include "support/threaded_server.hpp"

namespace session_driver_test {

using namespace netlib;
using namespace netlib::io;
using namespace std::chrono_literals;

// The toy protocol's own action: some work the driver does for the core ("JOB ms").
struct run_job {
  std::chrono::milliseconds length;
};

// Lines: "WAIT ms" answers after ms (wake_at), "JOB ms" after the driver's job (its own action),
// "STARTTLS", "QUIT", anything else is echoed. Like a real core it takes no input while an answer
// is held.
class toy_core {
 public:
  using action = session_action<run_job>;

  std::vector<action> start(const clock_reading&) { return {send_bytes{"hello\r\n"}}; }

  session_step<action> receive(byte_view input, const clock_reading& now) {
    session_step<action> step;
    while (!held_ && !closed_ && !tls_) {
      const command_read r = reader_.next(input.subspan(step.consumed));
      step.consumed += r.consumed;
      if (r.status == read_status::need_more) break;
      const command_line& c = r.value;
      if (c.verb == "WAIT") {
        held_ = true;
        until_ = now.mono + std::chrono::milliseconds(std::stoi(c.argument));
        step.actions.emplace_back(wake_at{until_});
      } else if (c.verb == "JOB") {
        held_ = true;
        step.actions.emplace_back(run_job{std::chrono::milliseconds(std::stoi(c.argument))});
      } else if (c.verb == "STARTTLS") {
        tls_ = true;
        step.actions.emplace_back(send_bytes{"220 go ahead\r\n"});
        step.actions.emplace_back(start_tls{});
      } else if (c.verb == "QUIT") {
        closed_ = true;
        step.actions.emplace_back(send_bytes{"221 bye\r\n"});
        step.actions.emplace_back(close_connection{});
      } else {
        step.actions.emplace_back(
            send_bytes{"echo: " + c.verb + (c.argument.empty() ? "" : " " + c.argument) + "\r\n"});
      }
    }
    return step;
  }

  std::vector<action> tick(const clock_reading& now) {
    ++ticks;
    if (!held_ || until_ == time_point{} || now.mono < until_) return {};
    held_ = false;
    until_ = {};
    return {send_bytes{"waited\r\n"}};
  }

  std::vector<action> job_done() {
    held_ = false;
    return {send_bytes{"job done\r\n"}};
  }

  std::vector<action> tls_established(bool ok) {
    tls_ = false;
    if (!ok) return {close_connection{}};
    return {};
  }

  std::vector<action> receive_eof() {
    eofs.fetch_add(1);
    return {};
  }

  int ticks = 0;
  static inline std::atomic<int> eofs{0};

 private:
  command_reader reader_{{.max_length = 256}};
  bool held_ = false;
  bool closed_ = false;
  bool tls_ = false;
  time_point until_{};
};
static_assert(session_core<toy_core>);

struct toy_hooks {
  static inline std::atomic<int> jobs_finished{0};
  template <class Runner>
  void handle(Runner& r, run_job& job) {
    r.spawn([&r, length = job.length]() -> awaitable<void> {
      asio::steady_timer t(r.conn().executor(), length);
      co_await t.async_wait(use_awaitable);
      jobs_finished.fetch_add(1);
      r.execute(r.core().job_done());
      r.pump();
    });
  }
};

using netlab::test::quiet;
using netlab::test::read_line;

// The toy core's server on a background thread (support/threaded_server.hpp).
struct running_server : netlab::test::threaded_server {
  explicit running_server(server_options o)
      : threaded_server(std::move(o), [](connection& c) { return run_session(c, toy_core{}, toy_hooks{}); }) {}
};

TEST(SessionDriver, echoes_and_quits) {
  running_server s(quiet());
  tcp_client c(5s);
  c.connect("127.0.0.1", s.port());
  std::string pending;
  EXPECT_EQ(read_line(c, pending), "hello");
  c.write("one\r\ntwo three\r\nQUIT\r\nafter\r\n");
  EXPECT_EQ(read_line(c, pending), "echo: ONE");
  EXPECT_EQ(read_line(c, pending), "echo: TWO three");
  EXPECT_EQ(read_line(c, pending), "221 bye");
  EXPECT_EQ(read_line(c, pending), "<eof>");  // closed after the reply; "after" never answered
}

TEST(SessionDriver, wake_at_holds_the_answer_and_the_input_behind_it) {
  running_server s(quiet());
  tcp_client c(5s);
  c.connect("127.0.0.1", s.port());
  std::string pending;
  ASSERT_EQ(read_line(c, pending), "hello");
  const auto sent = std::chrono::steady_clock::now();
  c.write("WAIT 200\r\nnext\r\n");
  EXPECT_EQ(read_line(c, pending), "waited");
  EXPECT_GE(std::chrono::steady_clock::now() - sent, 200ms);
  EXPECT_EQ(read_line(c, pending), "echo: NEXT");  // taken only after the held answer
}

TEST(SessionDriver, own_actions_go_to_the_hooks_and_report_back) {
  running_server s(quiet());
  tcp_client c(5s);
  c.connect("127.0.0.1", s.port());
  std::string pending;
  ASSERT_EQ(read_line(c, pending), "hello");
  const int before = toy_hooks::jobs_finished.load();
  c.write("JOB 50\r\nafter job\r\nJOB 1\r\n");
  EXPECT_EQ(read_line(c, pending), "job done");
  EXPECT_EQ(read_line(c, pending), "echo: AFTER job");
  EXPECT_EQ(read_line(c, pending), "job done");
  EXPECT_EQ(toy_hooks::jobs_finished.load(), before + 2);
}

TEST(SessionDriver, handler_ends_only_after_its_tasks) {
  const int before_jobs = toy_hooks::jobs_finished.load();
  const int before_eofs = toy_core::eofs.load();
  {
    running_server s(quiet());
    tcp_client c(5s);
    c.connect("127.0.0.1", s.port());
    std::string pending;
    ASSERT_EQ(read_line(c, pending), "hello");
    c.write("JOB 300\r\n");
    c.close();  // the client leaves while the job runs
    // The server's run() returns (in the destructor) only when every handler returned, which
    // a handler does only after its job.
  }
  EXPECT_EQ(toy_hooks::jobs_finished.load(), before_jobs + 1);
  EXPECT_EQ(toy_core::eofs.load(), before_eofs + 1);
}

struct tls_files {
  std::filesystem::path dir = std::filesystem::temp_directory_path() / ("netlab-sd-" + std::to_string(::getpid()));
  std::string cert = (dir / "cert.pem").string();
  std::string key = (dir / "key.pem").string();
  tls_files() {
    std::filesystem::create_directories(dir);
    const auto made = netlab::test::run({"openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key,
                                         "-out", cert, "-subj", "/CN=localhost", "-days", "1"});
    EXPECT_EQ(made.exit_code, 0) << made.err;
  }
  ~tls_files() { std::filesystem::remove_all(dir); }
};

TEST(SessionDriver, starttls_discards_pipelined_plaintext) {
  tls_files files;
  running_server s(quiet({.tls = make_server_tls(files.cert, files.key)}));
  tcp_client c(5s);
  c.connect("127.0.0.1", s.port());
  std::string pending;
  ASSERT_EQ(read_line(c, pending), "hello");
  c.write("STARTTLS\r\nINJECTED\r\n");  // never answered, neither before nor after the handshake
  ASSERT_EQ(read_line(c, pending), "220 go ahead");
  ASSERT_TRUE(pending.empty());
  c.start_tls(make_client_tls(false), "localhost");
  c.write("secret\r\n");
  EXPECT_EQ(read_line(c, pending), "echo: SECRET");
}

// STARTTLS taken from the buffer after a job (not from a read): the driver has a read in
// progress then, which it cancels before the 220 goes out, so the client's handshake (sent after
// the 220) reaches TLS and plaintext sent before the 220 does not.
TEST(SessionDriver, starttls_after_held_work_cancels_the_read_in_progress) {
  tls_files files;
  running_server s(quiet({.tls = make_server_tls(files.cert, files.key)}));
  for (int round = 0; round < 3; ++round) {
    tcp_client c(5s);
    c.connect("127.0.0.1", s.port());
    std::string pending;
    ASSERT_EQ(read_line(c, pending), "hello");
    c.write("JOB 100\r\nSTARTTLS\r\n");
    c.write("INJECTED\r\n");  // arrives while the job runs: before the 220
    ASSERT_EQ(read_line(c, pending), "job done");
    ASSERT_EQ(read_line(c, pending), "220 go ahead");
    ASSERT_TRUE(pending.empty());
    c.start_tls(make_client_tls(false), "localhost");
    c.write("after tls\r\n");
    EXPECT_EQ(read_line(c, pending), "echo: AFTER tls");
  }
}

}  // namespace session_driver_test
