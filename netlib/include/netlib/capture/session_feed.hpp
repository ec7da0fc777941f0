#pragma once
// The one capture feed for passive session analyzers (docs/architecture.md, "The capture feed"):
// every recorded TCP conversation goes to a fresh analyzer, and what it observed is handed on when
// the conversation closes. An analyzer provides client_bytes(bytes) and server_bytes(bytes), each
// optionally with the capture timestamp as a second argument, gap(from_client, size) and
// session() (the SMTP and POP3 session analyzers on netlib::dialogue_observer, the HTTP
// netlib::http::transaction_analyzer, ...). Two things are optional, found with `requires`:
//   - a constructor from the conversation's id (std::uint64_t, tshark's tcp.stream), used when
//     the analyzer has one (the HTTP analyzer stamps each transaction with it); otherwise the
//     analyzer is default-constructed;
//   - end_of_stream(from_client, ts), called when a direction's stream ends (a FIN), for an
//     analyzer that has bytes to finish (a close-delimited HTTP body).
//
//   netlib::capture::replay_stats stats;
//   auto found = netlib::capture::observe_sessions<netlib::smtp::session_analyzer>(path, stats);
//   for (const auto& f : found) ... f.conversation ... f.session ...   // in conversation order
//
// observe_sessions() and sessions_of() keep the sessions in a vector (those `keep` accepts, at most
// the `most` of lowest conversation id); replay_sessions() hands every one to the caller's sink
// instead, for a caller that keeps its own bounded summary (netlab-grade's HTTP questions keep
// counts and the first N exchanges in request order).
#include <algorithm>
#include <concepts>
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

// An Analyzer that takes the conversation's id when it is made.
template <class Analyzer>
concept made_with_conversation_id = std::constructible_from<Analyzer, std::uint64_t>;

// The analyzer is made on the conversation's first byte or gap (one that carries nothing, a scan's
// SYN, costs no analyzer while it is open: the feed holds only the conversation's id and the
// sink), and what it observed goes to the sink at the close (for a conversation that never
// carried a byte, what a fresh analyzer reports). Memory follows the open conversations and what
// the sink keeps, not every conversation of the capture (issue 31: a million SYN-only connections
// took 1.6 GB).
template <class Analyzer>
class session_feed : public stream_consumer {
 public:
  using found_type = captured_session<Analyzer>;
  using keep_type = std::function<bool(const found_type&)>;
  using sink_type = std::function<void(found_type&&)>;
  session_feed(std::uint64_t conversation, const sink_type& sink) : sink_(sink), id_(conversation) {}
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
  void on_end_of_stream(packet::tcp_direction d, time_point ts) override {
    if constexpr (requires(Analyzer & a) { a.end_of_stream(true, ts); }) {
      if (analyzer_) analyzer_->end_of_stream(d == packet::tcp_direction::client_to_server, ts);  // no byte: nothing
    } else {
      (void)d;
      (void)ts;
    }
  }
  void on_close(const packet::tcp_conversation& c) override {
    if (analyzer_) {
      sink_(found_type{c, analyzer_->session()});
      analyzer_.reset();
    } else if constexpr (made_with_conversation_id<Analyzer>) {
      sink_(found_type{c, Analyzer(id_).session()});
    } else {
      sink_(found_type{c, Analyzer{}.session()});
    }
  }

 private:
  std::unique_ptr<Analyzer> make() const {
    if constexpr (made_with_conversation_id<Analyzer>)
      return std::make_unique<Analyzer>(id_);
    else
      return std::make_unique<Analyzer>();
  }
  Analyzer& get() {
    if (!analyzer_) analyzer_ = make();
    return *analyzer_;
  }
  const sink_type& sink_;
  std::uint64_t id_;
  std::unique_ptr<Analyzer> analyzer_;
};

// Replays the capture with one Analyzer per conversation; hands each conversation and what its
// analyzer observed to `sink` as the conversation closes (in the order they close). Throws
// capture_error for an unreadable file.
template <class Analyzer>
replay_stats replay_sessions(const std::filesystem::path& path,
                             const typename session_feed<Analyzer>::sink_type& sink) {
  return replay_conversations(path, [&sink](const packet::tcp_conversation& c) {
    return std::make_unique<session_feed<Analyzer>>(c.id, sink);
  });
}

// Replays the capture with one Analyzer per conversation; returns what each observed that `keep`
// accepts (decided as each conversation closes), at most the `most` of lowest conversation id, in
// conversation order (as tshark numbers tcp.stream). Throws capture_error for an unreadable file.
template <class Analyzer>
std::vector<captured_session<Analyzer>> observe_sessions(const std::filesystem::path& path, replay_stats& stats,
                                                         const typename session_feed<Analyzer>::keep_type& keep,
                                                         std::size_t most = SIZE_MAX) {
  std::vector<captured_session<Analyzer>> found;
  const typename session_feed<Analyzer>::sink_type sink = [&found, &keep, most](captured_session<Analyzer>&& f) {
    if (most == 0 || (keep && !keep(f))) return;
    if (found.size() < most) {
      found.push_back(std::move(f));
      return;
    }
    const auto latest = std::max_element(
        found.begin(), found.end(), [](const auto& a, const auto& b) { return a.conversation.id < b.conversation.id; });
    if (f.conversation.id < latest->conversation.id) *latest = std::move(f);
  };
  stats = replay_sessions<Analyzer>(path, sink);
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
