// The TCP capture driver. Theory of operation: read a record, decode it with the record's link
// type, count decode errors (the packet is still fed when a TCP header was decoded), feed the
// reassembler with the record's timestamp; at the end, finish() flushes and releases every
// conversation. Consumers are kept by conversation id between on_open and on_close.
#include "netlib/capture/tcp_replay.hpp"

#include <fmt/format.h>

#include <algorithm>
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
    if (auto consumer = factory_(c)) consumers_.emplace(c.id, std::move(consumer));
  }
  void on_data(const tcp_conversation& c, tcp_direction d, byte_view b, time_point t) override {
    if (auto* s = find(c)) s->on_bytes(d, b, t);
  }
  void on_gap(const tcp_conversation& c, tcp_direction d, std::uint64_t n, time_point t) override {
    if (auto* s = find(c)) s->on_gap(d, n, t);
  }
  void on_end_of_stream(const tcp_conversation& c, tcp_direction d, time_point t) override {
    if (auto* s = find(c)) s->on_end_of_stream(d, t);
  }
  void on_close(const tcp_conversation& c) override {
    auto it = consumers_.find(c.id);
    if (it == consumers_.end()) return;
    it->second->on_close(c);
    consumers_.erase(it);
  }

 private:
  stream_consumer* find(const tcp_conversation& c) {
    auto it = consumers_.find(c.id);
    return it == consumers_.end() ? nullptr : it->second.get();
  }
  const consumer_factory& factory_;
  std::unordered_map<std::uint64_t, std::unique_ptr<stream_consumer>> consumers_;
};

}  // namespace

replay_stats replay_tcp(capture_reader& reader, packet::tcp_visitor& visitor, packet::reassembly_limits limits,
                        const progress_callback& progress) {
  replay_stats stats;
  packet::tcp_reassembler reassembler(visitor, limits);
  while (auto rec = reader.next()) {
    if (stats.packets++ == 0) stats.first_ts = rec->ts;
    stats.last_ts = rec->ts;
    if (progress && stats.packets % 65536 == 0) progress(stats.packets);
    const auto p = packet::decode_packet(rec->link, rec->data);
    if (p.error) {
      if (stats.decode_errors++ == 0) stats.first_decode_error = fmt::format("frame {}: {}", stats.packets, p.error->message());
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
  return stats;
}

replay_stats replay_tcp(const std::filesystem::path& path, packet::tcp_visitor& visitor, packet::reassembly_limits limits) {
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

void conversation_summarizer::on_open(const tcp_conversation& c) { open_[c.id] = std::make_unique<hashes>(); }

void conversation_summarizer::on_data(const tcp_conversation& c, tcp_direction d, byte_view b, time_point) {
  auto it = open_.find(c.id);
  if (it == open_.end()) return;
  (d == tcp_direction::client_to_server ? it->second->to_server : it->second->to_client).update(b);
}

void conversation_summarizer::on_close(const tcp_conversation& c) {
  auto it = open_.find(c.id);
  if (it == open_.end()) return;
  done_.push_back({c, it->second->to_server.hex_digest(), it->second->to_client.hex_digest()});
  open_.erase(it);
}

std::vector<conversation_summary> conversation_summarizer::take_results() {
  std::sort(done_.begin(), done_.end(), [](const auto& a, const auto& b) { return a.conversation.id < b.conversation.id; });
  return std::move(done_);
}

std::vector<conversation_summary> summarize_conversations(capture_reader& reader, replay_stats* stats) {
  conversation_summarizer s;
  const auto st = replay_tcp(reader, s);
  if (stats) *stats = st;
  return s.take_results();
}

}  // namespace netlib::capture
