#pragma once
// Executes a deliver_message action at once against a mail::mail_store (the in-memory store of
// tests and simulations, or any store whose deliver() is durable when it returns):
//
//   if (auto* d = std::get_if<smtp::deliver_message>(&action))
//     execute(session.delivery_done(smtp::deliver_to_store(store, *d, config.domain)));
//
// The live server does not use it: it batches deliveries (netlib::io::smtp_delivery_queue), with
// the same copies (local_copy).
#include <string>
#include <string_view>

#include "netlib/mail/mail_store.hpp"
#include "netlib/smtp/server_session.hpp"

namespace netlib::smtp {

// The copy stored for local user `user` at final delivery (RFC 5321 §4.4): Return-Path with the
// envelope sender, Delivered-To: user@domain, then the message (mail::final_delivery_copy).
[[nodiscard]] std::string local_copy(const deliver_message& message, std::string_view user, std::string_view domain);

// One copy per local user (local_copy), one for the relay queue (the message as received: the
// relay agent is not the final delivery) when there are relay recipients; `stored` only when every
// copy was stored, `failed` otherwise (copies already stored stay stored).
[[nodiscard]] delivery_result deliver_to_store(mail::mail_store& store, const deliver_message& message,
                                               std::string_view domain);

}  // namespace netlib::smtp
