// Fuzzes the SMTP server session: the first byte picks a split point and whether TLS is
// available; the rest is fed as client input in two pieces, with STARTTLS honoured, behind a
// credentials guard whose held answers are released by ticks one second apart.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <variant>

#include "netlib/core/credentials_guard.hpp"
#include "netlib/core/users_table.hpp"
#include "netlib/mail/memory_store.hpp"
#include "netlib/smtp/server_session.hpp"
#include "netlib/smtp/store_delivery.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  static const auto users = netlib::users_table::parse("alice:secret\n");
  netlib::mail::memory_store store;
  store.add_user("alice");
  netlib::smtp::server_config cfg;
  cfg.domain = "example.org";
  cfg.tls_available = (data[0] & 1) != 0;
  cfg.max_message_bytes = 4096;
  netlib::credentials_guard guard({.max_failures = 3, .delay = std::chrono::seconds(1)});
  cfg.guard = &guard;
  netlib::smtp::server_session s(cfg, {}, users);
  netlib::virtual_clock clock;
  (void)s.start(clock.reading());
  const netlib::byte_view all(reinterpret_cast<const std::byte*>(data + 1), size - 1);
  const std::size_t cut = all.empty() ? 0 : data[0] % all.size();
  netlib::input_buffer buf;
  for (auto piece : {all.first(cut), all.subspan(cut)}) {
    buf.append(piece);
    // After a delivery or a held AUTH answer the session reads on (bounded: a delivery consumed at
    // least its "." line, a held answer is given within 30 ticks); every other delivery fails, so
    // both replies are exercised.
    bool again = true;
    for (int round = 0; again && round < 100000; ++round) {
      clock.advance(std::chrono::seconds(1));
      (void)s.tick(clock.reading());  // a held AUTH answer's turn
      const auto step = s.receive(buf.data(), clock.reading());
      if (step.consumed > buf.size()) __builtin_trap();
      buf.consume(step.consumed);
      again = s.state() == netlib::smtp::server_state::auth_delayed;
      for (const auto& a : step.actions) {
        if (std::holds_alternative<netlib::start_tls>(a)) {
          buf.clear();
          (void)s.tls_established(true);
        } else if (const auto* d = std::get_if<netlib::smtp::deliver_message>(&a)) {
          if (step.consumed == 0) __builtin_trap();
          const bool fail = (d->message.size() & 1) != 0;
          (void)s.delivery_done(fail ? netlib::smtp::delivery_result{netlib::smtp::delivery_status::failed, "x"}
                                     : netlib::smtp::deliver_to_store(store, *d, cfg.domain));
          again = true;
        }
      }
    }
  }
  (void)s.receive_eof();
  return 0;
}
