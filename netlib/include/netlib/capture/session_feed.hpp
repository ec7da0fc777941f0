#pragma once
// Feeds one recorded TCP conversation into a passive session analyzer (SMTP, POP3, ...) and keeps
// the session it observed when the conversation closes. An analyzer provides client_bytes(bytes),
// server_bytes(bytes), gap(from_client, size) and session().
//
//   std::vector<netlib::capture::captured_session<netlib::smtp::session_analyzer>> found;
//   netlib::capture::replay_conversations(path, [&found](const auto&) {
//     return std::make_unique<netlib::capture::session_feed<netlib::smtp::session_analyzer>>(found);
//   });
#include <type_traits>
#include <utility>
#include <vector>

#include "netlib/capture/tcp_replay.hpp"

namespace netlib::capture {

template <class Analyzer>
struct captured_session {
  packet::tcp_conversation conversation;
  std::remove_cvref_t<decltype(std::declval<Analyzer&>().session())> session;
};

template <class Analyzer>
class session_feed : public stream_consumer {
 public:
  explicit session_feed(std::vector<captured_session<Analyzer>>& out) : out_(out) {}
  void on_bytes(packet::tcp_direction d, byte_view bytes, time_point) override {
    if (d == packet::tcp_direction::client_to_server) analyzer_.client_bytes(bytes);
    else analyzer_.server_bytes(bytes);
  }
  void on_gap(packet::tcp_direction d, std::uint64_t size, time_point) override {
    analyzer_.gap(d == packet::tcp_direction::client_to_server, size);
  }
  void on_close(const packet::tcp_conversation& c) override { out_.push_back({c, analyzer_.session()}); }

 private:
  std::vector<captured_session<Analyzer>>& out_;
  Analyzer analyzer_;
};

}  // namespace netlib::capture
