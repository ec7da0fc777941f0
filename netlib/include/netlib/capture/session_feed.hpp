#pragma once
// The one capture feed for passive session analyzers (docs/architecture.md, "The capture feed"):
// every recorded TCP conversation goes to a fresh analyzer, and what it observed is kept when the
// conversation closes. An analyzer provides client_bytes(bytes) and server_bytes(bytes), each
// optionally with the capture timestamp as a second argument, gap(from_client, size) and
// session() (the SMTP and POP3 session analyzers on netlib::dialogue_observer, ...).
//
//   netlib::capture::replay_stats stats;
//   auto found = netlib::capture::observe_sessions<netlib::smtp::session_analyzer>(path, stats);
//   for (const auto& f : found) ... f.conversation ... f.session ...   // in conversation order
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <type_traits>
#include <optional>
#include <string>
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
  void on_bytes(packet::tcp_direction d, byte_view bytes, time_point ts) override {
    const bool client = d == packet::tcp_direction::client_to_server;
    if constexpr (requires { analyzer_.client_bytes(bytes, ts); }) {
      client ? analyzer_.client_bytes(bytes, ts) : analyzer_.server_bytes(bytes, ts);
    } else {
      (void)ts;
      client ? analyzer_.client_bytes(bytes) : analyzer_.server_bytes(bytes);
    }
  }
  void on_gap(packet::tcp_direction d, std::uint64_t size, time_point) override {
    analyzer_.gap(d == packet::tcp_direction::client_to_server, static_cast<std::size_t>(size));
  }
  void on_close(const packet::tcp_conversation& c) override { out_.push_back({c, analyzer_.session()}); }

 private:
  std::vector<captured_session<Analyzer>>& out_;
  Analyzer analyzer_;
};

// Replays the capture with one Analyzer per conversation; returns what each observed that `keep`
// accepts, in conversation order (as tshark numbers tcp.stream). Throws capture_error for an
// unreadable file.
template <class Analyzer, class Keep>
std::vector<captured_session<Analyzer>> observe_sessions(const std::filesystem::path& path, replay_stats& stats,
                                                         Keep keep) {
  std::vector<captured_session<Analyzer>> found;
  stats = replay_conversations(path, [&found](const packet::tcp_conversation&) {
    return std::make_unique<session_feed<Analyzer>>(found);
  });
  std::erase_if(found, [&keep](const captured_session<Analyzer>& f) { return !keep(f); });
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.conversation.id < b.conversation.id; });
  return found;
}

// What sessions_of() read: every session, the packet count and what the capture lost.
template <class Analyzer>
struct sessions_read {
  std::uint64_t packets = 0;
  bool truncated = false;             // the capture ends inside a record
  std::uint64_t missing_bytes = 0;    // stream bytes the capture never saw
  std::optional<std::string> damage;  // damage_note(): those losses in words, for a warning
  std::vector<captured_session<Analyzer>> sessions;
};

// Every session of the capture. Throws capture_error for an unreadable file, or one that ends
// inside its first record (require_some_packet).
template <class Analyzer>
sessions_read<Analyzer> sessions_of(const std::filesystem::path& path) {
  replay_stats stats;
  sessions_read<Analyzer> read;
  read.sessions = observe_sessions<Analyzer>(path, stats, [](const captured_session<Analyzer>&) { return true; });
  require_some_packet(path.string(), stats);
  read.packets = stats.packets;
  read.truncated = stats.truncated_records > 0;
  read.missing_bytes = stats.missing_bytes;
  read.damage = damage_note(path.string(), stats);
  return read;
}

}  // namespace netlib::capture
