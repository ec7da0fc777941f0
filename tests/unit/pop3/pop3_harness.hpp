#pragma once
// The POP3 server core in memory, on the shared in-memory driver (support/memory_session.hpp, the
// twin of io::run_session).
#include <string>
#include <variant>
#include <vector>

#include "netlib/core/users_table.hpp"
#include "netlib/mail/memory_store.hpp"
#include "netlib/pop3/server_session.hpp"
#include "support/memory_session.hpp"
#include "support/split_feed.hpp"

namespace pop3_test {

struct fixture {
  netlib::mail::memory_store store;
  netlib::users_table users = netlib::users_table::parse("alice:secret\nbob:hunter2\n");
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

using memory_server = netlab::test::memory_session<netlib::pop3::server_session>;

inline transcript transcript_of(const memory_server& m) {
  return {m.sent, m.closed, m.tls_requests > 0, m.unconsumed()};
}

// A session over the pieces on the shared in-memory driver (a STLS handshake succeeds).
inline transcript run_pieces(fixture& f, const netlab::test::pieces& pieces, bool eof = false) {
  memory_server m(netlib::pop3::server_session(f.config, f.store, f.users));
  m.feed(pieces);
  if (eof) m.eof();
  return transcript_of(m);
}

inline transcript run(fixture& f, std::string_view input, bool eof = false) {
  return run_pieces(f, netlab::test::pieces{input}, eof);
}

}  // namespace pop3_test
