// Fuzzes the POP3 server session with a maildrop holding two messages, behind a credentials guard
// whose held answers are released by ticks one second apart.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <variant>

#include "netlib/core/credentials_guard.hpp"
#include "netlib/core/users_table.hpp"
#include "netlib/mail/memory_store.hpp"
#include "netlib/pop3/server_session.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  static const auto users = netlib::users_table::parse("alice:secret\n");
  netlib::mail::memory_store store;
  store.add_user("alice");
  (void)store.deliver("alice", "Subject: a\r\n\r\n.x\r\n");
  (void)store.deliver("alice", "b\n");
  netlib::credentials_guard guard({.max_failures = 3, .delay = std::chrono::seconds(1)});
  netlib::pop3::server_session s({"h", (data[0] & 1) != 0, 20, "10.0.0.1", &guard}, store, users);
  netlib::virtual_clock clock;
  (void)s.start(clock.reading());
  const netlib::byte_view all(reinterpret_cast<const std::byte*>(data + 1), size - 1);
  const std::size_t cut = all.empty() ? 0 : data[0] % all.size();
  netlib::input_buffer buf;
  for (auto piece : {all.first(cut), all.subspan(cut)}) {
    buf.append(piece);
    for (int round = 0; round < 64; ++round) {  // a held PASS answer is given within 30 ticks
      clock.advance(std::chrono::seconds(1));
      (void)s.tick(clock.reading());
      const auto step = s.receive(buf.data(), clock.reading());
      if (step.consumed > buf.size()) __builtin_trap();
      buf.consume(step.consumed);
      for (const auto& a : step.actions)
        if (std::holds_alternative<netlib::start_tls>(a)) {
          buf.clear();
          (void)s.tls_established(true);
        }
      if (s.state() != netlib::pop3::server_state::pass_delayed) break;
    }
  }
  (void)s.receive_eof();
  return 0;
}
