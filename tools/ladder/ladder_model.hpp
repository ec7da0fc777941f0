#pragma once
// What netlab-ladder shows: the conversations of a capture (with stream hashes) and, for one of
// them, every segment as a ladder event with relative sequence numbers, labels and measured RTTs.
#include <cstdint>
#include <deque>
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "netlib/capture/tcp_replay.hpp"
#include "netlib/packet/payload_labels.hpp"

namespace netlab::ladder {

struct ladder_event {
  double time_s = 0;  // since the conversation's first packet
  netlib::packet::tcp_direction direction{};
  std::string flags;                 // "SYN,ACK"
  std::uint32_t seq = 0;             // relative to the sender's ISN (or first sequence number seen)
  std::optional<std::uint32_t> ack;  // relative to the receiver's ISN, when ACK is set
  std::uint32_t length = 0;
  std::uint32_t window = 0;
  std::string label;  // application label of the payload, empty without payload
  bool retransmission = false;
  std::optional<double> rtt_s;       // on an ACK: time since the segment it acknowledges was sent
  std::uint32_t missing_before = 0;  // bytes of this direction the capture lacks just before this segment
};

// How the ladder is drawn.
struct ladder_layout {
  bool by_time = false;         // rows spaced by the time between segments (plus a minimum gap)
  std::size_t page_size = 100;  // SVG: segments per page (0: one page whatever the length)
};

struct ladder_model {
  std::string file;
  netlib::capture::replay_stats stats;
  netlib::time_point capture_start{};
  std::deque<netlib::capture::conversation_summary> conversations;  // a deque: a million are never copied
  std::optional<std::uint64_t> selected;
  std::vector<ladder_event> events;  // of the selected conversation (at most max_events)
  bool events_truncated = false;
};

inline constexpr std::size_t max_events = 20000;

ladder_model build_model(const std::filesystem::path& file, std::optional<std::uint64_t> conversation,
                         const netlib::packet::label_registry& labels,
                         const netlib::capture::progress_callback& progress = {});

// The selected conversation's summary (the caller checked it exists).
const netlib::capture::conversation_summary& selected_summary(const ladder_model& m);

std::string render_conversations_text(const ladder_model& m);
std::string render_ladder_text(const ladder_model& m, const ladder_layout& layout = {});
// Number of SVG pages the selected conversation needs.
std::size_t svg_pages(const ladder_model& m, const ladder_layout& layout);
// Page `page` (0-based) of the SVG ladder.
std::string render_ladder_svg(const ladder_model& m, const ladder_layout& layout = {}, std::size_t page = 0);
std::string render_json(const ladder_model& m);
// The same, written to `out` as it is made (a million conversations are never one document in memory).
void render_json(const ladder_model& m, std::ostream& out);

}  // namespace netlab::ladder
