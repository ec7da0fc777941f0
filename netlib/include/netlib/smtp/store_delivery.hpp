#pragma once
// Executes a deliver_message action at once against a mail::mail_store (the in-memory store of
// tests and simulations, or any store whose deliver() is durable when it returns):
//
//   if (auto* d = std::get_if<smtp::deliver_message>(&action))
//     execute(session.delivery_done(smtp::deliver_to_store(store, *d)));
//
// The live server does not use it: it batches deliveries (netlib::io::smtp_delivery_queue).
#include "netlib/mail/mail_store.hpp"
#include "netlib/smtp/server_session.hpp"

namespace netlib::smtp {

// One copy per local user, one for the relay queue when there are relay recipients; `stored`
// only when every copy was stored, `failed` otherwise (copies already stored stay stored).
[[nodiscard]] delivery_result deliver_to_store(mail::mail_store& store, const deliver_message& message);

}  // namespace netlib::smtp
