#pragma once
// The SMTP server core in memory, on the shared in-memory driver (support/memory_session.hpp, the
// twin of io::run_session): a deliver_message is stored in the fixture's memory store at once,
// answered with delivery_done(), and the input that waited is fed; what it sends is collected.
#include <chrono>
#include <string>
#include <variant>
#include <vector>

#include "netlib/core/users_table.hpp"
#include "netlib/mail/memory_store.hpp"
#include "netlib/smtp/client_session.hpp"
#include "netlib/smtp/server_session.hpp"
#include "netlib/smtp/store_delivery.hpp"
#include "support/memory_session.hpp"
#include "support/split_feed.hpp"

namespace smtp_test {

inline const netlib::clock_reading test_time{
    netlib::time_point{}, netlib::wall_time(std::chrono::seconds(1796028904))};  // Mon, 30 Nov 2026 08:55:04

struct server_fixture {
  netlib::mail::memory_store store;
  netlib::users_table users = netlib::users_table::parse("alice:secret\nbob:hunter2\n");
  netlib::smtp::server_config config;
  server_fixture() {
    config.hostname = "mx.example.org";
    config.domain = "example.org";
    store.add_user("alice");
    store.add_user("bob");
  }
};

struct transcript {
  std::string sent;        // every reply, concatenated
  std::vector<int> codes;  // the code of every reply line group, in order
  bool closed = false;
  bool tls_started = false;
  std::size_t unconsumed = 0;                             // bytes left in the buffer at the end
  std::vector<netlib::smtp::deliver_message> deliveries;  // every deliver_message, in order
};

// The SMTP core's own action, as lab-smtp's hooks run it: a deliver_message is stored in the
// fixture's memory store at once, answered with delivery_done(), and the input that waited behind
// it is fed (netlab::test::memory_session's pump). Every reply is kept with its code.
struct smtp_hooks {
  server_fixture* f;
  transcript* t;
  template <class Runner>
  void handle(Runner& r, netlib::smtp::deliver_message& d) {
    t->deliveries.push_back(d);
    r.execute(r.core().delivery_done(netlib::smtp::deliver_to_store(f->store, d, f->config.domain)));
    r.pump();
  }
  void on_send(std::string_view bytes) {
    t->sent += bytes;
    std::size_t pos = 0;
    while (pos < bytes.size()) {  // one code per reply (its last line has a space or is 3 digits)
      const auto eol = bytes.find("\r\n", pos);
      const std::string_view line = bytes.substr(pos, eol - pos);
      if (line.size() == 3 || line[3] == ' ') t->codes.push_back(std::stoi(std::string(line.substr(0, 3))));
      pos = eol + 2;
    }
  }
};
using memory_server = netlab::test::memory_session<netlib::smtp::server_session, smtp_hooks>;

// Runs a session over the pieces with the shared in-memory driver; on start_tls the unconsumed
// input is discarded (as the live driver does) and, when simulate_tls, the handshake succeeds so
// the session goes on; otherwise it never completes.
inline transcript run_pieces(server_fixture& f, const netlab::test::pieces& pieces, bool simulate_tls = false,
                             bool eof = false) {
  transcript t;
  netlib::virtual_clock clock(test_time.mono, test_time.wall);
  memory_server m(netlib::smtp::server_session(f.config, {"[127.0.0.1]:40000", "S1"}, f.users), clock,
                  smtp_hooks{&f, &t});
  if (!simulate_tls) m.handshake = std::nullopt;
  m.feed(pieces);
  if (eof) m.eof();
  t.closed = m.closed;
  t.tls_started = m.tls_requests > 0;
  t.unconsumed = m.unconsumed();
  return t;
}

inline transcript run_server(server_fixture& f, std::string_view input, bool simulate_tls = false, bool eof = false) {
  return run_pieces(f, netlab::test::pieces{input}, simulate_tls, eof);
}

}  // namespace smtp_test
