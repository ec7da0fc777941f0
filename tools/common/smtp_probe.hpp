#pragma once
// An SMTP client connection for the suite: tcp_probe plus netlib::smtp::reply_parser.
#include <optional>

#include "netlib/smtp/reply.hpp"
#include "tcp_probe.hpp"

namespace netlab::grade {

class smtp_probe : public tcp_probe {
 public:
  using tcp_probe::tcp_probe;
  // The next complete (multi-line) reply, or nullopt (see error()).
  std::optional<netlib::smtp::reply> read_reply();

 private:
  netlib::smtp::reply_parser parser_;
};

}  // namespace netlab::grade
