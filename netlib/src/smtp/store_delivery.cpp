// Theory of operation: a synchronous executor for the deliver_message action (see the header).
// Every copy is attempted even after one failed, as the server did before deliveries became an
// action, so the result is the same whatever the order of the users.
#include "netlib/smtp/store_delivery.hpp"

#include "netlib/mail/message_text.hpp"

namespace netlib::smtp {

std::string local_copy(const deliver_message& message, std::string_view user, std::string_view domain) {
  std::string address(user);
  address.append("@").append(domain);
  return mail::final_delivery_copy(message.sender, address, message.message);
}

delivery_result deliver_to_store(mail::mail_store& store, const deliver_message& message, std::string_view domain) {
  bool ok = true;
  for (const auto& user : message.local_users) ok = store.deliver(user, local_copy(message, user, domain)) && ok;
  if (!message.relay_recipients.empty())
    ok = store.queue_relay(message.sender, message.relay_recipients, message.message) && ok;
  if (ok) return {};
  return {delivery_status::failed, ""};
}

}  // namespace netlib::smtp
