// The TCP capture driver. Theory of operation: read a record, decode it with the record's link
// type (the usual Ethernet/IPv4/TCP frame by decode_plain_tcp, straight into reused headers;
// anything else by decode_packet), count decode errors (the packet is still fed when a TCP header
// was decoded), feed the reassembler with the record's timestamp; at the end, finish() flushes and releases every
// conversation. Consumers are kept by conversation id between on_open and on_close, in a window
// indexed by id from the oldest open conversation (ids are handed out in order, so this is a
// deque of pointers with no per-conversation node: 8 bytes a conversation while an older one is
// still open, nothing once the older ones are released).
#include "netlib/capture/tcp_replay.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstring>
#include <deque>
#include <type_traits>
#include <unordered_map>

#include "netlib/core/sha256.hpp"
#include "netlib/packet/packet_decoder.hpp"

namespace netlib::capture {
namespace {

using packet::tcp_conversation;
using packet::tcp_direction;

// Routes visitor callbacks to the consumer of each conversation.
class dispatcher : public packet::tcp_visitor {
 public:
  explicit dispatcher(const consumer_factory& factory) : factory_(factory) {}
  void on_open(const tcp_conversation& c) override {
    if (window_.empty()) first_id_ = c.id;
    // Ids come in order; a gap (none today) would just hold empty slots.
    while (first_id_ + window_.size() < c.id) window_.emplace_back();
    window_.push_back(factory_(c));
  }
  void on_data(const tcp_conversation& c, tcp_direction d, byte_view b, time_point t) override {
    if (auto* s = find(c.id)) s->on_bytes(d, b, t);
  }
  void on_gap(const tcp_conversation& c, tcp_direction d, std::uint64_t n, time_point t) override {
    if (auto* s = find(c.id)) s->on_gap(d, n, t);
  }
  void on_end_of_stream(const tcp_conversation& c, tcp_direction d, time_point t) override {
    if (auto* s = find(c.id)) s->on_end_of_stream(d, t);
  }
  void on_close(const tcp_conversation& c) override {
    if (c.id < first_id_ || c.id - first_id_ >= window_.size()) return;
    auto& slot = window_[c.id - first_id_];
    if (slot) {
      slot->on_close(c);
      slot.reset();
    }
    while (!window_.empty() && !window_.front()) {
      window_.pop_front();
      ++first_id_;
    }
  }

 private:
  stream_consumer* find(std::uint64_t id) {
    if (id < first_id_ || id - first_id_ >= window_.size()) return nullptr;
    return window_[id - first_id_].get();
  }
  const consumer_factory& factory_;
  std::deque<std::unique_ptr<stream_consumer>> window_;
  std::uint64_t first_id_ = 0;
};

}  // namespace

replay_stats replay_tcp(capture_reader& reader, packet::tcp_visitor& visitor, packet::reassembly_limits limits,
                        const progress_callback& progress) {
  replay_stats stats;
  packet::tcp_reassembler reassembler(visitor, limits);
  // The usual frame (Ethernet, IPv4 and TCP without options) is decoded straight into these, reused
  // for every packet (decode_plain_tcp never touches the options, which stay empty); any other
  // frame is decoded in full.
  packet::ip_address src, dst;
  packet::tcp_header tcp;
  while (auto rec = reader.next()) {
    if (stats.packets++ == 0) stats.first_ts = rec->ts;
    stats.last_ts = rec->ts;
    if (progress && stats.packets % 65536 == 0) progress(stats.packets);
    if (packet::decode_plain_tcp(rec->link, rec->data, src, dst, tcp)) {
      ++stats.tcp_packets;
      reassembler.feed(src, dst, tcp, rec->ts);
      continue;
    }
    const auto p = packet::decode_packet(rec->link, rec->data);
    if (p.error) {
      if (stats.decode_errors++ == 0)
        stats.first_decode_error = fmt::format("frame {}: {}", stats.packets, p.error->message());
    }
    if (p.tcp() && !p.is_fragment()) {
      ++stats.tcp_packets;
      reassembler.feed(p, rec->ts);
    }
  }
  reassembler.finish();
  stats.truncated_records = reader.truncated_records();
  stats.skipped_blocks = reader.skipped_blocks();
  stats.conversations = reassembler.conversations_seen();
  stats.missing_bytes = reassembler.missing_bytes();
  stats.late_packets = reassembler.late_packets();
  return stats;
}

std::optional<std::string> damage_note(const std::string& path, const replay_stats& stats) {
  std::vector<std::string> parts;
  if (stats.truncated_records > 0) {
    parts.push_back(
        fmt::format("the capture is truncated: its last record is cut short and was skipped ({} complete "
                    "packets read)",
                    stats.packets));
  }
  if (stats.missing_bytes > 0) {
    parts.push_back(
        fmt::format("{} bytes of TCP payload are missing from the capture (gaps in the streams): byte "
                    "counts and rates cover only the bytes captured",
                    stats.missing_bytes));
  }
  if (parts.empty()) return std::nullopt;
  return fmt::format("{}: {}", path, fmt::join(parts, "; "));
}

void require_some_packet(const std::string& path, const replay_stats& stats) {
  if (stats.packets == 0 && stats.truncated_records > 0) {
    throw capture_error(
        fmt::format("{}: truncated: the capture ends inside its first record (no packet to read)", path));
  }
}

replay_stats replay_tcp(const std::filesystem::path& path, packet::tcp_visitor& visitor,
                        packet::reassembly_limits limits) {
  auto reader = capture_reader::open(path);
  return replay_tcp(reader, visitor, limits);
}

replay_stats replay_conversations(const std::filesystem::path& path, const consumer_factory& factory,
                                  packet::reassembly_limits limits) {
  auto reader = capture_reader::open(path);
  return replay_conversations(reader, factory, limits);
}

replay_stats replay_conversations(capture_reader& reader, const consumer_factory& factory,
                                  packet::reassembly_limits limits) {
  dispatcher d(factory);
  return replay_tcp(reader, d, limits);
}

replay_stats replay_conversation(const std::filesystem::path& path, std::uint64_t id, stream_consumer& consumer,
                                 packet::reassembly_limits limits) {
  // The caller owns the consumer: hand the dispatcher a non-owning forwarder.
  struct forward : stream_consumer {
    stream_consumer& to;
    explicit forward(stream_consumer& t) : to(t) {}
    void on_bytes(tcp_direction d, byte_view b, time_point t) override { to.on_bytes(d, b, t); }
    void on_gap(tcp_direction d, std::uint64_t n, time_point t) override { to.on_gap(d, n, t); }
    void on_end_of_stream(tcp_direction d, time_point t) override { to.on_end_of_stream(d, t); }
    void on_close(const tcp_conversation& c) override { to.on_close(c); }
  };
  return replay_conversations(
      path,
      [&](const tcp_conversation& c) -> std::unique_ptr<stream_consumer> {
        return c.id == id ? std::make_unique<forward>(consumer) : nullptr;
      },
      limits);
}

struct conversation_summarizer::hashes {
  sha256 to_server;
  sha256 to_client;
};

conversation_summarizer::conversation_summarizer() = default;
conversation_summarizer::~conversation_summarizer() = default;

// The hashes are made on a conversation's first byte: one that carries none (a lone SYN, a scan)
// costs nothing while it is open and closes with the hash of no bytes.
void conversation_summarizer::on_open(const tcp_conversation&) {}

void conversation_summarizer::on_data(const tcp_conversation& c, tcp_direction d, byte_view b, time_point) {
  auto& h = open_[c.id];
  if (!h) h = std::make_unique<hashes>();
  (d == tcp_direction::client_to_server ? h->to_server : h->to_client).update(b);
}

void conversation_summarizer::on_close(const tcp_conversation& c) {
  auto it = open_.find(c.id);
  if (it == open_.end()) {
    static const stream_digest nothing{sha256{}.finish()};
    return pack({c, nothing, nothing});
  }
  pack({c, {it->second->to_server.finish()}, {it->second->to_client.finish()}});
  open_.erase(it);
}

namespace {

static_assert(std::is_trivially_copyable_v<conversation_summary>, "summaries are packed as bytes");
constexpr std::size_t pack_chunk = 1 << 20;  // bytes of packed summaries per string

const stream_digest& empty_digest() {
  static const stream_digest d{sha256{}.finish()};
  return d;
}

// Runs of zero bytes become one byte 0x80 | length (1..127); other bytes go in literal runs, one
// byte with the length (1..127) then the bytes. A summary is a flag byte (bit 0: the client digest
// is the empty one, bit 1: the server's; stored as zeros then) and its packed bytes.
void pack_bytes(const unsigned char* b, std::size_t n, std::string& out) {
  std::size_t i = 0;
  while (i < n) {
    std::size_t run = 0;
    while (i + run < n && b[i + run] == 0 && run < 127) ++run;
    if (run > 0) {
      out.push_back(static_cast<char>(0x80 | run));
      i += run;
      continue;
    }
    std::size_t lit = 0;
    while (i + lit < n && b[i + lit] != 0 && lit < 127) ++lit;
    out.push_back(static_cast<char>(lit));
    out.append(reinterpret_cast<const char*>(b + i), lit);
    i += lit;
  }
}

std::size_t unpack_bytes(const std::string& in, std::size_t pos, unsigned char* b, std::size_t n) {
  std::size_t i = 0;
  while (i < n) {
    const auto head = static_cast<unsigned char>(in[pos++]);
    const std::size_t len = head & 0x7f;
    if (head & 0x80)
      std::memset(b + i, 0, len);
    else
      std::memcpy(b + i, in.data() + pos, len), pos += len;
    i += len;
  }
  return pos;
}

}  // namespace

void conversation_summarizer::pack(const conversation_summary& summary) {
  conversation_summary s = summary;
  unsigned char flags = 0;
  if (s.client_sha256 == empty_digest()) flags |= 1, s.client_sha256 = {};
  if (s.server_sha256 == empty_digest()) flags |= 2, s.server_sha256 = {};
  unsigned char bytes[sizeof(conversation_summary)];
  std::memcpy(bytes, &s, sizeof s);
  if (packed_.empty() || packed_.back().size() > pack_chunk) {
    packed_.emplace_back();
    packed_.back().reserve(pack_chunk + 2 * sizeof s);
  }
  packed_.back().push_back(static_cast<char>(flags));
  pack_bytes(bytes, sizeof bytes, packed_.back());
  ++packed_count_;
}

// Unpacked chunk by chunk into a deque, each chunk freed once read (the deque grows by blocks,
// so the packed and the unpacked summaries are never both whole), then sorted in place.
std::deque<conversation_summary> conversation_summarizer::take_results() {
  std::deque<conversation_summary> out;
  while (!packed_.empty()) {
    const std::string chunk = std::move(packed_.front());
    packed_.pop_front();
    for (std::size_t pos = 0; pos < chunk.size();) {
      const auto flags = static_cast<unsigned char>(chunk[pos++]);
      unsigned char bytes[sizeof(conversation_summary)];
      pos = unpack_bytes(chunk, pos, bytes, sizeof bytes);
      conversation_summary s;
      std::memcpy(&s, bytes, sizeof s);
      if (flags & 1) s.client_sha256 = empty_digest();
      if (flags & 2) s.server_sha256 = empty_digest();
      out.push_back(s);
    }
  }
  packed_count_ = 0;
  if (!std::is_sorted(out.begin(), out.end(),
                      [](const auto& a, const auto& b) { return a.conversation.id < b.conversation.id; }))
    std::sort(out.begin(), out.end(),
              [](const auto& a, const auto& b) { return a.conversation.id < b.conversation.id; });
  return out;
}

std::string stream_digest::hex() const {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out(64, '0');
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    out[2 * i] = digits[bytes[i] >> 4];
    out[2 * i + 1] = digits[bytes[i] & 15];
  }
  return out;
}

std::deque<conversation_summary> summarize_conversations(capture_reader& reader, replay_stats* stats) {
  conversation_summarizer s;
  const auto st = replay_tcp(reader, s);
  if (stats) *stats = st;
  return s.take_results();
}

}  // namespace netlib::capture
