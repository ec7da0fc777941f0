#pragma once
// In-memory drivers for the SMTP cores: feed pieces to a server session exactly as the live
// driver does (input_buffer, consume, execute actions; a deliver_message is stored in the
// fixture's memory store at once, answered with delivery_done(), and the buffer fed again) and
// collect what it sends.
#include <chrono>
#include <functional>
#include <string>
#include <variant>
#include <vector>

#include "netlib/mail/memory_store.hpp"
#include "netlib/mail/users_table.hpp"
#include "netlib/smtp/client_session.hpp"
#include "netlib/smtp/server_session.hpp"
#include "netlib/smtp/store_delivery.hpp"
#include "support/split_feed.hpp"

namespace smtp_test {

inline const netlib::clock_reading test_time{netlib::time_point{},
                                             netlib::wall_time(std::chrono::seconds(1796028904))};  // Mon, 30 Nov 2026 08:55:04

struct server_fixture {
  netlib::mail::memory_store store;
  netlib::mail::users_table users = netlib::mail::users_table::parse("alice:secret\nbob:hunter2\n");
  netlib::smtp::server_config config;
  server_fixture() {
    config.hostname = "mx.example.org";
    config.domain = "example.org";
    store.add_user("alice");
    store.add_user("bob");
  }
};

struct transcript {
  std::string sent;          // every reply, concatenated
  std::vector<int> codes;    // the code of every reply line group, in order
  bool closed = false;
  bool tls_started = false;
  std::size_t unconsumed = 0;  // bytes left in the buffer at the end
  std::vector<netlib::smtp::deliver_message> deliveries;  // every deliver_message, in order
};

// Runs a session over the pieces; on start_tls the buffer is discarded (as the live driver does)
// and, when simulate_tls, tls_established(true) is called so the session goes on.
inline transcript run_pieces(server_fixture& f, const netlab::test::pieces& pieces, bool simulate_tls = false,
                             bool eof = false) {
  netlib::smtp::server_session s(f.config, {"[127.0.0.1]:40000", "S1"}, f.users);
  transcript t;
  std::function<void(const std::vector<netlib::smtp::server_action>&, netlib::input_buffer&)> execute;
  execute = [&](const std::vector<netlib::smtp::server_action>& actions, netlib::input_buffer& buf) {
    for (const auto& a : actions) {
      if (const auto* d = std::get_if<netlib::smtp::deliver_message>(&a)) {
        t.deliveries.push_back(*d);
        execute(s.delivery_done(netlib::smtp::deliver_to_store(f.store, *d, f.config.domain)), buf);
        continue;
      }
      if (const auto* r = std::get_if<netlib::send_bytes>(&a)) {
        t.sent += r->bytes;
        std::size_t pos = 0;
        while (pos < r->bytes.size()) {  // one code per reply (last line has a space or is 3 digits)
          const auto eol = r->bytes.find("\r\n", pos);
          const std::string line = r->bytes.substr(pos, eol - pos);
          if (line.size() == 3 || line[3] == ' ') t.codes.push_back(std::stoi(line.substr(0, 3)));
          pos = eol + 2;
        }
      } else if (std::holds_alternative<netlib::start_tls>(a)) {
        t.tls_started = true;
        buf.clear();
        if (simulate_tls) execute(s.tls_established(true), buf);
      } else if (std::holds_alternative<netlib::close_connection>(a)) {
        t.closed = true;
      }
    }
  };
  netlib::input_buffer buf;
  execute(s.start(test_time), buf);
  for (auto piece : pieces) {
    if (t.closed) break;
    buf.append(piece);
    // After a delivery the session reads on: pipelined commands wait in the buffer (bounded:
    // each delivery consumed at least its "." line).
    for (bool delivered = true; delivered && !t.closed;) {
      auto step = s.receive(buf.data(), test_time);
      buf.consume(step.consumed);
      delivered = !step.actions.empty() && std::holds_alternative<netlib::smtp::deliver_message>(step.actions.back());
      execute(step.actions, buf);
    }
  }
  if (eof && !t.closed) execute(s.receive_eof(), buf);
  t.unconsumed = buf.size();
  return t;
}

inline transcript run_server(server_fixture& f, std::string_view input, bool simulate_tls = false, bool eof = false) {
  return run_pieces(f, netlab::test::pieces{input}, simulate_tls, eof);
}

}  // namespace smtp_test
