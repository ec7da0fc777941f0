#pragma once
// FTP sessions recovered from a capture: the capture driver (netlib::capture::replay_tcp) feeds
// every TCP conversation; control conversations (server port 21, or a server that opens with a
// 220 reply) go through ftp::control_analyzer; every conversation's directions are hashed; at
// the end each data set-up (PASV/EPSV/PORT/EPRT) is matched to the data conversation that used
// its address, and that to the transfer command that followed the set-up.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "netlib/capture/tcp_replay.hpp"
#include "netlib/ftp/control_analyzer.hpp"
#include "netlib/packet/tcp_conversation.hpp"

namespace netlib::capture {

struct ftp_transfer {
  std::string command;  // RETR, STOR, LIST...
  std::string path;
  std::optional<int> reply_code;
  bool passive = true;
  std::string setup;      // PASV, EPSV, PORT, EPRT
  std::string direction;  // "download" (server to client) or "upload"
  std::uint64_t bytes = 0;
  std::string sha256;
  std::uint64_t gap_bytes = 0;
  double seconds = 0;
  std::string data_client, data_server;  // endpoints of the data connection
};

struct ftp_session {
  netlib::packet::tcp_conversation control;
  std::optional<netlib::ftp::reply> greeting;
  std::vector<netlib::ftp::command_record> commands;
  std::vector<ftp_transfer> transfers;
  std::size_t setups_without_data = 0;  // the data connection was not in the capture
  std::size_t malformed_lines = 0;
};

struct ftp_capture_report {
  std::vector<ftp_session> sessions;
  std::uint64_t packets = 0;
  std::uint64_t conversations = 0;
  std::uint64_t decode_errors = 0;
  netlib::capture::replay_stats stats;  // all of the above and more: truncated records, missing bytes
};

ftp_capture_report find_ftp_sessions(const std::string& path, std::uint16_t control_port);

}  // namespace netlib::capture
