#pragma once
// An in-memory FTP client/server pair: a client_session talks to a server_session over strings;
// the test plays the driver, simulating the data connection from the server's actions.
#include <gtest/gtest.h>

#include <string>
#include <variant>
#include <vector>

#include "netlib/core/clock.hpp"
#include "netlib/ftp/client_session.hpp"
#include "netlib/ftp/memory_file_system.hpp"
#include "netlib/ftp/server_session.hpp"

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

struct session_pair {
  memory_file_system fs;
  server_session server;
  client_session client;
  virtual_clock clock;
  std::string upload;          // what the simulated client sends on the next receive_file
  std::string downloaded;      // what the last send_* transfer delivered
  std::vector<start_transfer> transfers;
  std::vector<reply> replies;  // every reply the client saw, in order
  bool hold_transfers = false; // leave transfers running (for ABOR/STAT tests)
  bool control_closed = false;
  bool tls_started = false;
  std::optional<time_point> wake;
  transfer_outcome outcome = transfer_outcome::completed;
  std::string pending_input;   // bytes the server did not consume yet

  explicit session_pair(server_config cfg = default_config()) : server(std::move(cfg), fs) {
    fs.add_file("/readme.txt", "line one\nline two\n");
    fs.add_directory("/pub");
    deliver(server.start(clock.reading()));
  }

  void deliver(const server_actions& actions) {
    for (const auto& a : actions) execute(a);
  }

  void execute(const server_action& a) {
    if (auto* r = std::get_if<send_bytes>(&a)) {
      auto out = client.receive(as_bytes(r->bytes));
      for (auto& e : out.events) replies.push_back(e.value);
    } else if (auto* p = std::get_if<open_passive>(&a)) {
      deliver(server.passive_opened("127.0.0.1", p->extended ? 50001 : 50000));
    } else if (auto* t = std::get_if<start_transfer>(&a)) {
      transfers.push_back(*t);
      if (!hold_transfers) finish_transfer(*t);
    } else if (std::holds_alternative<abort_transfer>(a)) {
      deliver(server.transfer_finished(transfer_outcome::aborted, 0));
    } else if (std::holds_alternative<close_connection>(a)) {
      control_closed = true;
    } else if (std::holds_alternative<start_tls>(a)) {
      tls_started = true;
    } else if (auto* w = std::get_if<wake_at>(&a)) {
      wake = w->when;
    }
  }

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
    pending_input += bytes;
    feed();
    return {replies.begin() + static_cast<std::ptrdiff_t>(before), replies.end()};
  }

  void feed() {
    deliver(server.tick(clock.reading()));
    auto out = server.receive(as_bytes(pending_input), clock.reading());
    pending_input.erase(0, out.consumed);
    deliver(out.actions);
  }

  // Sends a command through the client session and returns its final reply (or 0 when none).
  reply cmd(const std::string& verb, const std::string& arg = {}) {
    const std::size_t before = replies.size();
    pending_input += client.send(command{verb, arg});
    feed();
    for (std::size_t i = replies.size(); i > before; --i) {
      if (!replies[i - 1].preliminary()) return replies[i - 1];
    }
    return reply{};
  }

  void advance(duration d) {
    clock.advance(d);
    feed();
  }

  void login(const std::string& user = "alice", const std::string& pass = "secret") {
    ASSERT_EQ(cmd("USER", user).code, 331);
    ASSERT_EQ(cmd("PASS", pass).code, 230);
  }
};

}  // namespace ftp_test
