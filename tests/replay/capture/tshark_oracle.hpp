#pragma once
// tshark as the oracle for TCP streams: `tshark -q -z follow,tcp,raw,N` gives each direction's
// bytes ("Node 0" is the side that sent the stream's first packet).
#include <map>
#include <string>
#include <vector>

#include "netlib/core/sha256.hpp"
#include "support/process.hpp"

namespace netlab::test {

struct tshark_stream {
  std::string node0, node1;  // "ip:port", IPv6 as "[addr]:port"
  std::string data0, data1;  // reassembled bytes sent by node 0 / node 1
};

struct tshark_view {
  bool ok = false;
  std::string error;
  std::size_t frames = 0;
  std::vector<int> stream_ids;
  std::map<int, tshark_stream> streams;
};

inline std::string unhex(const std::string& hex) {
  std::string out;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2)
    out += static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16));
  return out;
}

inline bool is_hex_line(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

// Frames, stream ids and, with `follow`, every stream's bytes (one tshark run for all streams).
inline tshark_view tshark_read(const std::string& file, bool follow = true) {
  tshark_view v;
  auto fields = run({"/usr/bin/tshark", "-r", file, "-T", "fields", "-e", "frame.number", "-e", "tcp.stream"});
  if (fields.exit_code != 0) {
    v.error = fields.err;
    return v;
  }
  std::size_t pos = 0;
  std::map<int, bool> ids;
  while (pos < fields.out.size()) {
    const auto end = fields.out.find('\n', pos);
    const std::string line = fields.out.substr(pos, end - pos);
    pos = end == std::string::npos ? fields.out.size() : end + 1;
    if (line.empty()) continue;
    ++v.frames;
    const auto tab = line.find('\t');
    if (tab != std::string::npos && tab + 1 < line.size()) ids[std::stoi(line.substr(tab + 1))] = true;
  }
  for (const auto& [id, _] : ids) v.stream_ids.push_back(id);
  if (follow && !v.stream_ids.empty()) {
    std::vector<std::string> argv{"/usr/bin/tshark", "-r", file, "-q"};
    for (int id : v.stream_ids) {
      argv.push_back("-z");
      argv.push_back("follow,tcp,raw," + std::to_string(id));
    }
    auto out = run(argv);
    if (out.exit_code != 0) {
      v.error = out.err;
      return v;
    }
    int current = -1;
    pos = 0;
    while (pos < out.out.size()) {
      const auto end = out.out.find('\n', pos);
      const std::string line = out.out.substr(pos, end - pos);
      pos = end == std::string::npos ? out.out.size() : end + 1;
      if (line.rfind("Filter: tcp.stream eq ", 0) == 0)
        current = std::stoi(line.substr(22));
      else if (line.rfind("Node 0: ", 0) == 0)
        v.streams[current].node0 = line.substr(8);
      else if (line.rfind("Node 1: ", 0) == 0)
        v.streams[current].node1 = line.substr(8);
      else if (line.size() > 1 && line[0] == '\t' && is_hex_line(line.substr(1)))
        v.streams[current].data1 += unhex(line.substr(1));
      else if (is_hex_line(line))
        v.streams[current].data0 += unhex(line);
    }
  }
  v.ok = true;
  return v;
}

inline std::string sha256_hex(const std::string& s) {
  return netlib::sha256::hex(netlib::as_bytes(s));
}

}  // namespace netlab::test
