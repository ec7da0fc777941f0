#pragma once
// In-memory driver for the POP3 server core, as the live driver runs it.
#include <string>
#include <variant>
#include <vector>

#include "netlib/mail/memory_store.hpp"
#include "netlib/mail/users_table.hpp"
#include "netlib/pop3/server_session.hpp"
#include "support/split_feed.hpp"

namespace pop3_test {

struct fixture {
  netlib::mail::memory_store store;
  netlib::mail::users_table users = netlib::mail::users_table::parse("alice:secret\nbob:hunter2\n");
  netlib::pop3::server_config config{"pop.example.org", false, 20};
  fixture() {
    store.add_user("alice");
    store.add_user("bob");
    (void)store.deliver("alice", "Subject: one\r\n\r\nfirst\r\n");
    (void)store.deliver("alice", "Subject: two\r\n\r\n.dotted\r\nline 2\nline 3\r\n");
  }
};

struct transcript {
  std::string sent;
  bool closed = false;
  bool tls = false;
  std::size_t unconsumed = 0;
};

inline transcript run_pieces(netlib::pop3::server_session& s, const netlab::test::pieces& pieces, bool eof = false) {
  transcript t;
  netlib::input_buffer buf;
  const auto execute = [&](const std::vector<netlib::pop3::server_action>& actions) {
    for (const auto& a : actions) {
      if (const auto* r = std::get_if<netlib::send_bytes>(&a)) t.sent += r->bytes;
      else if (std::holds_alternative<netlib::start_tls>(a)) {
        t.tls = true;
        buf.clear();
        (void)s.tls_established(true);
      } else if (std::holds_alternative<netlib::close_connection>(a)) t.closed = true;
    }
  };
  const netlib::clock_reading now{};
  execute(s.start(now));
  for (auto piece : pieces) {
    if (t.closed) break;
    buf.append(piece);
    auto step = s.receive(buf.data(), now);
    buf.consume(step.consumed);
    execute(step.actions);
  }
  if (eof && !t.closed) execute(s.receive_eof());
  t.unconsumed = buf.size();
  return t;
}

inline transcript run(fixture& f, std::string_view input, bool eof = false) {
  netlib::pop3::server_session s(f.config, f.store, f.users);
  return run_pieces(s, netlab::test::pieces{input}, eof);
}

}  // namespace pop3_test
