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
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
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

// The analyzer is made on the conversation's first byte or gap (one that carries nothing, a scan's
// SYN, costs no analyzer while it is open), and what it observed is kept at the close only when
// `keep` accepts it, and then only while it is among the `most` of lowest conversation id kept so
// far: memory follows the open conversations and the sessions kept, not every conversation of the
// capture (issue 31: a million SYN-only connections took 1.6 GB).
template <class Analyzer>
class session_feed : public stream_consumer {
 public:
  using found_type = captured_session<Analyzer>;
  using keep_type = std::function<bool(const found_type&)>;
  session_feed(std::vector<found_type>& out, const keep_type& keep, std::size_t most = SIZE_MAX)
      : out_(out), keep_(keep), most_(most) {}
  void on_bytes(packet::tcp_direction d, byte_view bytes, time_point ts) override {
    const bool client = d == packet::tcp_direction::client_to_server;
    Analyzer& a = get();
    if constexpr (requires { a.client_bytes(bytes, ts); }) {
      client ? a.client_bytes(bytes, ts) : a.server_bytes(bytes, ts);
    } else {
      (void)ts;
      client ? a.client_bytes(bytes) : a.server_bytes(bytes);
    }
  }
  void on_gap(packet::tcp_direction d, std::uint64_t size, time_point) override {
    get().gap(d == packet::tcp_direction::client_to_server, static_cast<std::size_t>(size));
  }
  void on_close(const packet::tcp_conversation& c) override {
    found_type f{c, analyzer_ ? analyzer_->session() : Analyzer{}.session()};
    if (most_ == 0 || (keep_ && !keep_(f))) return;
    if (out_.size() < most_) {
      out_.push_back(std::move(f));
      return;
    }
    const auto latest = std::max_element(
        out_.begin(), out_.end(), [](const auto& a, const auto& b) { return a.conversation.id < b.conversation.id; });
    if (f.conversation.id < latest->conversation.id) *latest = std::move(f);
  }

 private:
  Analyzer& get() {
    if (!analyzer_) analyzer_ = std::make_unique<Analyzer>();
    return *analyzer_;
  }
  std::vector<found_type>& out_;
  const keep_type& keep_;
  std::size_t most_;
  std::unique_ptr<Analyzer> analyzer_;
};

// Replays the capture with one Analyzer per conversation; returns what each observed that `keep`
// accepts (decided as each conversation closes), at most the `most` first, in conversation order
// (as tshark numbers tcp.stream). Throws capture_error for an unreadable file.
template <class Analyzer>
std::vector<captured_session<Analyzer>> observe_sessions(const std::filesystem::path& path, replay_stats& stats,
                                                         const typename session_feed<Analyzer>::keep_type& keep,
                                                         std::size_t most = SIZE_MAX) {
  std::vector<captured_session<Analyzer>> found;
  stats = replay_conversations(path, [&found, &keep, most](const packet::tcp_conversation&) {
    return std::make_unique<session_feed<Analyzer>>(found, keep, most);
  });
  std::sort(found.begin(), found.end(),
            [](const auto& a, const auto& b) { return a.conversation.id < b.conversation.id; });
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

// Every session of the capture that `keep` accepts (all without it). Throws capture_error for an
// unreadable file, or one that ends inside its first record (require_some_packet).
template <class Analyzer>
sessions_read<Analyzer> sessions_of(const std::filesystem::path& path,
                                    const typename session_feed<Analyzer>::keep_type& keep = {}) {
  replay_stats stats;
  sessions_read<Analyzer> read;
  read.sessions = observe_sessions<Analyzer>(path, stats, keep);
  require_some_packet(path.string(), stats);
  read.packets = stats.packets;
  read.truncated = stats.truncated_records > 0;
  read.missing_bytes = stats.missing_bytes;
  read.damage = damage_note(path.string(), stats);
  return read;
}

}  // namespace netlib::capture
