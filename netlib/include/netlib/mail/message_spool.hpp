#pragma once
// A message written out as it arrives, so that no session holds a whole message in memory
// (issue 31: 95 SMTP sessions each sending 10 MB took 1.24 GB before their final dot). The SMTP
// core appends the data lines as they come and hands the spooled message on for delivery at the
// end; a spooled message that is dropped before that (a refused message, a client gone) leaves
// nothing behind. netlib::io's Maildir store writes it into tmp/ of the mailbox of its first copy,
// which is then the file that is delivered (docs/architecture.md, "Mail store").
#include <cstddef>
#include <string_view>

namespace netlib::mail {

class spooled_message {
 public:
  virtual ~spooled_message() = default;  // not delivered: removed
  // Appends data: whole lines with CRLF line ends. False when it could not be written (error()).
  virtual bool append(std::string_view crlf_lines) = 0;
  // The errno of the first failure (ENOSPC: the disk is full), 0 while there is none.
  [[nodiscard]] virtual int error() const noexcept = 0;
};

}  // namespace netlib::mail
