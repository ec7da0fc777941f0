#pragma once
// A blocking FTP client for the lab's client commands: netlib::io::tcp_client carries the
// control connection, netlib::ftp::client_session pairs replies with commands, and data
// connections are opened passively (EPSV, falling back to PASV) or actively (EPRT, falling back to
// PORT, with netlib::io::tcp_listener). --trace prints the control dialogue as it happens.
#include <chrono>
#include <deque>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "netlib/ftp/client_session.hpp"
#include "netlib/io/tcp_client.hpp"

namespace lab_ftp {

struct transfer_stats {
  std::uint64_t bytes = 0;  // on the data connection
  double seconds = 0;
  std::string data_command;  // the command that set up the data connection (EPSV, PASV, EPRT, PORT)
};

class ftp_client {
 public:
  explicit ftp_client(std::chrono::milliseconds timeout = std::chrono::seconds(20));
  ~ftp_client();

  // Writes "> CMD" and "< reply" lines to `out` as they happen (PASS is masked).
  void set_trace(std::ostream* out) { trace_ = out; }
  void set_passive(bool passive) { passive_ = passive; }
  [[nodiscard]] bool passive() const noexcept { return passive_; }
  void set_ascii(bool ascii) { ascii_ = ascii; }
  [[nodiscard]] bool ascii() const noexcept { return ascii_; }
  [[nodiscard]] bool connected() const noexcept { return connected_; }

  // Connects and reads the greeting; throws netlib::app::failure on any error.
  void open(const std::string& host, unsigned short port);
  void login(const std::string& user, const std::string& password);
  // Sends one command, returns its final reply (preliminary 1yz replies are traced only).
  netlib::ftp::reply command(const std::string& verb, const std::string& argument = {});
  // Like command(), but a failure reply (4yz/5yz) throws failure naming the command.
  netlib::ftp::reply expect_ok(const std::string& verb, const std::string& argument = {});

  transfer_stats retrieve(const std::string& path, const std::function<void(std::string_view)>& sink);
  transfer_stats store(const std::string& path, std::istream& source, bool append = false);
  transfer_stats list(const std::string& path, bool names_only, std::string& out);
  std::string pwd();
  void quit();

 private:
  struct data_channel;
  netlib::ftp::client_event next_event();  // the next reply, preliminary or final
  netlib::ftp::reply final_reply();        // skips preliminary replies
  void send_line(const std::string& verb, const std::string& argument);
  data_channel open_data();
  transfer_stats transfer(const std::string& verb, const std::string& arg,
                          const std::function<void(netlib::io::tcp_client&, transfer_stats&)>& body);
  void set_type(bool ascii);

  std::chrono::milliseconds timeout_;
  netlib::io::tcp_client control_;
  netlib::ftp::client_session session_;
  netlib::input_buffer in_;
  std::deque<netlib::ftp::client_event> events_;
  std::string host_;
  std::ostream* trace_ = nullptr;
  bool passive_ = true;
  bool ascii_ = false;
  bool connected_ = false;
  bool extended_failed_ = false;  // EPSV/EPRT refused once: use PASV/PORT from then on
  int type_ = -1;                 // TYPE last set: 1 ascii, 0 image
};

}  // namespace lab_ftp
