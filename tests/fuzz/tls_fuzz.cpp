// Fuzz target for the TLS record and handshake decoder. The input is a script of chunks, each a
// control byte (bit 7: from the server; bit 6: a gap instead of bytes; bits 0-5: length) then
// that many bytes, fed to a tls_analyzer with small limits; the ClientHello and ServerHello
// decoders also get the whole input as a message body. Invariants: no crash or over-read; at
// most max_records records kept; every record kept is no longer than the record limit; counts
// agree with the records kept; each direction fed alone in 7-byte pieces or in one gives the same
// session (the framing does not depend on how the bytes were split).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "netlib/packet/tls.hpp"

namespace {

using namespace netlib::packet;

bool same(const tls_session& x, const tls_session& y) {
  if (x.records.size() != y.records.size() || x.client.records != y.client.records ||
      x.server.records != y.server.records || x.client_messages != y.client_messages ||
      x.server_messages != y.server_messages || x.client_hello.has_value() != y.client_hello.has_value() ||
      x.server_hello.has_value() != y.server_hello.has_value() || x.certificates != y.certificates)
    return false;
  for (std::size_t i = 0; i < x.records.size(); ++i) {
    if (x.records[i].length != y.records[i].length || x.records[i].messages != y.records[i].messages) return false;
  }
  if (x.client_hello && (x.client_hello->cipher_suites != y.client_hello->cipher_suites ||
                         x.client_hello->server_name != y.client_hello->server_name))
    return false;
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const netlib::byte_view all(reinterpret_cast<const std::byte*>(data), size);
  (void)decode_client_hello(all);
  (void)decode_server_hello(all);
  tls_limits limits;
  limits.max_handshake_message = 512;
  limits.max_records = 64;
  tls_analyzer split(limits);
  std::vector<std::byte> client, server;
  bool gap = false;
  std::size_t i = 0;
  while (i < size) {
    const std::uint8_t control = data[i++];
    const bool from_server = (control & 0x80) != 0;
    const std::size_t n = std::min<std::size_t>(control & 0x3f, size - i);
    if ((control & 0x40) != 0) {
      split.gap(!from_server, n + 1);
      gap = true;
      continue;
    }
    const netlib::byte_view piece(reinterpret_cast<const std::byte*>(data + i), n);
    if (from_server)
      split.server_bytes(piece);
    else
      split.client_bytes(piece);
    auto& side = from_server ? server : client;
    side.insert(side.end(), piece.begin(), piece.end());
    i += n;
  }
  const auto& s = split.session();
  if (s.records.size() > limits.max_records) std::abort();
  std::uint64_t kept_client = 0;
  for (const auto& r : s.records) {
    if (r.length > limits.max_record_length) std::abort();
    kept_client += r.from_client ? 1 : 0;
  }
  if (!s.records_truncated && kept_client != s.client.records) std::abort();
  if (!gap) {
    // Each direction alone, split into 7-byte pieces or whole: the same session (the framing does
    // not depend on how the bytes were cut; the two directions keep separate state).
    for (const auto* bytes : {&client, &server}) {
      const bool client_side = bytes == &client;
      tls_analyzer in_pieces(limits), in_one(limits);
      for (std::size_t k = 0; k < bytes->size(); k += 7) {
        const auto piece = netlib::byte_view(*bytes).subspan(k, std::min<std::size_t>(7, bytes->size() - k));
        if (client_side)
          in_pieces.client_bytes(piece);
        else
          in_pieces.server_bytes(piece);
      }
      if (client_side)
        in_one.client_bytes(*bytes);
      else
        in_one.server_bytes(*bytes);
      if (!same(in_pieces.session(), in_one.session())) std::abort();
    }
  }
  return 0;
}
