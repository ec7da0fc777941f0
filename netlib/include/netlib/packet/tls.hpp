#pragma once
// TLS seen from the wire (RFC 8446 for TLS 1.3, RFC 5246 for TLS 1.2), sans-I/O: the two byte
// streams of a TCP connection in, records and the handshake messages sent in clear out. Nothing
// is decrypted: what a monitor without keys sees is what is reported.
//
//   netlib::packet::tls_analyzer a;
//   a.client_bytes(bytes);  a.server_bytes(bytes);   // in capture order, split anywhere
//   const auto& s = a.session();   // s.client_hello->server_name, s.server_hello->cipher_suite...
//
// Records (RFC 8446 §5.1) are framed in each direction whatever the TCP segments; handshake
// messages (§4) are put back together across records. ClientHello and ServerHello are decoded
// (legacy and supported versions, cipher suites, SNI, ALPN, supported groups, key share groups,
// signature algorithms); a Certificate sent in clear (TLS 1.2 and earlier) gives its number of
// certificates; other messages are counted by type. A direction is encrypted after its
// ChangeCipherSpec (its later handshake records, e.g. TLS 1.2's Finished, are counted as
// encrypted); TLS 1.3 sends encrypted records as application_data (§5.2), which are counted,
// never read.
//
// Limits: a record longer than 2^14 + 2048 bytes (RFC 5246 §6.2.3, the most any version
// allows) is an error and ends the decoding of that direction; a handshake message longer than
// max_handshake_message is counted, not buffered; at most max_records records are kept in
// detail (all are counted). A direction whose bytes do not begin like TLS (a handshake or alert
// record of version 3.x) is not TLS and is not decoded. A gap in a direction (bytes the capture
// missed) ends its decoding: the record boundaries are lost.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "netlib/core/bytes.hpp"

namespace netlib::packet {

namespace tls_content {  // RFC 8446 §5.1 ContentType
inline constexpr std::uint8_t change_cipher_spec = 20;
inline constexpr std::uint8_t alert = 21;
inline constexpr std::uint8_t handshake = 22;
inline constexpr std::uint8_t application_data = 23;
inline constexpr std::uint8_t heartbeat = 24;
}  // namespace tls_content

namespace tls_handshake {  // RFC 8446 §4, RFC 5246 §7.4 HandshakeType
inline constexpr std::uint8_t client_hello = 1;
inline constexpr std::uint8_t server_hello = 2;
inline constexpr std::uint8_t new_session_ticket = 4;
inline constexpr std::uint8_t encrypted_extensions = 8;
inline constexpr std::uint8_t certificate = 11;
inline constexpr std::uint8_t server_key_exchange = 12;
inline constexpr std::uint8_t certificate_request = 13;
inline constexpr std::uint8_t server_hello_done = 14;
inline constexpr std::uint8_t certificate_verify = 15;
inline constexpr std::uint8_t client_key_exchange = 16;
inline constexpr std::uint8_t finished = 20;
}  // namespace tls_handshake

struct tls_limits {
  std::size_t max_record_length = 16384 + 2048;  // RFC 5246 §6.2.3 (TLS 1.3: 2^14 + 256)
  std::size_t max_handshake_message = 65536;     // buffered to be decoded; longer ones are counted
  std::size_t max_records = 4096;                // kept in detail per connection
};

struct tls_client_hello {
  std::uint16_t legacy_version = 0;  // 0x0303 for TLS 1.2 and 1.3 (RFC 8446 §4.1.2)
  std::size_t session_id_length = 0;
  std::vector<std::uint16_t> cipher_suites;         // in the client's order, GREASE values included
  std::optional<std::string> server_name;           // SNI host_name (RFC 6066 §3)
  std::vector<std::string> alpn;                    // ALPN protocols offered (RFC 7301)
  std::vector<std::uint16_t> supported_versions;    // RFC 8446 §4.2.1
  std::vector<std::uint16_t> supported_groups;      // RFC 8446 §4.2.7
  std::vector<std::uint16_t> key_share_groups;      // RFC 8446 §4.2.8: the groups of the shares sent
  std::vector<std::uint16_t> signature_algorithms;  // RFC 8446 §4.2.3
  std::vector<std::uint16_t> extensions;            // extension types, in order
};

struct tls_server_hello {
  std::uint16_t legacy_version = 0;
  std::uint16_t cipher_suite = 0;
  std::optional<std::uint16_t> selected_version;  // supported_versions (TLS 1.3)
  std::optional<std::string> alpn;                // the protocol chosen
  std::optional<std::uint16_t> key_share_group;
  bool hello_retry_request = false;  // RFC 8446 §4.1.3: the special random
  std::vector<std::uint16_t> extensions;
  // The version in use: the selected supported_version, else the legacy version.
  [[nodiscard]] std::uint16_t version() const noexcept { return selected_version.value_or(legacy_version); }
};

struct tls_record {
  bool from_client = false;
  std::uint8_t type = 0;      // tls_content
  std::uint16_t version = 0;  // the record layer's legacy version
  std::uint16_t length = 0;
  bool encrypted = false;              // sent after this direction's ChangeCipherSpec, or application data
  std::vector<std::uint8_t> messages;  // handshake messages in clear that begin in this record
};

struct tls_direction_counts {
  std::uint64_t records = 0;
  std::uint64_t handshake_records = 0;  // in clear
  std::uint64_t encrypted_handshake_records = 0;
  std::uint64_t change_cipher_spec_records = 0;
  std::uint64_t alert_records = 0;
  std::uint64_t application_data_records = 0;
  std::uint64_t application_data_bytes = 0;  // record payload bytes (ciphertext)
  std::uint64_t handshake_messages = 0;      // in clear
  std::uint64_t oversized_messages = 0;      // longer than max_handshake_message: counted only
  bool tls = false;                          // began like TLS
  bool decoding = true;                      // still framing records (false after an error, a gap, or not TLS)
};

struct tls_session {
  std::optional<tls_client_hello> client_hello;  // the first one
  std::optional<tls_server_hello> server_hello;  // the first one that is not a HelloRetryRequest
  bool hello_retry_request = false;
  std::optional<std::size_t> certificates;  // in a Certificate message sent in clear
  std::vector<tls_record> records;          // both directions in the order they completed
  bool records_truncated = false;           // more than max_records
  tls_direction_counts client, server;
  std::vector<std::uint8_t> client_messages, server_messages;  // handshake types in clear, in order
  std::optional<std::string> error;  // why decoding stopped ("server: record of 40000 bytes...")
  [[nodiscard]] bool is_tls() const noexcept { return client.tls || server.tls; }
};

class tls_analyzer {
 public:
  explicit tls_analyzer(tls_limits limits = {});
  void client_bytes(byte_view bytes) { feed(true, bytes); }
  void server_bytes(byte_view bytes) { feed(false, bytes); }
  void gap(bool from_client, std::uint64_t size);
  [[nodiscard]] const tls_session& session() const noexcept { return session_; }

 private:
  struct direction {
    std::vector<std::byte> pending;  // an incomplete record (header included)
    std::vector<std::byte> message;  // an incomplete handshake message (header included)
    std::uint64_t skip_message = 0;  // bytes left of a message too long to buffer
    bool encrypted = false;
    bool started = false;
  };
  void feed(bool from_client, byte_view bytes);
  void on_record(bool from_client, std::uint8_t type, std::uint16_t version, byte_view body);
  void on_handshake_bytes(bool from_client, byte_view body, tls_record* record);
  void on_message(bool from_client, std::uint8_t type, byte_view body);
  void stop(bool from_client, std::string why);

  tls_limits limits_;
  tls_session session_;
  direction dirs_[2];  // 0: client, 1: server
};

// Decoders of the two hello messages' bodies (after the 4-byte handshake header); nullopt when
// malformed. Exposed for tests and fuzzing.
std::optional<tls_client_hello> decode_client_hello(byte_view body);
std::optional<tls_server_hello> decode_server_hello(byte_view body);

// Names: "TLS 1.2" (0x0303), "TLS 1.3", "SSL 3.0", "GREASE", or "0x7f1c".
std::string tls_version_name(std::uint16_t version);
// The IANA name of a cipher suite ("TLS_AES_128_GCM_SHA256"), or nullopt when not in the table.
std::optional<std::string_view> tls_cipher_suite_name(std::uint16_t suite);
// The IANA name of a named group ("x25519", "secp256r1"), or nullopt.
std::optional<std::string_view> tls_group_name(std::uint16_t group);
// "handshake", "application_data", ... (RFC 8446 §5.1); "type N" for others.
std::string tls_content_name(std::uint8_t type);
// "ClientHello", "Certificate", ... (RFC 8446 §4 / RFC 5246 §7.4); "type N" for others.
std::string tls_handshake_name(std::uint8_t type);
// GREASE (RFC 8701): 0x0a0a, 0x1a1a, ... 0xfafa.
inline bool tls_is_grease(std::uint16_t v) noexcept {
  return (v & 0x0f0f) == 0x0a0a && (v >> 8) == (v & 0xff);
}

}  // namespace netlib::packet
