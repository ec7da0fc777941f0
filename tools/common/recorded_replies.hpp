#pragma once
// The replies in a recorded server stream, read with the protocol's own reply parser
// (netlib::ftp::reply_parser): a multi-line reply is one reply.
// Reading stops at the first malformed reply, or at an incomplete one where the recording ends.
// netlab-replay's FTP compares what a server answers now with these; netlab-grade's FTP client
// suite pairs a student client's commands with them. (SMTP and POP3 dialogues are read by their
// session analyzers instead: docs/architecture.md, "The capture feed".)
//
//   std::vector<std::size_t> ends;
//   const auto replies = netlab::recorded_replies<netlib::ftp::reply_parser>(server, &ends);
#include <cstddef>
#include <string_view>
#include <utility>
#include <vector>

#include "netlib/core/bytes.hpp"

namespace netlab {

// `ends`, when given, gets where each reply ends in `server` (one past its last byte).
template <class ReplyParser>
auto recorded_replies(std::string_view server, std::vector<std::size_t>* ends = nullptr) {
  ReplyParser parser;
  std::vector<decltype(parser.next(netlib::byte_view{}).value)> out;
  std::size_t offset = 0;
  for (int round = 0; round < 1000000 && offset < server.size(); ++round) {
    auto r = parser.next(netlib::as_bytes(server.substr(offset)));
    offset += r.consumed;
    if (r.status != decltype(r.status)::reply) break;
    out.push_back(std::move(r.value));
    if (ends) ends->push_back(offset);
  }
  return out;
}

}  // namespace netlab
