#pragma once
// One FTP data connection on the server side (RFC 959 §3.2-3.3, RFC 2428, RFC 2577), driven by
// the control driver: listen() for PASV/EPSV on a port from a range, accept() only from the
// control peer's address (RFC 2577 §3: other connections are closed and counted), or connect()
// to a PORT/EPRT target; then run() streams a file, a listing or an upload with TYPE A
// conversion and a no-progress timeout. abort() (ABOR, disconnect) stops whatever is running.
// With PROT P the data connection's TLS handshake must resume the control connection's session
// (vsftpd's require_ssl_reuse): a client that connects to the passive port first, even from the
// control peer's address, cannot, since it does not hold that session; its connection is closed
// and the transfer answered 522 (transfer_outcome::tls_not_resumed).
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "netlib/ftp/file_system.hpp"
#include "netlib/ftp/server_action.hpp"
#include "netlib/io/asio.hpp"

namespace netlib::io {

struct ftp_data_options {
  unsigned short port_min = 0;  // passive port range; 0/0 lets the system choose
  unsigned short port_max = 0;
  std::chrono::milliseconds connect_timeout{std::chrono::seconds(10)};  // accept or connect
  std::chrono::milliseconds idle_timeout{std::chrono::seconds(30)};     // no data moving
  std::shared_ptr<ssl::context> tls;                                    // PROT P
  // The control connection's session tag (connection::tls_session_tag): the data connection's
  // TLS session must resume a session bound to it. Empty: any resumed session is accepted.
  std::string tls_session_tag;
};

struct ftp_transfer_result {
  ftp::transfer_outcome outcome = ftp::transfer_outcome::completed;
  std::uint64_t bytes = 0;  // bytes on the data connection
};

class ftp_data_connection : public std::enable_shared_from_this<ftp_data_connection> {
 public:
  ftp_data_connection(asio::any_io_executor ex, ftp_data_options options);
  ~ftp_data_connection();

  // Binds a listener on `local` with a port from the range; false when none is free.
  bool listen(const asio::ip::address& local);
  [[nodiscard]] unsigned short port() const;
  // Waits for the client's connection; connections from other addresses are refused.
  awaitable<bool> accept(const asio::ip::address& expected_peer);
  awaitable<bool> connect(const tcp::endpoint& target, const asio::ip::address& local);
  // `keep` is asked before an upload is committed: false (e.g. the control connection is gone)
  // discards it, so an upload is stored only while its session is alive.
  awaitable<ftp_transfer_result> run(const ftp::start_transfer& t, ftp::file_system& fs,
                                     std::function<bool()> keep = {});
  void abort();
  [[nodiscard]] std::size_t refused() const noexcept { return refused_; }
  [[nodiscard]] bool aborted() const noexcept { return aborted_; }

 private:
  struct stream;
  awaitable<void> watchdog(std::shared_ptr<ftp_data_connection> self);
  void arm(std::chrono::milliseconds timeout);
  awaitable<ftp::transfer_outcome> secure();
  awaitable<ftp_transfer_result> send(const ftp::start_transfer& t, ftp::file_system& fs);
  awaitable<ftp_transfer_result> send_whole_file(int fd);
  awaitable<ftp_transfer_result> send_copied(const ftp::start_transfer& t, ftp::file_reader* reader);
  awaitable<ftp_transfer_result> receive(const ftp::start_transfer& t, ftp::file_system& fs,
                                         const std::function<bool()>& keep);
  void close_all();

  asio::any_io_executor ex_;
  ftp_data_options options_;
  tcp::acceptor acceptor_;
  tcp::socket socket_;
  std::unique_ptr<ssl::stream<tcp::socket&>> tls_;
  asio::steady_timer timer_;
  std::chrono::steady_clock::time_point deadline_;
  bool watching_ = false;
  bool aborted_ = false;
  bool timed_out_ = false;
  bool finished_ = false;
  std::size_t refused_ = 0;
};

}  // namespace netlib::io
