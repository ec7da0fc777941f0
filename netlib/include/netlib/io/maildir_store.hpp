#pragma once
// The mail store on disk: one Maildir per user, DIR/name/{tmp,new,cur}.
//   Delivery: write DIR/name/tmp/<unique>, flush it to disk, rename it into DIR/name/new/, flush
//   new/, so a message is in new/ whole or not at all, even if the server dies mid-message, and is
//   durable (data and directory entry) when deliver() or write_batch() returns success.
//   Format: messages are given with CRLF line ends and stored with LF line ends (the Maildir
//   convention of qmail, Dovecot and mutt); the name ends in ",S=<file size>,W=<CRLF size>".
//   read() returns the file as stored; the POP3 core sends every line end as CRLF. Files stored
//   with CRLF line ends (older netlab versions) are read as they are, not rewritten.
//   Group commit: write_batch() stores many files with one flush of their data (syncfs: one
//   journal commit and one disk cache flush for the whole batch, where fsync per file costs one
//   each) and one flush of each new/ folder, instead of two flushes per file.
//   POP3: open() takes an exclusive flock on DIR/name/.pop3.lock (one session per mailbox, across
//   processes too), lists new/ and cur/, and removes files only when asked (the UPDATE state).
//   UIDs are the unique part of the file name (before ':' and ','), stable across sessions.
//   Sizes (RFC 1939 §11: octets with CRLF line ends) come from W= in the name, or, for a file
//   without it, from reading the file when the maildrop is opened.
//   Relay: messages accepted for remote recipients go to the Maildir DIR/.relay with the envelope
//   in X-Netlab-Envelope-From/-To header lines; nothing sends them on.
//   Spooling: a message can be written as it arrives (begin_spool: the SMTP server's DATA) into
//   tmp/ of the mailbox of its first copy, that copy's own header first; write_batch then delivers
//   that very file (flushed and renamed into new/ under its final name) and makes the other copies
//   from it (their own header, then the spool's shared part, copied). A spool that is not
//   delivered is removed from tmp/ when it is dropped.
//   Every file and folder is opened through the disk root (disk_root.hpp, link_policy::inside_root):
//   a symbolic link inside DIR is followed while it stays inside, one that leads out is refused.
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "netlib/io/disk_root.hpp"
#include "netlib/mail/mail_store.hpp"
#include "netlib/mail/message_spool.hpp"

namespace netlib::io {

class maildir_store : public mail::mail_store {
 public:
  // Creates `root` if needed (throws io_error when it cannot).
  explicit maildir_store(std::filesystem::path root);

  bool deliver(std::string_view user, std::string_view message) override;
  bool queue_relay(std::string_view sender, std::span<const std::string> recipients, std::string_view message) override;
  mail::open_result open(std::string_view user) override;

  // One file of a batch: `mailbox` is a user name or relay_mailbox; files with the same `group`
  // (the copies of one message) are stored all or none; `error` is set by write_batch to 0 when
  // the file is durable in new/, else to an errno value (and the file is not left in new/).
  class spool;
  // With `body`: the file is `bytes` (this copy's own header) and then the spool's shared part;
  // when `mailbox` is the spool's own, `bytes` is ignored and the spool file itself is delivered.
  struct batch_file {
    std::string mailbox;
    std::string_view bytes;
    std::size_t group = 0;
    int error = 0;
    const spool* body = nullptr;
  };
  static constexpr std::string_view relay_mailbox = ".relay";
  // Stores every file of the batch (group commit, see above). A failure of one file (ENOSPC at
  // write, a broken mailbox) fails only its group; a failed flush fails every file it covered.
  void write_batch(std::span<batch_file> files);
  // The relay copy of a message: the envelope as X-Netlab-Envelope-From/-To lines, then the message.
  static std::string relay_file(std::string_view sender, std::span<const std::string> recipients,
                                std::string_view message);

  // A message written as it arrives into tmp/ of `mailbox`: `own_header` (this copy's fields, CRLF)
  // then `shared` (what every copy has, e.g. the Received: field) now, the data by append().
  // nullptr when it cannot be made (`error`: the errno). Thread-safe like write_batch.
  std::shared_ptr<spool> begin_spool(const std::string& mailbox, std::string_view own_header, std::string_view shared,
                                     int& error);

  // Creates DIR/name/{tmp,new,cur}; false for an invalid name or an I/O error.
  bool ensure_mailbox(std::string_view user);
  [[nodiscard]] const std::filesystem::path& root() const noexcept { return root_; }
  // The UID of a Maildir file name (exposed for tests).
  static std::string uid_of(const std::string& file_name);

 private:
  int prepare_mailbox(const std::string& mailbox);
  std::filesystem::path root_;
  disk_root disk_;
};

// A message being written into tmp/ of its mailbox (maildir_store::begin_spool), LF line ends.
class maildir_store::spool final : public mail::spooled_message {
 public:
  spool(std::string mailbox, unique_fd tmp_dir, unique_fd new_dir, unique_fd fd, std::string name);
  ~spool() override;  // removes the file from tmp/ (after delivery it is in new/, under another name)
  spool(const spool&) = delete;
  spool& operator=(const spool&) = delete;
  bool append(std::string_view crlf_lines) override;
  [[nodiscard]] int error() const noexcept override { return error_; }

  [[nodiscard]] const std::string& mailbox() const noexcept { return mailbox_; }
  [[nodiscard]] const std::string& name() const noexcept { return name_; }
  [[nodiscard]] int fd() const noexcept { return fd_.get(); }
  [[nodiscard]] int tmp_dir() const noexcept { return tmp_dir_.get(); }
  [[nodiscard]] int new_dir() const noexcept { return new_dir_.get(); }
  // Sizes with LF line ends (as stored) and with CRLF ones (what POP3 counts): the whole file, and
  // the shared part (after the spool's own header).
  std::size_t size = 0, crlf_size = 0;
  std::size_t own_size = 0, own_crlf_size = 0;

 private:
  std::string mailbox_;
  unique_fd tmp_dir_, new_dir_, fd_;
  std::string name_;
  int error_ = 0;
};

}  // namespace netlib::io
