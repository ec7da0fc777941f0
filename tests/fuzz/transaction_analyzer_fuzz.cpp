// Fuzzes the capture's HTTP analyzer (netlib::http::transaction_analyzer) and checks that what it
// reports does not depend on where the segments were cut. Input: four piece sizes (each byte's low
// four bits plus one, used in turn), two bytes of client length (little endian, cut to what is
// left), then the client's bytes and the server's. Each run feeds the client's bytes, then the
// server's, then ends the server's stream: once whole, once in pieces. The analyzer decides the
// directions on the first bytes it sees (as a capture's first packet shows them), so the first
// client piece keeps at least five bytes, and a server with no client before it is fed whole in
// both runs. The range of each response must be the same; its segment count must be the number
// of pieces overlapping that range.
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "netlib/http/transaction_analyzer.hpp"

namespace {

namespace http = netlib::http;

struct piece {
  std::size_t begin, size;
};

std::vector<piece> cut(std::size_t total, const std::array<std::size_t, 4>& sizes, std::size_t first_at_least) {
  std::vector<piece> out;
  for (std::size_t at = 0, i = 0; at < total; ++i) {
    std::size_t n = sizes[i % sizes.size()];
    if (at == 0 && n < first_at_least) n = first_at_least;
    if (n > total - at) n = total - at;
    out.push_back({at, n});
    at += n;
  }
  return out;
}

std::string summary(const http::http_session& s) {
  std::string out = std::to_string(s.is_http) + std::to_string(s.server_spoke_first) + " " +
                    std::to_string(s.counters.malformed_requests) + " " +
                    std::to_string(s.counters.malformed_responses) + " " +
                    std::to_string(s.counters.responses_without_request) + "\n";
  for (const auto& t : s.transactions) {
    out += t.method + " " + t.target + " " + std::to_string(t.version_major) + "." + std::to_string(t.version_minor) +
           " " + (t.status ? std::to_string(*t.status) : "-") + " " + std::to_string(t.response_version.major) + "." +
           std::to_string(t.response_version.minor) + " " + std::to_string(t.interim.size()) + " " +
           std::to_string(t.request_header_bytes) + " " + std::to_string(t.request_body_bytes) + " " +
           std::to_string(t.response_header_bytes) + " " + std::to_string(t.response_body_bytes) + " " +
           std::to_string(t.response_complete) + " " + t.transfer + " " + std::to_string(t.conditional) + " " +
           t.if_modified_since.value_or("-") + " " + t.if_none_match.value_or("-") + " " +
           std::to_string(t.cookies_sent.size()) + " " + std::to_string(t.cookies_set.size()) + " " +
           std::to_string(t.response_begin) + "-" + std::to_string(t.response_end) + "\n";
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 6) return 0;
  const std::array<std::size_t, 4> sizes{(data[0] & 15u) + 1u, (data[1] & 15u) + 1u, (data[2] & 15u) + 1u,
                                         (data[3] & 15u) + 1u};
  const std::size_t rest = size - 6;
  const std::size_t client_size = std::min<std::size_t>(data[4] | (std::size_t{data[5]} << 8), rest);
  const auto* client = reinterpret_cast<const std::byte*>(data + 6);
  const auto* server = client + client_size;
  const std::size_t server_size = rest - client_size;

  http::transaction_analyzer whole(0);
  whole.client_bytes(netlib::byte_view(client, client_size), {});
  whole.server_bytes(netlib::byte_view(server, server_size), {});
  whole.end_of_stream(false, {});

  http::transaction_analyzer split(0);
  for (const piece& p : cut(client_size, sizes, 5)) split.client_bytes(netlib::byte_view(client + p.begin, p.size), {});
  const auto server_pieces = cut(server_size, sizes, client_size == 0 ? server_size : 1);
  for (const piece& p : server_pieces) split.server_bytes(netlib::byte_view(server + p.begin, p.size), {});
  split.end_of_stream(false, {});

  const auto a = whole.session();
  const auto b = split.session();
  if (summary(a) != summary(b)) {
    std::fprintf(stderr, "whole:\n%s\nin pieces:\n%s", summary(a).c_str(), summary(b).c_str());
    std::abort();
  }
  for (const auto& t : b.transactions) {
    if (!t.response_complete) continue;
    std::uint64_t overlapping = 0;
    for (const piece& p : server_pieces)
      if (p.begin < t.response_end && p.begin + p.size > t.response_begin) ++overlapping;
    if (t.response_segments != overlapping) std::abort();
  }
  return 0;
}
