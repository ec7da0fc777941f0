// Names of TLS versions, cipher suites, named groups, content and handshake types, as IANA's TLS
// registries spell them (https://www.iana.org/assignments/tls-parameters), for answers a student
// can read off Wireshark. The cipher suite table covers every suite OpenSSL 3 implements plus the
// two signalling values; a suite not in it is shown by its number.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <utility>

#include "netlib/packet/tls.hpp"

namespace netlib::packet {
namespace {

constexpr std::pair<std::uint16_t, std::string_view> cipher_suite_names[] = {
    {0x0001, "TLS_RSA_WITH_NULL_MD5"},
    {0x0002, "TLS_RSA_WITH_NULL_SHA"},
    {0x002c, "TLS_PSK_WITH_NULL_SHA"},
    {0x002d, "TLS_DHE_PSK_WITH_NULL_SHA"},
    {0x002e, "TLS_RSA_PSK_WITH_NULL_SHA"},
    {0x002f, "TLS_RSA_WITH_AES_128_CBC_SHA"},
    {0x0032, "TLS_DHE_DSS_WITH_AES_128_CBC_SHA"},
    {0x0033, "TLS_DHE_RSA_WITH_AES_128_CBC_SHA"},
    {0x0034, "TLS_DH_anon_WITH_AES_128_CBC_SHA"},
    {0x0035, "TLS_RSA_WITH_AES_256_CBC_SHA"},
    {0x0038, "TLS_DHE_DSS_WITH_AES_256_CBC_SHA"},
    {0x0039, "TLS_DHE_RSA_WITH_AES_256_CBC_SHA"},
    {0x003a, "TLS_DH_anon_WITH_AES_256_CBC_SHA"},
    {0x003b, "TLS_RSA_WITH_NULL_SHA256"},
    {0x003c, "TLS_RSA_WITH_AES_128_CBC_SHA256"},
    {0x003d, "TLS_RSA_WITH_AES_256_CBC_SHA256"},
    {0x0040, "TLS_DHE_DSS_WITH_AES_128_CBC_SHA256"},
    {0x0041, "TLS_RSA_WITH_CAMELLIA_128_CBC_SHA"},
    {0x0044, "TLS_DHE_DSS_WITH_CAMELLIA_128_CBC_SHA"},
    {0x0045, "TLS_DHE_RSA_WITH_CAMELLIA_128_CBC_SHA"},
    {0x0046, "TLS_DH_anon_WITH_CAMELLIA_128_CBC_SHA"},
    {0x0067, "TLS_DHE_RSA_WITH_AES_128_CBC_SHA256"},
    {0x006a, "TLS_DHE_DSS_WITH_AES_256_CBC_SHA256"},
    {0x006b, "TLS_DHE_RSA_WITH_AES_256_CBC_SHA256"},
    {0x006c, "TLS_DH_anon_WITH_AES_128_CBC_SHA256"},
    {0x006d, "TLS_DH_anon_WITH_AES_256_CBC_SHA256"},
    {0x0084, "TLS_RSA_WITH_CAMELLIA_256_CBC_SHA"},
    {0x0087, "TLS_DHE_DSS_WITH_CAMELLIA_256_CBC_SHA"},
    {0x0088, "TLS_DHE_RSA_WITH_CAMELLIA_256_CBC_SHA"},
    {0x0089, "TLS_DH_anon_WITH_CAMELLIA_256_CBC_SHA"},
    {0x008c, "TLS_PSK_WITH_AES_128_CBC_SHA"},
    {0x008d, "TLS_PSK_WITH_AES_256_CBC_SHA"},
    {0x0090, "TLS_DHE_PSK_WITH_AES_128_CBC_SHA"},
    {0x0091, "TLS_DHE_PSK_WITH_AES_256_CBC_SHA"},
    {0x0094, "TLS_RSA_PSK_WITH_AES_128_CBC_SHA"},
    {0x0095, "TLS_RSA_PSK_WITH_AES_256_CBC_SHA"},
    {0x009c, "TLS_RSA_WITH_AES_128_GCM_SHA256"},
    {0x009d, "TLS_RSA_WITH_AES_256_GCM_SHA384"},
    {0x009e, "TLS_DHE_RSA_WITH_AES_128_GCM_SHA256"},
    {0x009f, "TLS_DHE_RSA_WITH_AES_256_GCM_SHA384"},
    {0x00a2, "TLS_DHE_DSS_WITH_AES_128_GCM_SHA256"},
    {0x00a3, "TLS_DHE_DSS_WITH_AES_256_GCM_SHA384"},
    {0x00a6, "TLS_DH_anon_WITH_AES_128_GCM_SHA256"},
    {0x00a7, "TLS_DH_anon_WITH_AES_256_GCM_SHA384"},
    {0x00a8, "TLS_PSK_WITH_AES_128_GCM_SHA256"},
    {0x00a9, "TLS_PSK_WITH_AES_256_GCM_SHA384"},
    {0x00aa, "TLS_DHE_PSK_WITH_AES_128_GCM_SHA256"},
    {0x00ab, "TLS_DHE_PSK_WITH_AES_256_GCM_SHA384"},
    {0x00ac, "TLS_RSA_PSK_WITH_AES_128_GCM_SHA256"},
    {0x00ad, "TLS_RSA_PSK_WITH_AES_256_GCM_SHA384"},
    {0x00ae, "TLS_PSK_WITH_AES_128_CBC_SHA256"},
    {0x00af, "TLS_PSK_WITH_AES_256_CBC_SHA384"},
    {0x00b0, "TLS_PSK_WITH_NULL_SHA256"},
    {0x00b1, "TLS_PSK_WITH_NULL_SHA384"},
    {0x00b2, "TLS_DHE_PSK_WITH_AES_128_CBC_SHA256"},
    {0x00b3, "TLS_DHE_PSK_WITH_AES_256_CBC_SHA384"},
    {0x00b4, "TLS_DHE_PSK_WITH_NULL_SHA256"},
    {0x00b5, "TLS_DHE_PSK_WITH_NULL_SHA384"},
    {0x00b6, "TLS_RSA_PSK_WITH_AES_128_CBC_SHA256"},
    {0x00b7, "TLS_RSA_PSK_WITH_AES_256_CBC_SHA384"},
    {0x00b8, "TLS_RSA_PSK_WITH_NULL_SHA256"},
    {0x00b9, "TLS_RSA_PSK_WITH_NULL_SHA384"},
    {0x00ba, "TLS_RSA_WITH_CAMELLIA_128_CBC_SHA256"},
    {0x00bd, "TLS_DHE_DSS_WITH_CAMELLIA_128_CBC_SHA256"},
    {0x00be, "TLS_DHE_RSA_WITH_CAMELLIA_128_CBC_SHA256"},
    {0x00bf, "TLS_DH_anon_WITH_CAMELLIA_128_CBC_SHA256"},
    {0x00c0, "TLS_RSA_WITH_CAMELLIA_256_CBC_SHA256"},
    {0x00c3, "TLS_DHE_DSS_WITH_CAMELLIA_256_CBC_SHA256"},
    {0x00c4, "TLS_DHE_RSA_WITH_CAMELLIA_256_CBC_SHA256"},
    {0x00c5, "TLS_DH_anon_WITH_CAMELLIA_256_CBC_SHA256"},
    {0x00ff, "TLS_EMPTY_RENEGOTIATION_INFO_SCSV"},
    {0x1301, "TLS_AES_128_GCM_SHA256"},
    {0x1302, "TLS_AES_256_GCM_SHA384"},
    {0x1303, "TLS_CHACHA20_POLY1305_SHA256"},
    {0x1304, "TLS_AES_128_CCM_SHA256"},
    {0x1305, "TLS_AES_128_CCM_8_SHA256"},
    {0x5600, "TLS_FALLBACK_SCSV"},
    {0xc006, "TLS_ECDHE_ECDSA_WITH_NULL_SHA"},
    {0xc009, "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA"},
    {0xc00a, "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA"},
    {0xc010, "TLS_ECDHE_RSA_WITH_NULL_SHA"},
    {0xc013, "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA"},
    {0xc014, "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA"},
    {0xc015, "TLS_ECDH_anon_WITH_NULL_SHA"},
    {0xc018, "TLS_ECDH_anon_WITH_AES_128_CBC_SHA"},
    {0xc019, "TLS_ECDH_anon_WITH_AES_256_CBC_SHA"},
    {0xc01d, "TLS_SRP_SHA_WITH_AES_128_CBC_SHA"},
    {0xc01e, "TLS_SRP_SHA_RSA_WITH_AES_128_CBC_SHA"},
    {0xc01f, "TLS_SRP_SHA_DSS_WITH_AES_128_CBC_SHA"},
    {0xc020, "TLS_SRP_SHA_WITH_AES_256_CBC_SHA"},
    {0xc021, "TLS_SRP_SHA_RSA_WITH_AES_256_CBC_SHA"},
    {0xc022, "TLS_SRP_SHA_DSS_WITH_AES_256_CBC_SHA"},
    {0xc023, "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256"},
    {0xc024, "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA384"},
    {0xc027, "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256"},
    {0xc028, "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384"},
    {0xc02b, "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256"},
    {0xc02c, "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384"},
    {0xc02f, "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"},
    {0xc030, "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384"},
    {0xc035, "TLS_ECDHE_PSK_WITH_AES_128_CBC_SHA"},
    {0xc036, "TLS_ECDHE_PSK_WITH_AES_256_CBC_SHA"},
    {0xc037, "TLS_ECDHE_PSK_WITH_AES_128_CBC_SHA256"},
    {0xc038, "TLS_ECDHE_PSK_WITH_AES_256_CBC_SHA384"},
    {0xc039, "TLS_ECDHE_PSK_WITH_NULL_SHA"},
    {0xc03a, "TLS_ECDHE_PSK_WITH_NULL_SHA256"},
    {0xc03b, "TLS_ECDHE_PSK_WITH_NULL_SHA384"},
    {0xc050, "TLS_RSA_WITH_ARIA_128_GCM_SHA256"},
    {0xc051, "TLS_RSA_WITH_ARIA_256_GCM_SHA384"},
    {0xc052, "TLS_DHE_RSA_WITH_ARIA_128_GCM_SHA256"},
    {0xc053, "TLS_DHE_RSA_WITH_ARIA_256_GCM_SHA384"},
    {0xc056, "TLS_DHE_DSS_WITH_ARIA_128_GCM_SHA256"},
    {0xc057, "TLS_DHE_DSS_WITH_ARIA_256_GCM_SHA384"},
    {0xc05c, "TLS_ECDHE_ECDSA_WITH_ARIA_128_GCM_SHA256"},
    {0xc05d, "TLS_ECDHE_ECDSA_WITH_ARIA_256_GCM_SHA384"},
    {0xc060, "TLS_ECDHE_RSA_WITH_ARIA_128_GCM_SHA256"},
    {0xc061, "TLS_ECDHE_RSA_WITH_ARIA_256_GCM_SHA384"},
    {0xc06a, "TLS_PSK_WITH_ARIA_128_GCM_SHA256"},
    {0xc06b, "TLS_PSK_WITH_ARIA_256_GCM_SHA384"},
    {0xc06c, "TLS_DHE_PSK_WITH_ARIA_128_GCM_SHA256"},
    {0xc06d, "TLS_DHE_PSK_WITH_ARIA_256_GCM_SHA384"},
    {0xc06e, "TLS_RSA_PSK_WITH_ARIA_128_GCM_SHA256"},
    {0xc06f, "TLS_RSA_PSK_WITH_ARIA_256_GCM_SHA384"},
    {0xc072, "TLS_ECDHE_ECDSA_WITH_CAMELLIA_128_CBC_SHA256"},
    {0xc073, "TLS_ECDHE_ECDSA_WITH_CAMELLIA_256_CBC_SHA384"},
    {0xc076, "TLS_ECDHE_RSA_WITH_CAMELLIA_128_CBC_SHA256"},
    {0xc077, "TLS_ECDHE_RSA_WITH_CAMELLIA_256_CBC_SHA384"},
    {0xc094, "TLS_PSK_WITH_CAMELLIA_128_CBC_SHA256"},
    {0xc095, "TLS_PSK_WITH_CAMELLIA_256_CBC_SHA384"},
    {0xc096, "TLS_DHE_PSK_WITH_CAMELLIA_128_CBC_SHA256"},
    {0xc097, "TLS_DHE_PSK_WITH_CAMELLIA_256_CBC_SHA384"},
    {0xc098, "TLS_RSA_PSK_WITH_CAMELLIA_128_CBC_SHA256"},
    {0xc099, "TLS_RSA_PSK_WITH_CAMELLIA_256_CBC_SHA384"},
    {0xc09a, "TLS_ECDHE_PSK_WITH_CAMELLIA_128_CBC_SHA256"},
    {0xc09b, "TLS_ECDHE_PSK_WITH_CAMELLIA_256_CBC_SHA384"},
    {0xc09c, "TLS_RSA_WITH_AES_128_CCM"},
    {0xc09d, "TLS_RSA_WITH_AES_256_CCM"},
    {0xc09e, "TLS_DHE_RSA_WITH_AES_128_CCM"},
    {0xc09f, "TLS_DHE_RSA_WITH_AES_256_CCM"},
    {0xc0a0, "TLS_RSA_WITH_AES_128_CCM_8"},
    {0xc0a1, "TLS_RSA_WITH_AES_256_CCM_8"},
    {0xc0a2, "TLS_DHE_RSA_WITH_AES_128_CCM_8"},
    {0xc0a3, "TLS_DHE_RSA_WITH_AES_256_CCM_8"},
    {0xc0a4, "TLS_PSK_WITH_AES_128_CCM"},
    {0xc0a5, "TLS_PSK_WITH_AES_256_CCM"},
    {0xc0a6, "TLS_DHE_PSK_WITH_AES_128_CCM"},
    {0xc0a7, "TLS_DHE_PSK_WITH_AES_256_CCM"},
    {0xc0a8, "TLS_PSK_WITH_AES_128_CCM_8"},
    {0xc0a9, "TLS_PSK_WITH_AES_256_CCM_8"},
    {0xc0aa, "TLS_PSK_DHE_WITH_AES_128_CCM_8"},
    {0xc0ab, "TLS_PSK_DHE_WITH_AES_256_CCM_8"},
    {0xc0ac, "TLS_ECDHE_ECDSA_WITH_AES_128_CCM"},
    {0xc0ad, "TLS_ECDHE_ECDSA_WITH_AES_256_CCM"},
    {0xc0ae, "TLS_ECDHE_ECDSA_WITH_AES_128_CCM_8"},
    {0xc0af, "TLS_ECDHE_ECDSA_WITH_AES_256_CCM_8"},
    {0xcca8, "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256"},
    {0xcca9, "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256"},
    {0xccaa, "TLS_DHE_RSA_WITH_CHACHA20_POLY1305_SHA256"},
    {0xccab, "TLS_PSK_WITH_CHACHA20_POLY1305_SHA256"},
    {0xccac, "TLS_ECDHE_PSK_WITH_CHACHA20_POLY1305_SHA256"},
    {0xccad, "TLS_DHE_PSK_WITH_CHACHA20_POLY1305_SHA256"},
    {0xccae, "TLS_RSA_PSK_WITH_CHACHA20_POLY1305_SHA256"},
};

constexpr std::pair<std::uint16_t, std::string_view> group_names[] = {
    {0x0017, "secp256r1"},
    {0x0018, "secp384r1"},
    {0x0019, "secp521r1"},
    {0x001d, "x25519"},
    {0x001e, "x448"},
    {0x0100, "ffdhe2048"},
    {0x0101, "ffdhe3072"},
    {0x0102, "ffdhe4096"},
    {0x0103, "ffdhe6144"},
    {0x0104, "ffdhe8192"},
    {0x001a, "brainpoolP256r1"},
    {0x001b, "brainpoolP384r1"},
    {0x001c, "brainpoolP512r1"},
    {0x11ec, "X25519MLKEM768"},
    {0x6399, "X25519Kyber768Draft00"},
};

}  // namespace

std::string tls_version_name(std::uint16_t version) {
  switch (version) {
    case 0x0300:
      return "SSL 3.0";
    case 0x0301:
      return "TLS 1.0";
    case 0x0302:
      return "TLS 1.1";
    case 0x0303:
      return "TLS 1.2";
    case 0x0304:
      return "TLS 1.3";
    default:
      break;
  }
  if (tls_is_grease(version)) return "GREASE";
  return fmt::format("0x{:04x}", version);
}

std::optional<std::string_view> tls_cipher_suite_name(std::uint16_t suite) {
  const auto* end = std::end(cipher_suite_names);
  const auto* it = std::lower_bound(std::begin(cipher_suite_names), end, suite,
                                    [](const auto& entry, std::uint16_t v) { return entry.first < v; });
  if (it == end || it->first != suite) return std::nullopt;
  return it->second;
}

std::optional<std::string_view> tls_group_name(std::uint16_t group) {
  for (const auto& [code, name] : group_names) {
    if (code == group) return name;
  }
  return std::nullopt;
}

std::string tls_content_name(std::uint8_t type) {
  switch (type) {
    case tls_content::change_cipher_spec:
      return "change_cipher_spec";
    case tls_content::alert:
      return "alert";
    case tls_content::handshake:
      return "handshake";
    case tls_content::application_data:
      return "application_data";
    case tls_content::heartbeat:
      return "heartbeat";
    default:
      return fmt::format("type {}", type);
  }
}

std::string tls_handshake_name(std::uint8_t type) {
  switch (type) {
    case 0:
      return "HelloRequest";
    case tls_handshake::client_hello:
      return "ClientHello";
    case tls_handshake::server_hello:
      return "ServerHello";
    case tls_handshake::new_session_ticket:
      return "NewSessionTicket";
    case 5:
      return "EndOfEarlyData";
    case tls_handshake::encrypted_extensions:
      return "EncryptedExtensions";
    case tls_handshake::certificate:
      return "Certificate";
    case tls_handshake::server_key_exchange:
      return "ServerKeyExchange";
    case tls_handshake::certificate_request:
      return "CertificateRequest";
    case tls_handshake::server_hello_done:
      return "ServerHelloDone";
    case tls_handshake::certificate_verify:
      return "CertificateVerify";
    case tls_handshake::client_key_exchange:
      return "ClientKeyExchange";
    case tls_handshake::finished:
      return "Finished";
    case 22:
      return "CertificateStatus";
    case 24:
      return "KeyUpdate";
    case 254:
      return "MessageHash";
    default:
      return fmt::format("type {}", type);
  }
}

}  // namespace netlib::packet
