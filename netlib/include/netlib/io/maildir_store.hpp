#pragma once
// The mail store on disk: one Maildir per user, DIR/name/{tmp,new,cur}.
//   Delivery: write DIR/name/tmp/<unique>, fsync it, rename it into DIR/name/new/, fsync new/, so a
//   message is in new/ whole or not at all, even if the server dies mid-message.
//   POP3: open() takes an exclusive flock on DIR/name/.pop3.lock (one session per mailbox, across
//   processes too), lists new/ and cur/, and removes files only when asked (the UPDATE state).
//   UIDs are the unique part of the file name (before ':' and ','), stable across sessions.
//   Relay: messages accepted for remote recipients go to the Maildir DIR/.relay with the envelope
//   in X-Netlab-Envelope-From/-To header lines; nothing sends them on.
#include <filesystem>
#include <string>

#include "netlib/mail/mail_store.hpp"

namespace netlib::io {

class maildir_store : public mail::mail_store {
 public:
  // Creates `root` if needed (throws io_error when it cannot).
  explicit maildir_store(std::filesystem::path root);

  bool deliver(std::string_view user, std::string_view message) override;
  bool queue_relay(std::string_view sender, std::span<const std::string> recipients,
                   std::string_view message) override;
  mail::open_result open(std::string_view user) override;

  // Creates DIR/name/{tmp,new,cur}; false for an invalid name or an I/O error.
  bool ensure_mailbox(std::string_view user);
  [[nodiscard]] const std::filesystem::path& root() const noexcept { return root_; }
  // The UID of a Maildir file name (exposed for tests).
  static std::string uid_of(const std::string& file_name);

 private:
  bool store_in(const std::filesystem::path& maildir, std::string_view message);
  std::filesystem::path root_;
};

}  // namespace netlib::io
