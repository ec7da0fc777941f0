#pragma once
// The mail store as the SMTP and POP3 cores see it: an injected interface (docs/architecture.md, "Protocol cores never
// do I/O"). Delivery stores one message for one local user whole or not at all; a POP3 session opens one user's
// maildrop, which stays locked (one session per mailbox, RFC 1939 §8) until the returned mailbox object is destroyed.
// netlib::mail::memory_store is the in-memory version for tests; netlib::io::maildir_store keeps the messages in
// Maildir folders.
#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace netlib::mail {

// One message of an open maildrop, as POP3 lists it.
struct message_info {
  std::string uid;       // stable across sessions, 1..70 chars in 0x21..0x7E (RFC 1939 §7 UIDL)
  std::size_t size = 0;  // octets with CRLF line ends, as RETR sends it before byte-stuffing
};

// One user's maildrop, locked while this object lives. Indices are 0-based positions in the
// snapshot taken when it was opened (POP3 message numbers are index + 1).
class mailbox {
 public:
  virtual ~mailbox() = default;
  [[nodiscard]] virtual const std::vector<message_info>& messages() const = 0;
  // The message's bytes as stored, or nullopt when it cannot be read any more.
  [[nodiscard]] virtual std::optional<std::string> read(std::size_t index) = 0;
  // Removes the given messages (the POP3 UPDATE state); returns how many could not be removed.
  virtual std::size_t remove(std::span<const std::size_t> indices) = 0;
};

enum class open_status { opened, no_such_user, locked, failed };

struct open_result {
  open_status status = open_status::failed;
  std::unique_ptr<mailbox> box;  // set when status == opened
};

class mail_store {
 public:
  virtual ~mail_store() = default;
  // Stores `message` in the maildrop of local user `user`, whole or not at all.
  virtual bool deliver(std::string_view user, std::string_view message) = 0;
  // Keeps a message accepted for relay to remote recipients (authenticated submission) for a
  // relay agent; the lab stores it, it does not send it on.
  virtual bool queue_relay(std::string_view sender, std::span<const std::string> recipients,
                           std::string_view message) = 0;
  // Opens and locks a user's maildrop.
  virtual open_result open(std::string_view user) = 0;
};

}  // namespace netlib::mail
