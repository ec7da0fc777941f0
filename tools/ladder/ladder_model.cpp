// Builds the ladder model in one pass over the capture: the conversation summarizer hashes every
// conversation, and for the selected one each segment becomes an event. RTTs follow Karn's rule
// (RFC 6298 §3): an ACK that newly covers a segment sent once is annotated with the time since
// that segment; retransmitted segments give no sample. A segment that starts beyond the highest
// sequence number seen in its direction marks a capture gap: the bytes in between were sent (the
// peer's ACKs cover them) but are not in the capture.
#include "ladder_model.hpp"

#include <algorithm>
#include <deque>

namespace netlab::ladder {
namespace {

using netlib::packet::tcp_conversation;
using netlib::packet::tcp_direction;
namespace tcp_flag = netlib::packet::tcp_flag;
using netlib::packet::tcp_header;

struct outstanding {
  std::uint32_t end;  // sequence number after the segment
  netlib::time_point sent;
  bool retransmitted;
};

struct side {
  std::optional<std::uint32_t> base;  // ISN or first sequence number
  std::optional<std::uint32_t> highest_end;
  std::deque<outstanding> unacked;
};

bool seq_le(std::uint32_t a, std::uint32_t b) {
  return static_cast<std::int32_t>(b - a) >= 0;
}

class ladder_visitor : public netlib::capture::conversation_summarizer {
 public:
  ladder_visitor(ladder_model& m, const netlib::packet::label_registry& labels) : m_(m), labels_(labels) {}

  void on_segment(const tcp_conversation& c, tcp_direction d, const tcp_header& t, netlib::time_point ts) override {
    if (!m_.selected || c.id != *m_.selected) return;
    if (m_.events.size() == max_events) {
      m_.events_truncated = true;
      return;
    }
    auto& me = sides_[static_cast<int>(d)];
    auto& peer = sides_[1 - static_cast<int>(d)];
    if (!me.base) me.base = t.seq;
    ladder_event e;
    e.time_s = netlib::to_seconds(ts - c.first_ts);
    e.direction = d;
    e.flags = t.flag_names();
    e.seq = t.seq - *me.base;
    if (t.has(tcp_flag::ack) && peer.base) e.ack = t.ack - *peer.base;
    e.length = static_cast<std::uint32_t>(t.payload.size());
    e.window = t.window;
    if (!t.payload.empty()) {
      netlib::packet::label_context ctx{d, c.server.port, e.seq};
      e.label = labels_.label(t.payload, ctx);
    }
    if (me.highest_end && !seq_le(t.seq, *me.highest_end)) e.missing_before = t.seq - *me.highest_end;
    track_sent(me, t, ts, e);
    if (t.has(tcp_flag::ack)) e.rtt_s = take_rtt(peer, t.ack, ts);
    m_.events.push_back(std::move(e));
  }

 private:
  static void track_sent(side& me, const tcp_header& t, netlib::time_point ts, ladder_event& e) {
    const std::uint32_t span =
        static_cast<std::uint32_t>(t.payload.size()) + (t.has(tcp_flag::syn) ? 1 : 0) + (t.has(tcp_flag::fin) ? 1 : 0);
    if (span == 0) return;
    const std::uint32_t end = t.seq + span;
    if (me.highest_end && seq_le(end, *me.highest_end)) {
      e.retransmission = true;
      for (auto& o : me.unacked) {
        if (seq_le(o.end, *me.highest_end) && seq_le(end, o.end)) o.retransmitted = true;
      }
      return;
    }
    me.highest_end = end;
    if (me.unacked.size() < 4096) me.unacked.push_back({end, ts, false});
  }

  static std::optional<double> take_rtt(side& sender, std::uint32_t ack, netlib::time_point now) {
    std::optional<double> rtt;
    while (!sender.unacked.empty() && seq_le(sender.unacked.front().end, ack)) {
      const auto& o = sender.unacked.front();
      rtt = o.retransmitted ? std::nullopt : std::optional<double>(netlib::to_seconds(now - o.sent));
      sender.unacked.pop_front();
    }
    return rtt;
  }

  ladder_model& m_;
  const netlib::packet::label_registry& labels_;
  side sides_[2];
};

}  // namespace

ladder_model build_model(const std::filesystem::path& file, std::optional<std::uint64_t> conversation,
                         const netlib::packet::label_registry& labels,
                         const netlib::capture::progress_callback& progress) {
  ladder_model m;
  m.file = file.string();
  m.selected = conversation;
  auto reader = netlib::capture::capture_reader::open(file);
  ladder_visitor v(m, labels);
  m.stats = netlib::capture::replay_tcp(reader, v, {}, progress);
  m.conversations = v.take_results();
  m.capture_start = m.stats.first_ts;
  return m;
}

const netlib::capture::conversation_summary& selected_summary(const ladder_model& m) {
  return m.conversations.at(static_cast<std::size_t>(*m.selected));
}

}  // namespace netlab::ladder
