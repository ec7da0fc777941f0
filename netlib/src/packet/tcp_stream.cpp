// One-direction TCP reassembly.
//
// Theory of operation: offsets count bytes from `base_` (ISN + 1, or the first sequence number
// seen). `next_` is the first offset not yet delivered; everything below it was delivered or
// reported as a gap, exactly once. A segment [o, o+n):
//   1. ends at or below next_: a retransmission, counted;
//   2. starts at or below next_: its new tail is delivered, then waiting segments that now touch
//      next_ are drained (their already-delivered heads trimmed: overlaps);
//   3. starts above next_: it waits in `waiting_` (keyed by offset; a longer copy replaces a
//      shorter one at the same offset); if the waiting bytes exceed the limit, the hole before the
//      first waiting segment is reported as a gap and skipped.
// The usual segment, case 2 with no SYN/FIN, starting exactly at next_ and nothing waiting, is
// delivered by the inline on_segment() in the header without reaching on_other_segment().
// Sequence numbers are unwrapped relative to next_ with a signed 32-bit difference (RFC 9293
// §3.4 comparisons), which is correct across 2^32 wrap-around.
#include "netlib/packet/tcp_stream.hpp"

#include <algorithm>

namespace netlib::packet {
namespace {

// A sink (two callables) as an output.
class sink_output final : public tcp_stream::output {
 public:
  explicit sink_output(const tcp_stream::sink& s) : s_(s) {}
  void data(byte_view bytes, time_point ts) override {
    if (s_.data) s_.data(bytes, ts);
  }
  void gap(std::uint64_t size, time_point ts) override {
    if (s_.gap) s_.gap(size, ts);
  }

 private:
  const tcp_stream::sink& s_;
};

}  // namespace

void tcp_stream::on_segment(std::uint32_t seq, bool syn, bool fin, byte_view payload, time_point ts, const sink& out) {
  sink_output o(out);
  on_segment(seq, syn, fin, payload, ts, o);
}

void tcp_stream::flush(time_point ts, const sink& out) {
  sink_output o(out);
  flush(ts, o);
}

void tcp_stream::on_other_segment(std::uint32_t seq, bool syn, bool fin, byte_view payload, time_point ts,
                                  output& out) {
  if (syn) {
    syn_seen_ = true;
    if (!isn_) isn_ = seq;
    if (!base_) base_ = seq + 1;
    seq += 1;  // RFC 9293 §3.4: the SYN occupies one sequence number
  }
  if (!base_) base_ = seq;
  std::int64_t start = unwrap(seq);
  if (fin && !fin_offset_) {
    const std::int64_t end = start + static_cast<std::int64_t>(payload.size());
    if (end >= 0) fin_offset_ = static_cast<std::uint64_t>(end);
  }
  if (start < 0) {  // bytes before the first one we started from: treat as already delivered
    const auto cut =
        static_cast<std::size_t>(std::min<std::int64_t>(-start, static_cast<std::int64_t>(payload.size())));
    retransmitted_ += cut;
    payload = payload.subspan(cut);
    start = 0;
  }
  if (payload.empty()) return drain(out);
  const auto offset = static_cast<std::uint64_t>(start);
  if (offset == next_ && waiting_.empty()) {  // the usual case: the next bytes, nothing waiting
    return deliver(next_, payload, ts, out);
  }
  if (offset + payload.size() <= next_) {  // 1. retransmission
    retransmitted_ += payload.size();
    return;
  }
  if (offset <= next_) {  // 2. in order (perhaps overlapping what was delivered)
    const auto skip = static_cast<std::size_t>(next_ - offset);
    retransmitted_ += skip;
    deliver(next_, payload.subspan(skip), ts, out);
    return drain(out);
  }
  store(offset, payload, ts);  // 3. ahead of a hole
  while (buffered_ > max_buffered_ && !waiting_.empty()) skip_to(waiting_.begin()->first, ts, out);
}

void tcp_stream::store(std::uint64_t offset, byte_view bytes, time_point ts) {
  auto it = waiting_.find(offset);
  if (it != waiting_.end()) {
    if (it->second.bytes.size() >= bytes.size()) {
      retransmitted_ += bytes.size();
      return;
    }
    buffered_ -= it->second.bytes.size();
    retransmitted_ += it->second.bytes.size();
    waiting_.erase(it);
  }
  waiting_.emplace(offset, pending{std::vector<std::byte>(bytes.begin(), bytes.end()), ts});
  buffered_ += bytes.size();
}

void tcp_stream::drain(output& out) {
  while (!waiting_.empty() && waiting_.begin()->first <= next_) {
    auto node = waiting_.extract(waiting_.begin());
    buffered_ -= node.mapped().bytes.size();
    const std::uint64_t offset = node.key();
    const byte_view bytes = node.mapped().bytes;
    if (offset + bytes.size() <= next_) {
      retransmitted_ += bytes.size();
      continue;
    }
    const auto skip = static_cast<std::size_t>(next_ - offset);
    retransmitted_ += skip;
    deliver(next_, bytes.subspan(skip), node.mapped().ts, out);
  }
}

// Reports [next_, offset) as a gap and continues delivery from `offset`.
void tcp_stream::skip_to(std::uint64_t offset, time_point ts, output& out) {
  if (offset <= next_) return drain(out);
  const std::uint64_t size = offset - next_;
  gap_bytes_ += size;
  ++gaps_;
  next_ = offset;
  out.gap(size, ts);
  drain(out);
}

void tcp_stream::flush(time_point ts, output& out) {
  while (!waiting_.empty()) skip_to(waiting_.begin()->first, waiting_.begin()->second.ts, out);
  // Bytes the peer acknowledged, or that lie before a FIN, but that the capture never saw.
  std::uint64_t end = std::max(next_, acked_);
  if (fin_offset_) end = std::max(std::min(end, *fin_offset_), *fin_offset_);
  if (end > next_ && base_) skip_to(end, ts, out);
  waiting_.clear();
  buffered_ = 0;
}

}  // namespace netlib::packet
