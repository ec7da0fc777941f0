#pragma once
// The live side of an FTP replay: the control connection (commands out, parsed replies in) and one
// data connection at a time, passive (we connect to the address of the new server's 227/229
// reply) or active (we listen on the control connection's local address and the server connects
// to the address we sent in PORT/EPRT). Network trouble becomes error() text, never exceptions.
#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "netlib/core/bytes.hpp"
#include "netlib/ftp/reply.hpp"

namespace netlib::io {
class tcp_client;
class tcp_listener;
}  // namespace netlib::io

namespace netlab::replay {

class ftp_control {
 public:
  ftp_control(const std::string& host, unsigned short port, std::chrono::milliseconds timeout);
  ~ftp_control();
  ftp_control(const ftp_control&) = delete;
  ftp_control& operator=(const ftp_control&) = delete;

  bool send(std::string_view line);
  // The next complete reply, or nullopt (see error()).
  std::optional<netlib::ftp::reply> read_reply();
  // Our address on the control connection (where the server can reach us), empty if unconnected.
  [[nodiscard]] std::string local_host() const;
  [[nodiscard]] const std::string& error() const { return error_; }

 private:
  std::unique_ptr<netlib::io::tcp_client> client_;
  netlib::ftp::reply_parser parser_;
  netlib::input_buffer buffer_;
  std::string error_;
};

class ftp_data {
 public:
  explicit ftp_data(std::chrono::milliseconds timeout);
  ~ftp_data();
  ftp_data(const ftp_data&) = delete;
  ftp_data& operator=(const ftp_data&) = delete;

  // Passive: connect now.
  bool connect(const std::string& host, unsigned short port);
  // Active: listen on `host`, port 0; returns the port to announce.
  std::optional<unsigned short> listen(const std::string& host);
  // Reads until the server closes the data connection (accepting it first when active).
  std::optional<std::string> read_all();
  // Sends `bytes` and closes the data connection (end of file for the server).
  bool write_all(std::string_view bytes);
  void close();
  [[nodiscard]] const std::string& error() const { return error_; }

 private:
  bool ensure_connected();
  std::unique_ptr<netlib::io::tcp_client> client_;
  std::unique_ptr<netlib::io::tcp_listener> listener_;
  std::chrono::milliseconds timeout_;
  std::string error_;
};

}  // namespace netlab::replay
