#pragma once
// One FTP control connection on the live driver (run_session, docs/architecture.md "The live
// driver"): the ftp::server_session core, with hooks for FTP's own actions (open_passive,
// close_passive, start_transfer, abort_transfer) that run ftp_data_connection for the data side.
// No protocol knowledge lives here.
//
//   tcp_server server(opts, [&](connection& c) { return ftp_handle_control(c, settings); });
#include <atomic>
#include <functional>
#include <memory>
#include <string>

#include "netlib/ftp/file_system.hpp"
#include "netlib/ftp/server_session.hpp"
#include "netlib/io/connection.hpp"
#include "netlib/io/ftp_data_connection.hpp"

namespace netlib::io {

struct ftp_server_settings {
  ftp::server_config session;  // users, writable, limits, guard; peer_address is filled per connection
  ftp_data_options data;
  ftp::file_system* files = nullptr;  // shared by all sessions; must outlive the server
  // Called with one line per event (commands, replies, transfers) when set; for --verbose logs.
  std::function<void(const std::string&)> log;
};

awaitable<void> ftp_handle_control(connection& c, const ftp_server_settings& settings);

}  // namespace netlib::io
