#pragma once
// One client connection of the SMTP suite: send command lines, read (multi-line) replies with
// netlib::smtp::reply_parser, watch for the server closing. Network trouble and timeouts become
// error() text (a failed check), never exceptions.
#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "netlib/core/bytes.hpp"
#include "netlib/smtp/reply.hpp"

namespace netlib::io {
class tcp_client;
}

namespace netlab::grade {

class smtp_probe {
 public:
  smtp_probe(const std::string& host, unsigned short port, std::chrono::milliseconds timeout);
  ~smtp_probe();
  smtp_probe(const smtp_probe&) = delete;
  smtp_probe& operator=(const smtp_probe&) = delete;

  // Sends raw bytes (a command line must end with CRLF).
  bool send(std::string_view bytes);
  // The next complete reply, or nullopt (see error()).
  std::optional<netlib::smtp::reply> read_reply();
  // Reads until the server closes (true) or the timeout passes (false).
  bool wait_closed();
  [[nodiscard]] const std::string& error() const { return error_; }
  [[nodiscard]] const std::string& sent() const { return sent_; }
  [[nodiscard]] const std::string& received() const { return received_; }

 private:
  bool read_more();
  std::unique_ptr<netlib::io::tcp_client> client_;
  netlib::smtp::reply_parser parser_;
  netlib::input_buffer buffer_;
  std::string sent_;
  std::string received_;
  std::string error_;
  bool eof_ = false;
};

}  // namespace netlab::grade
