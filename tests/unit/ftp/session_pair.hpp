#pragma once
// An in-memory FTP client/server pair: a client_session talks to a server_session over strings,
// the server on the shared in-memory driver (support/memory_session.hpp, the twin of
// io::run_session); the hooks simulate the data connection from the server's actions.
#include <gtest/gtest.h>

#include <string>
#include <variant>
#include <vector>

#include "netlib/core/clock.hpp"
#include "netlib/ftp/client_session.hpp"
#include "netlib/ftp/memory_file_system.hpp"
#include "netlib/ftp/server_session.hpp"
#include "support/memory_session.hpp"

namespace ftp_test {

using namespace netlib;
using namespace netlib::ftp;

inline server_config default_config() {
  server_config c;
  c.users.add("alice", "secret");
  c.users.set_anonymous(true);
  c.writable = true;
  c.peer_address = "127.0.0.1";
  return c;
}

struct session_pair;

// FTP's own actions, as lab-ftp's hooks run them, with the data connection simulated: a passive
// listener always opens; a transfer finishes at once (unless held) with the pair's `outcome`.
// Every reply goes to the client session.
struct pair_hooks {
  session_pair* p;
  template <class Runner>
  void handle(Runner& r, open_passive& a) {
    r.execute(r.core().passive_opened("127.0.0.1", a.extended ? 50001 : 50000));
  }
  template <class Runner>
  void handle(Runner& r, abort_transfer&) {
    r.execute(r.core().transfer_finished(transfer_outcome::aborted, 0));
  }
  template <class Runner>
  void handle(Runner& r, start_transfer& t);
  template <class Runner>
  void handle(Runner&, close_passive&) {}
  void on_send(std::string_view bytes);
};

struct session_pair {
  memory_file_system fs;
  client_session client;
  virtual_clock clock;
  std::string upload;      // what the simulated client sends on the next receive_file
  std::string downloaded;  // what the last send_* transfer delivered
  std::vector<start_transfer> transfers;
  std::vector<reply> replies;   // every reply the client saw, in order
  bool hold_transfers = false;  // leave transfers running (for ABOR/STAT tests)
  transfer_outcome outcome = transfer_outcome::completed;
  // The server on the shared in-memory driver (support/memory_session.hpp); a TLS handshake is
  // left for the test to report.
  netlab::test::memory_session<server_session, pair_hooks> m;
  server_session& server = m.core();
  std::optional<time_point>& wake = m.wake;
  const bool& control_closed = m.closed;

  explicit session_pair(server_config cfg = default_config())
      : m(server_session(std::move(cfg), fs), clock, pair_hooks{this}) {
    m.handshake = std::nullopt;
    fs.add_file("/readme.txt", "line one\nline two\n");
    fs.add_directory("/pub");
  }
  session_pair(const session_pair&) = delete;
  session_pair& operator=(const session_pair&) = delete;

  void deliver(const server_actions& actions) { m.execute(actions); }
  [[nodiscard]] bool tls_started() const { return m.tls_requests > 0; }
  [[nodiscard]] std::string_view pending_input() const { return m.unconsumed_text(); }

  void finish_transfer(const start_transfer& t) {
    std::uint64_t bytes = 0;
    if (outcome == transfer_outcome::completed) {
      if (t.kind == transfer_kind::send_listing) {
        downloaded = t.listing;
      } else if (t.kind == transfer_kind::send_file) {
        fs_status s;
        auto r = fs.open_read(t.path, t.offset, s);
        downloaded.clear();
        std::byte buf[7];
        for (std::ptrdiff_t n; (n = r->read(buf)) > 0;) downloaded += as_chars({buf, static_cast<std::size_t>(n)});
      } else {
        fs_status s;
        auto w = fs.open_write(t.path, t.append, t.offset, t.existing, s);
        w->write(as_bytes(upload));
        w->commit();
        bytes = upload.size();
      }
      bytes = bytes ? bytes : downloaded.size();
    }
    deliver(server.transfer_finished(outcome, bytes));
  }

  // Sends raw bytes as the client would (no client_session bookkeeping); returns the replies.
  std::vector<reply> raw(const std::string& bytes) {
    const std::size_t before = replies.size();
    m.feed(bytes);
    return {replies.begin() + static_cast<std::ptrdiff_t>(before), replies.end()};
  }

  // A pump: tick, then receive what is unconsumed.
  void feed() { m.pump(); }

  // Sends a command through the client session and returns its final reply (or 0 when none).
  reply cmd(const std::string& verb, const std::string& arg = {}) {
    const std::size_t before = replies.size();
    m.feed(client.send(command{verb, arg}));
    for (std::size_t i = replies.size(); i > before; --i) {
      if (!replies[i - 1].preliminary()) return replies[i - 1];
    }
    return reply{};
  }

  void advance(duration d) {
    clock.advance(d);
    m.wake_up();
  }

  void login(const std::string& user = "alice", const std::string& pass = "secret") {
    ASSERT_EQ(cmd("USER", user).code, 331);
    ASSERT_EQ(cmd("PASS", pass).code, 230);
  }
};

// As lab-ftp's transfer task: it reports to the core, then the input that waited is fed.
template <class Runner>
void pair_hooks::handle(Runner& r, start_transfer& t) {
  p->transfers.push_back(t);
  if (p->hold_transfers) return;
  p->finish_transfer(t);
  r.pump();
}

inline void pair_hooks::on_send(std::string_view bytes) {
  auto out = p->client.receive(as_bytes(bytes));
  for (auto& e : out.events) p->replies.push_back(e.value);
}

}  // namespace ftp_test
