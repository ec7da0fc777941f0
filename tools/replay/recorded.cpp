// Collecting a capture's conversations through the capture replay driver.
#include "recorded.hpp"

#include <map>
#include <memory>

#include "netlib/capture/tcp_replay.hpp"
#include "netlib/core/clock.hpp"

namespace netlab::replay {

double recorded_conversation::time_at(std::size_t offset) const {
  double t = 0;
  for (const auto& c : chunks) {
    if (c.offset > offset) break;
    t = c.time_s;
  }
  return t;
}

namespace {

class collector : public netlib::capture::stream_consumer {
 public:
  collector(recorded_conversation& target, netlib::time_point start) : c_(target), start_(start) {}
  void on_bytes(netlib::packet::tcp_direction d, netlib::byte_view bytes, netlib::time_point ts) override {
    if (d == netlib::packet::tcp_direction::client_to_server) {
      c_.chunks.push_back({c_.client.size(), netlib::to_seconds(ts - start_)});
      c_.pieces.push_back({true, false, c_.client.size(), bytes.size(), netlib::to_seconds(ts - start_)});
      c_.client += netlib::as_chars(bytes);
    } else {
      c_.pieces.push_back({false, false, c_.server.size(), bytes.size(), netlib::to_seconds(ts - start_)});
      c_.server += netlib::as_chars(bytes);
    }
  }
  void on_gap(netlib::packet::tcp_direction d, std::uint64_t size, netlib::time_point ts) override {
    const bool client = d == netlib::packet::tcp_direction::client_to_server;
    c_.pieces.push_back({client, true, client ? c_.client.size() : c_.server.size(), static_cast<std::size_t>(size),
                         netlib::to_seconds(ts - start_)});
  }

 private:
  recorded_conversation& c_;
  netlib::time_point start_;
};

}  // namespace

std::vector<recorded_conversation> load_conversations(const std::string& path, netlib::capture::replay_stats* stats) {
  std::map<std::uint64_t, std::unique_ptr<recorded_conversation>> found;
  const auto st = netlib::capture::replay_conversations(
      path, [&](const netlib::packet::tcp_conversation& c) -> std::unique_ptr<netlib::capture::stream_consumer> {
        auto& slot = found[c.id];
        slot = std::make_unique<recorded_conversation>();
        slot->id = c.id;
        slot->client_endpoint = c.client.to_string();
        slot->server_endpoint = c.server.to_string();
        return std::make_unique<collector>(*slot, c.first_ts);
      });
  if (stats != nullptr) *stats = st;
  std::vector<recorded_conversation> out;
  for (auto& [id, c] : found) out.push_back(std::move(*c));
  return out;
}

}  // namespace netlab::replay
