// TLS records and handshake messages in clear (RFC 8446, RFC 5246). Theory of operation: each
// direction frames records from its byte stream (a record whose 5-byte header and body are both
// in the bytes given is read in place; otherwise its bytes wait in a buffer of at most one
// record). Handshake records sent in clear feed the direction's message buffer, which splits the
// stream of handshake messages (a 4-byte header: type and 24-bit length) whatever the record
// boundaries; a message is decoded when whole, and attributed to the record it ends in (as
// Wireshark shows a reassembled message). A message longer than the buffering limit is skipped
// byte by byte and only counted. ChangeCipherSpec switches its direction to encrypted: later
// handshake and alert records of that direction are counted as encrypted. Application data
// records are never read.
#include "netlib/packet/tls.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "netlib/packet/wire.hpp"

namespace netlib::packet {
namespace {

// A bounds-checked reader over a message body: every read fails (ok() false) instead of reading
// past the end, and a failed reader reads nothing more.
class tls_reader {
 public:
  explicit tls_reader(byte_view b) : b_(b) {}
  [[nodiscard]] bool ok() const noexcept { return ok_; }
  [[nodiscard]] std::size_t left() const noexcept { return ok_ ? b_.size() : 0; }
  std::uint8_t u8() { return take(1) ? wire::u8(last_) : 0; }
  std::uint16_t u16() { return take(2) ? wire::be16(last_) : 0; }
  std::uint32_t u24() {
    if (!take(3)) return 0;
    return (std::uint32_t{wire::u8(last_)} << 16) | wire::be16(last_ + 1);
  }
  byte_view bytes(std::size_t n) {
    if (!take(n)) return {};
    return byte_view(last_, n);
  }
  // A vector with a length prefix of `prefix` bytes (1, 2 or 3).
  tls_reader sub(int prefix) {
    const std::size_t n = prefix == 1 ? u8() : prefix == 2 ? u16() : u24();
    const auto v = bytes(n);
    tls_reader r(v);
    r.ok_ = ok_;
    return r;
  }

 private:
  bool take(std::size_t n) {
    if (!ok_ || b_.size() < n) {
      ok_ = false;
      return false;
    }
    last_ = b_.data();
    b_ = b_.subspan(n);
    return true;
  }
  byte_view b_;
  const std::byte* last_ = nullptr;
  bool ok_ = true;
};

std::vector<std::uint16_t> u16_list(tls_reader r) {
  std::vector<std::uint16_t> out;
  while (r.ok() && r.left() >= 2) out.push_back(r.u16());
  return out;
}

std::string as_text(byte_view b) {
  return std::string(reinterpret_cast<const char*>(b.data()), b.size());
}

// RFC 6066 §3: ServerNameList; the first host_name entry.
std::optional<std::string> server_name_of(tls_reader ext) {
  auto list = ext.sub(2);
  while (list.ok() && list.left() >= 3) {
    const auto type = list.u8();
    const auto name = list.sub(2);
    if (!list.ok()) break;
    if (type == 0) {
      auto n = name;
      return as_text(n.bytes(n.left()));
    }
  }
  return std::nullopt;
}

// RFC 7301 §3.1: ProtocolNameList.
std::vector<std::string> alpn_of(tls_reader ext) {
  std::vector<std::string> out;
  auto list = ext.sub(2);
  while (list.ok() && list.left() >= 1) {
    auto name = list.sub(1);
    if (!list.ok()) break;
    out.push_back(as_text(name.bytes(name.left())));
  }
  return out;
}

constexpr std::uint16_t ext_server_name = 0, ext_supported_groups = 10, ext_signature_algorithms = 13, ext_alpn = 16,
                        ext_supported_versions = 43, ext_key_share = 51;

// RFC 8446 §4.1.3: a ServerHello with this random is a HelloRetryRequest.
constexpr std::array<std::uint8_t, 32> hello_retry_random{
    0xCF, 0x21, 0xAD, 0x74, 0xE5, 0x9A, 0x61, 0x11, 0xBE, 0x1D, 0x8C, 0x02, 0x1E, 0x65, 0xB8, 0x91,
    0xC2, 0xA2, 0x11, 0x16, 0x7A, 0xBB, 0x8C, 0x5E, 0x07, 0x9E, 0x09, 0xE2, 0xC8, 0xA8, 0x33, 0x9C};

std::uint32_t be24(const std::byte* p) {
  return (std::uint32_t{wire::u8(p)} << 16) | wire::be16(p + 1);
}

// The extensions list that `r` holds next (RFC 8446 section 4.2): f(type, data) for each; false
// when the list is malformed (a length past its end, or bytes left over).
template <class F>
bool each_extension(tls_reader& r, F&& f) {
  auto exts = r.sub(2);
  while (exts.ok() && exts.left() >= 4) {
    const auto type = exts.u16();
    auto data = exts.sub(2);
    if (!exts.ok()) return false;
    f(type, data);
  }
  return exts.ok() && exts.left() == 0;
}

}  // namespace

std::optional<tls_client_hello> decode_client_hello(byte_view body) {
  tls_reader r(body);
  tls_client_hello h;
  h.legacy_version = r.u16();
  r.bytes(32);  // random
  h.session_id_length = r.sub(1).left();
  h.cipher_suites = u16_list(r.sub(2));
  r.sub(1);  // compression methods
  if (!r.ok()) return std::nullopt;
  if (r.left() == 0) return h;  // no extensions (allowed before TLS 1.3)
  const bool well_formed = each_extension(r, [&h](std::uint16_t type, tls_reader& data) {
    h.extensions.push_back(type);
    switch (type) {
      case ext_server_name:
        h.server_name = server_name_of(data);
        break;
      case ext_alpn:
        h.alpn = alpn_of(data);
        break;
      case ext_supported_versions:
        h.supported_versions = u16_list(data.sub(1));
        break;
      case ext_supported_groups:
        h.supported_groups = u16_list(data.sub(2));
        break;
      case ext_signature_algorithms:
        h.signature_algorithms = u16_list(data.sub(2));
        break;
      case ext_key_share: {
        auto shares = data.sub(2);
        while (shares.ok() && shares.left() >= 4) {
          const auto group = shares.u16();
          shares.sub(2);
          if (shares.ok()) h.key_share_groups.push_back(group);
        }
        break;
      }
      default:
        break;
    }
  });
  if (!well_formed) return std::nullopt;
  return h;
}

std::optional<tls_server_hello> decode_server_hello(byte_view body) {
  tls_reader r(body);
  tls_server_hello h;
  h.legacy_version = r.u16();
  const auto random = r.bytes(32);
  r.sub(1);  // session id
  h.cipher_suite = r.u16();
  r.u8();  // compression method
  if (!r.ok()) return std::nullopt;
  h.hello_retry_request = std::equal(random.begin(), random.end(), hello_retry_random.begin(),
                                     [](std::byte a, std::uint8_t b) { return static_cast<std::uint8_t>(a) == b; });
  if (r.left() == 0) return h;
  const bool well_formed = each_extension(r, [&h](std::uint16_t type, tls_reader& data) {
    h.extensions.push_back(type);
    if (type == ext_supported_versions && data.left() >= 2) h.selected_version = data.u16();
    if (type == ext_key_share && data.left() >= 2)
      h.key_share_group = data.u16();  // (a HelloRetryRequest: the group asked for)
    if (type == ext_alpn) {
      const auto names = alpn_of(data);
      if (!names.empty()) h.alpn = names.front();
    }
  });
  if (!well_formed) return std::nullopt;
  return h;
}

tls_analyzer::tls_analyzer(tls_limits limits) : limits_(limits) {}

void tls_analyzer::stop(bool from_client, std::string why) {
  auto& counts = from_client ? session_.client : session_.server;
  counts.decoding = false;
  dirs_[from_client ? 0 : 1].pending.clear();
  dirs_[from_client ? 0 : 1].message.clear();
  if (!session_.error) session_.error = fmt::format("{}: {}", from_client ? "client" : "server", why);
}

void tls_analyzer::gap(bool from_client, std::uint64_t size) {
  auto& counts = from_client ? session_.client : session_.server;
  if (!counts.decoding) return;
  if (!counts.tls && !dirs_[from_client ? 0 : 1].started) {
    counts.decoding = false;  // nothing was seen: not known to be TLS, nothing lost
    return;
  }
  stop(from_client, fmt::format("{} bytes missing from the capture: the records after them are not decoded", size));
}

void tls_analyzer::feed(bool from_client, byte_view bytes) {
  auto& d = dirs_[from_client ? 0 : 1];
  auto& counts = from_client ? session_.client : session_.server;
  while (counts.decoding && !bytes.empty()) {
    // The record header: from the waiting bytes, or in place.
    if (d.pending.size() < 5 && (!d.pending.empty() || bytes.size() < 5)) {
      const auto take = std::min(5 - d.pending.size(), bytes.size());
      d.pending.insert(d.pending.end(), bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(take));
      bytes = bytes.subspan(take);
      if (d.pending.size() < 5) return;
    }
    const std::byte* header = d.pending.empty() ? bytes.data() : d.pending.data();
    const std::uint8_t type = wire::u8(header);
    const std::uint16_t version = wire::be16(header + 1);
    const std::uint16_t length = wire::be16(header + 3);
    if (!d.started) {
      // RFC 8446 §5.1: a TLS stream begins with a handshake record (an alert from a server that
      // refuses at once); the record version's major byte is 3 for every version.
      const bool first_ok = (type == tls_content::handshake || (!from_client && type == tls_content::alert)) &&
                            (version >> 8) == 3 && (version & 0xff) <= 4;
      if (!first_ok) {
        counts.decoding = false;  // not TLS: nothing to report
        d.pending.clear();
        return;
      }
      d.started = true;
      counts.tls = true;
    }
    if (type < tls_content::change_cipher_spec || type > tls_content::heartbeat || (version >> 8) != 3) {
      return stop(from_client, fmt::format("bad record header (type {}, version 0x{:04x})", type, version));
    }
    if (length > limits_.max_record_length) {
      return stop(from_client, fmt::format("record of {} bytes, longer than the {} any TLS version allows", length,
                                           limits_.max_record_length));
    }
    if (d.pending.empty() && bytes.size() >= 5u + length) {
      on_record(from_client, type, version, bytes.subspan(5, length));
      bytes = bytes.subspan(5u + length);
      continue;
    }
    if (d.pending.empty()) {  // the header is in place, the body is not all there: wait
      d.pending.assign(bytes.begin(), bytes.begin() + 5);
      bytes = bytes.subspan(5);
    }
    const auto need = 5u + length - d.pending.size();
    const auto take = std::min<std::size_t>(need, bytes.size());
    d.pending.insert(d.pending.end(), bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(take));
    bytes = bytes.subspan(take);
    if (d.pending.size() < 5u + length) return;
    std::vector<std::byte> record;
    record.swap(d.pending);
    on_record(from_client, type, version, byte_view(record).subspan(5));
  }
}

void tls_analyzer::on_record(bool from_client, std::uint8_t type, std::uint16_t version, byte_view body) {
  auto& d = dirs_[from_client ? 0 : 1];
  auto& counts = from_client ? session_.client : session_.server;
  ++counts.records;
  tls_record* rec = nullptr;
  if (session_.records.size() < limits_.max_records) {
    session_.records.push_back({from_client, type, version, static_cast<std::uint16_t>(body.size()), false, {}});
    rec = &session_.records.back();
  } else {
    session_.records_truncated = true;
  }
  const bool encrypted = d.encrypted || type == tls_content::application_data;
  if (rec != nullptr) rec->encrypted = encrypted;
  switch (type) {
    case tls_content::change_cipher_spec:
      ++counts.change_cipher_spec_records;
      d.encrypted = true;  // RFC 5246 §7.1: the records after it are protected
      if (rec != nullptr) rec->encrypted = false;
      break;
    case tls_content::alert:
      ++counts.alert_records;
      break;
    case tls_content::application_data:
      ++counts.application_data_records;
      counts.application_data_bytes += body.size();
      break;
    case tls_content::handshake:
      if (encrypted) {
        ++counts.encrypted_handshake_records;
      } else {
        ++counts.handshake_records;
        on_handshake_bytes(from_client, body, rec);
      }
      break;
    default:
      break;
  }
}

void tls_analyzer::on_handshake_bytes(bool from_client, byte_view body, tls_record* rec) {
  auto& d = dirs_[from_client ? 0 : 1];
  auto& counts = from_client ? session_.client : session_.server;
  auto& order = from_client ? session_.client_messages : session_.server_messages;
  while (!body.empty() && counts.decoding) {
    if (d.skip_message > 0) {
      const auto n = std::min<std::uint64_t>(d.skip_message, body.size());
      d.skip_message -= n;
      body = body.subspan(n);
      if (d.skip_message == 0 && rec != nullptr) rec->messages.push_back(order.back());
      continue;
    }
    if (d.message.size() < 4) {
      const auto take = std::min<std::size_t>(4 - d.message.size(), body.size());
      d.message.insert(d.message.end(), body.begin(), body.begin() + static_cast<std::ptrdiff_t>(take));
      body = body.subspan(take);
      if (d.message.size() < 4) return;
      const std::uint8_t type = wire::u8(d.message.data());
      const std::uint32_t length = be24(d.message.data() + 1);
      ++counts.handshake_messages;
      order.push_back(type);
      if (length > limits_.max_handshake_message) {
        ++counts.oversized_messages;
        d.skip_message = length;
        d.message.clear();
        continue;
      }
      d.message.reserve(4 + length);
    }
    const std::uint32_t length = be24(d.message.data() + 1);
    const auto take = std::min<std::size_t>(4 + length - d.message.size(), body.size());
    d.message.insert(d.message.end(), body.begin(), body.begin() + static_cast<std::ptrdiff_t>(take));
    body = body.subspan(take);
    if (d.message.size() == 4 + length) {
      std::vector<std::byte> message;
      message.swap(d.message);
      const std::uint8_t type = wire::u8(message.data());
      if (rec != nullptr) rec->messages.push_back(type);
      on_message(from_client, type, byte_view(message).subspan(4));
    }
  }
}

void tls_analyzer::on_message(bool from_client, std::uint8_t type, byte_view body) {
  if (from_client && type == tls_handshake::client_hello) {
    auto h = decode_client_hello(body);
    if (!h) {
      if (!session_.error) session_.error = "client: malformed ClientHello";
      return;
    }
    if (!session_.client_hello) session_.client_hello = std::move(h);
    return;
  }
  if (!from_client && type == tls_handshake::server_hello) {
    auto h = decode_server_hello(body);
    if (!h) {
      if (!session_.error) session_.error = "server: malformed ServerHello";
      return;
    }
    if (h->hello_retry_request)
      session_.hello_retry_request = true;
    else if (!session_.server_hello)
      session_.server_hello = std::move(h);
    // TLS 1.3 (RFC 8446 §2): everything the server sends after its ServerHello is encrypted.
    if (session_.server_hello && session_.server_hello->version() == 0x0304) dirs_[1].encrypted = true;
    return;
  }
  if (!from_client && type == tls_handshake::certificate && !session_.certificates) {
    // RFC 5246 §7.4.2: certificate_list<0..2^24-1>, each ASN.1Cert<1..2^24-1>. (TLS 1.3's, with
    // its request context and per-certificate extensions, is always encrypted.)
    tls_reader r(body);
    auto list = r.sub(3);
    std::size_t n = 0;
    while (list.ok() && list.left() >= 3) {
      list.sub(3);
      if (list.ok()) ++n;
    }
    if (r.ok() && list.ok()) session_.certificates = n;
  }
}

}  // namespace netlib::packet
