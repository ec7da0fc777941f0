#pragma once
// The capture driver for TCP: reads a capture file, decodes every packet, reassembles the TCP
// conversations and hands them to a visitor or to per-conversation consumers (any protocol core
// behind a thin adapter), with the capture's timestamps as time.
//
//   struct http_feed : netlib::capture::stream_consumer { ... core.receive(bytes) ... };
//   netlib::capture::replay_conversations("x.pcap", [](const tcp_conversation& c)
//       -> std::unique_ptr<stream_consumer> {
//     if (c.server.port != 80) return nullptr;      // not interested
//     return std::make_unique<http_feed>();
//   });
//
// A malformed packet is counted (replay_stats::decode_errors) and skipped; a corrupt or unreadable
// file throws capture_error. A file cut short inside its last record and bytes missing from the
// TCP streams are counted (truncated_records, missing_bytes): damage_note() words them for the
// analyzers' one stderr line, beside their --json fields ("truncated", "missing_bytes").
#include <cstdint>
#include <deque>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <unordered_map>
#include <vector>

#include "netlib/capture/capture_reader.hpp"
#include "netlib/core/sha256.hpp"
#include "netlib/packet/tcp_reassembler.hpp"

namespace netlib::capture {

struct replay_stats {
  std::uint64_t packets = 0;
  std::uint64_t tcp_packets = 0;
  std::uint64_t decode_errors = 0;      // frames whose decoding stopped with an error
  std::uint64_t truncated_records = 0;  // records cut short by the end of the file
  std::uint64_t skipped_blocks = 0;
  std::uint64_t conversations = 0;
  std::uint64_t missing_bytes = 0;  // TCP payload reported as gaps (never captured), all streams
  std::uint64_t late_packets = 0;   // packets of conversations already released
  time_point first_ts{};            // of the first packet in the file
  time_point last_ts{};
  std::string first_decode_error;  // e.g. "frame 12: tcp: truncated header"
};

// What is wrong with the capture, as one line to print after "PROGRAM: warning: " on stderr: the
// last record cut short (the file is truncated), payload bytes missing from the TCP streams;
// nullopt when nothing is. `path` names the file in the line.
std::optional<std::string> damage_note(const std::string& path, const replay_stats& stats);
// A truncated capture of which not one packet could be read: the analyzers fail (exit 1) with
// this capture_error rather than report an empty capture.
void require_some_packet(const std::string& path, const replay_stats& stats);

// Called every 65536 packets with the number read so far (for progress on a terminal).
using progress_callback = std::function<void(std::uint64_t packets)>;

// Feeds every packet of `reader` through the reassembler into `visitor`, then finishes it.
replay_stats replay_tcp(capture_reader& reader, packet::tcp_visitor& visitor, packet::reassembly_limits limits = {},
                        const progress_callback& progress = {});
replay_stats replay_tcp(const std::filesystem::path& path, packet::tcp_visitor& visitor,
                        packet::reassembly_limits limits = {});

// Receives one conversation's two directions in capture order.
class stream_consumer {
 public:
  virtual ~stream_consumer() = default;
  virtual void on_bytes(packet::tcp_direction d, byte_view bytes, time_point ts) = 0;
  virtual void on_gap(packet::tcp_direction /*d*/, std::uint64_t /*size*/, time_point /*ts*/) {}
  virtual void on_end_of_stream(packet::tcp_direction /*d*/, time_point /*ts*/) {}
  virtual void on_close(const packet::tcp_conversation& /*final_state*/) {}
};

// Called when a conversation opens; returns its consumer, or nullptr to skip it.
using consumer_factory = std::function<std::unique_ptr<stream_consumer>(const packet::tcp_conversation&)>;

replay_stats replay_conversations(const std::filesystem::path& path, const consumer_factory& factory,
                                  packet::reassembly_limits limits = {});
replay_stats replay_conversations(capture_reader& reader, const consumer_factory& factory,
                                  packet::reassembly_limits limits = {});
// Feeds conversation `id` (0-based, in order of first packet, as tshark's tcp.stream) only.
replay_stats replay_conversation(const std::filesystem::path& path, std::uint64_t id, stream_consumer& consumer,
                                 packet::reassembly_limits limits = {});

// A stream's SHA-256 as its 32 bytes (as hex text it took 112 bytes of memory: a million
// conversations' summaries are kept at once). Compares with and converts to the hex text.
struct stream_digest {
  sha256::digest bytes{};
  [[nodiscard]] std::string hex() const;
  operator std::string() const { return hex(); }  // NOLINT: the hex text is what it stands for
  friend bool operator==(const stream_digest& d, std::string_view hex_text) { return d.hex() == hex_text; }
  friend bool operator==(const stream_digest& a, const stream_digest& b) = default;
  friend std::ostream& operator<<(std::ostream& out, const stream_digest& d) { return out << d.hex(); }
};

// One line per conversation, like `tshark -z conv,tcp`, with each direction's stream hash.
struct conversation_summary {
  packet::tcp_conversation conversation;
  stream_digest client_sha256;  // SHA-256 of the reassembled client -> server bytes
  stream_digest server_sha256;
};
// In conversation order (a deque: a million of them are never copied whole).
std::deque<conversation_summary> summarize_conversations(capture_reader& reader, replay_stats* stats = nullptr);

// The visitor behind summarize_conversations, to extend (call its overrides from yours).
class conversation_summarizer : public packet::tcp_visitor {
 public:
  conversation_summarizer();
  ~conversation_summarizer() override;
  void on_open(const packet::tcp_conversation& c) override;
  void on_data(const packet::tcp_conversation& c, packet::tcp_direction d, byte_view b, time_point t) override;
  void on_close(const packet::tcp_conversation& c) override;
  // The released conversations, ordered by id.
  std::deque<conversation_summary> take_results();

 private:
  struct hashes;
  void pack(const conversation_summary& s);
  std::unordered_map<std::uint64_t, std::unique_ptr<hashes>> open_;
  // The released conversations' summaries, packed (their bytes with runs of zeros folded, about a
  // third of their 240 bytes for a conversation without payload) while the replay still holds its
  // own state, and unpacked by take_results() once it is gone: a million SYN-only connections
  // (issue 31) never hold both at once.
  std::deque<std::string> packed_;
  std::size_t packed_count_ = 0;
};

}  // namespace netlib::capture
