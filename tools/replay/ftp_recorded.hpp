#pragma once
// The recorded side of an FTP replay: one control conversation read into steps (each command line
// with the reply codes it got: 1yz preliminaries, then the final one) and, for each transfer
// command, the bytes of the recorded data connection it used. A data connection is found through
// the data set-up before the command: the address of a 227/229 reply (passive; a 229 names only
// the port, the host is the control connection's server) or of a PORT/EPRT argument (active).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "recorded.hpp"

namespace netlab::replay {

struct ftp_recorded_transfer {
  bool upload = false;  // STOR/STOU/APPE: the client sent the bytes
  bool found = false;   // the data connection is in the capture
  std::uint64_t conversation = 0;
  std::string data;  // the bytes the data connection carried (in the transfer's direction)
};

struct ftp_step {
  std::size_t begin = 0;  // the command line in the client stream, CRLF included
  std::size_t end = 0;
  std::string verb;  // upper case
  std::string argument;
  std::vector<int> codes;                         // recorded replies in order; empty when unanswered
  std::optional<ftp_recorded_transfer> transfer;  // transfer verbs only
};

struct ftp_dialogue {
  std::optional<int> greeting;
  std::string client_host;  // the control connection's client address as recorded
  std::string server_host;
  std::vector<ftp_step> steps;
  std::vector<std::uint64_t> data_conversations;  // this session's data connections
};

// `all` is every conversation of the capture (to find the data connections).
ftp_dialogue read_ftp_dialogue(const recorded_conversation& control, const std::vector<recorded_conversation>& all);

// "HOST:PORT" as netlib::packet endpoints print it ("[::1]:21" for IPv6), host normalised.
std::string endpoint_key(const std::string& host, unsigned short port);
// The host part of an endpoint text ("127.0.0.1:21" -> "127.0.0.1", "[::1]:21" -> "::1").
std::string endpoint_host(const std::string& endpoint);

}  // namespace netlab::replay
