// Theory of operation: one byte of state each. The encoder remembers whether the previous byte
// was CR so an existing CRLF is not doubled across a chunk boundary; the decoder holds back a
// CR at the end of a chunk until it sees whether LF follows.
#include "netlib/ftp/ascii_codec.hpp"

namespace netlib::ftp {

void ascii_encoder::encode(byte_view in, std::string& out) {
  out.reserve(out.size() + in.size() + in.size() / 32);
  for (const std::byte b : in) {
    const char c = static_cast<char>(b);
    if (c == '\n' && !last_cr_) out += '\r';
    out += c;
    last_cr_ = c == '\r';
  }
}

void ascii_decoder::decode(byte_view in, std::string& out) {
  out.reserve(out.size() + in.size());
  for (const std::byte b : in) {
    const char c = static_cast<char>(b);
    if (pending_cr_) {
      pending_cr_ = false;
      if (c != '\n') out += '\r';
    }
    if (c == '\r') {
      pending_cr_ = true;
      continue;
    }
    out += c;
  }
}

void ascii_decoder::finish(std::string& out) {
  if (pending_cr_) out += '\r';
  pending_cr_ = false;
}

}  // namespace netlib::ftp
