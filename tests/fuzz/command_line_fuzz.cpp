// Fuzzes the line protocols' command reader (netlib::command_reader): options from the first byte,
// the rest fed whole and split at a byte chosen from the input must give the same commands, and
// every result consumes no more than it was given. The same bytes as a recorded client stream
// (recorded_commands): lines in order, each [begin, end) inside the input and ending in its LF,
// each command the one split_command_line gives for that line.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "netlib/core/command_line.hpp"

namespace {

std::vector<std::string> read_all(std::string_view a, std::string_view b, netlib::command_reader_options o) {
  netlib::command_reader reader(o);
  netlib::input_buffer buf;
  std::vector<std::string> out;
  for (auto piece : {a, b}) {
    buf.append(piece);
    for (int i = 0; i < 100000; ++i) {
      const auto r = reader.next(buf.data());
      if (r.consumed > buf.size()) __builtin_trap();
      buf.consume(r.consumed);
      if (r.status == netlib::read_status::need_more) break;
      out.push_back(std::to_string(static_cast<int>(r.status)) + "|" + r.value.verb + "|" + r.value.argument);
    }
  }
  out.push_back("rest " + std::to_string(buf.size()));
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const netlib::command_reader_options o{.max_length = 4U + (data[0] & 0x3fU),
                                         .strict = (data[0] & 0x40) != 0,
                                         .syntax = {.trim_argument = (data[0] & 0x80) != 0}};
  const std::string_view in(reinterpret_cast<const char*>(data + 1), size - 1);
  const std::size_t cut = in.empty() ? 0 : data[0] % (in.size() + 1);
  if (read_all(in, {}, o) != read_all(in.substr(0, cut), in.substr(cut), o)) __builtin_trap();
  std::size_t at = 0;
  for (const auto& c : netlib::recorded_commands(in, o.syntax, 1000)) {
    if (c.begin != at || c.end <= c.begin || c.end > in.size() || in[c.end - 1] != '\n') __builtin_trap();
    std::string_view line = in.substr(c.begin, c.end - 1 - c.begin);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!(c.command == netlib::split_command_line(line, o.syntax))) __builtin_trap();
    at = c.end;
  }
  return 0;
}
