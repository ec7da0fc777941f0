#pragma once
// FTP data connections for the FTP suite: passive (we connect to the address of a 227/229 reply)
// and active (we listen and the server connects to the address we sent in PORT). Both read until
// the server closes the data connection. Failures become error text, never exceptions.
#include <chrono>
#include <memory>
#include <optional>
#include <string>

namespace netlab::grade {

class data_channel {
 public:
  explicit data_channel(std::chrono::milliseconds timeout);
  ~data_channel();
  data_channel(const data_channel&) = delete;
  data_channel& operator=(const data_channel&) = delete;

  // Passive: connect now.
  bool connect(const std::string& host, unsigned short port);
  // Active: listen on 127.0.0.1, port 0; the port to announce with PORT.
  std::optional<unsigned short> listen();
  // Reads everything the server sends on the data connection (accepting it first when active).
  std::optional<std::string> read_all();
  [[nodiscard]] const std::string& error() const { return error_; }

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
  std::chrono::milliseconds timeout_;
  std::string error_;
};

}  // namespace netlab::grade
