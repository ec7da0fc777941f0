// Theory of operation. Every TCP conversation of the capture is fed, in capture order, to a
// netlib::packet::tls_analyzer (records framed whatever the segments, handshake messages put back
// together across records, nothing decrypted); a conversation whose client bytes begin like TLS
// is a TLS connection. The questions are those of the textbook's TLS lab, answered from what a
// monitor without keys sees: the ClientHello (versions, cipher suites, SNI, ALPN, groups, key
// shares), the ServerHello (version and cipher suite chosen), the certificates when sent in clear
// (TLS 1.2), which handshake messages each side sent in clear and which the server's first record
// carried, and how many records of each kind each side sent. Memory: an analyzer is made on a
// conversation's first byte and freed when it is released; the sessions of the first
// max_per_kind TLS connections (by conversation id) are kept.
#include <fmt/format.h>

#include <algorithm>
#include <memory>

#include "netlib/capture/tcp_replay.hpp"
#include "netlib/packet/tls.hpp"
#include "questions_packets.hpp"

namespace netlab::grade {

namespace {

namespace pk = netlib::packet;

struct tls_found {
  pk::tcp_conversation conversation;
  pk::tls_session session;
};

class tls_feed final : public netlib::capture::stream_consumer {
 public:
  tls_feed(std::vector<tls_found>& found, std::uint64_t& count, std::size_t keep)
      : found_(found), count_(count), keep_(keep) {}
  void on_bytes(pk::tcp_direction d, netlib::byte_view bytes, netlib::time_point) override {
    if (d == pk::tcp_direction::client_to_server)
      get().client_bytes(bytes);
    else
      get().server_bytes(bytes);
  }
  void on_gap(pk::tcp_direction d, std::uint64_t size, netlib::time_point) override {
    get().gap(d == pk::tcp_direction::client_to_server, size);
  }
  void on_close(const pk::tcp_conversation& c) override {
    if (!analyzer_ || !analyzer_->session().client.tls) return;
    ++count_;
    found_.push_back({c, analyzer_->session()});
    std::sort(found_.begin(), found_.end(),
              [](const auto& a, const auto& b) { return a.conversation.id < b.conversation.id; });
    if (found_.size() > keep_) found_.pop_back();
  }

 private:
  pk::tls_analyzer& get() {
    if (!analyzer_) analyzer_ = std::make_unique<pk::tls_analyzer>();
    return *analyzer_;
  }
  std::vector<tls_found>& found_;
  std::uint64_t& count_;
  std::size_t keep_;
  std::unique_ptr<pk::tls_analyzer> analyzer_;
};

std::string version_answer(std::uint16_t v) {
  return fmt::format("{} (0x{:04x})", pk::tls_version_name(v), v);
}

std::string suite_answer(std::uint16_t s) {
  const auto name = pk::tls_cipher_suite_name(s);
  return fmt::format("{} (0x{:04x})", name ? std::string(*name) : fmt::format("0x{:04x}", s), s);
}

std::string group_name(std::uint16_t g) {
  const auto name = pk::tls_group_name(g);
  return name ? std::string(*name) : fmt::format("0x{:04x}", g);
}

template <class T, class F>
std::string names(const std::vector<T>& values, F name) {
  std::string out;
  for (const auto& v : values) out += (out.empty() ? "" : ", ") + name(v);
  return out;
}

template <class T>
std::vector<T> without_grease(std::vector<T> v) {
  std::erase_if(v, [](T x) { return pk::tls_is_grease(static_cast<std::uint16_t>(x)); });
  return v;
}

std::string message_names(const std::vector<std::uint8_t>& types) {
  return names(types, pk::tls_handshake_name);
}

void connection_questions(std::vector<question>& out, const tls_found& f, std::size_t n) {
  const auto& s = f.session;
  const auto& c = f.conversation;
  const auto which = fmt::format("TLS connection {} (TCP conversation {}, tshark's tcp.stream == {}: {} to {}{})", n,
                                 c.id + 1, c.id, c.client, c.server,
                                 s.client_hello && s.client_hello->server_name
                                     ? fmt::format(", server name {}", *s.client_hello->server_name)
                                     : "");
  const auto add = [&](std::string_view what, std::string text, std::string answer, answer_kind kind) {
    out.push_back(
        {fmt::format("tls.{}.{}", what, n), "tls", fmt::format("{}: {}", which, text), std::move(answer), kind});
  };
  if (const auto& ch = s.client_hello) {
    add("client_hello_version", "which version does the ClientHello's (legacy) version field declare?",
        version_answer(ch->legacy_version), answer_kind::coded);
    if (!ch->supported_versions.empty()) {
      add("client_supported_versions",
          "which TLS versions does the client offer in its supported_versions extension, by name, in order (GREASE "
          "values left out)?",
          names(without_grease(ch->supported_versions), pk::tls_version_name), answer_kind::list);
    }
    add("cipher_suites", "how many cipher suites does the ClientHello offer (as Wireshark counts them)?",
        std::to_string(ch->cipher_suites.size()), answer_kind::number);
    if (ch->server_name) {
      add("sni", "which server name does the ClientHello carry (server_name extension, SNI)?", *ch->server_name,
          answer_kind::text);
    }
    if (!ch->alpn.empty()) {
      add("alpn", "which application protocols does the client offer (ALPN), in order?",
          names(ch->alpn, [](const std::string& x) { return x; }), answer_kind::list);
    }
    if (!ch->supported_groups.empty()) {
      add("supported_groups",
          "which groups does the client support (supported_groups), by name, in order (GREASE left out)?",
          names(without_grease(ch->supported_groups), group_name), answer_kind::list);
    }
    if (!ch->key_share_groups.empty()) {
      add("key_share_groups", "for which groups does the ClientHello send a key share, in order (GREASE left out)?",
          names(without_grease(ch->key_share_groups), group_name), answer_kind::list);
    }
  }
  if (const auto& sh = s.server_hello) {
    add("server_version",
        "which TLS version did the server choose (ServerHello: supported_versions, else its version field)?",
        version_answer(sh->version()), answer_kind::coded);
    add("cipher_suite", "which cipher suite did the server choose?", suite_answer(sh->cipher_suite),
        answer_kind::coded);
    if (sh->alpn)
      add("server_alpn", "which application protocol did the server choose (ALPN)?", *sh->alpn, answer_kind::text);
    if (sh->key_share_group) {
      add("server_key_share", "for which group does the ServerHello carry its key share?",
          group_name(*sh->key_share_group), answer_kind::text);
    }
  }
  if (s.certificates) {
    add("certificates", "how many certificates does the server's Certificate message (sent in clear) hold?",
        std::to_string(*s.certificates), answer_kind::number);
  }
  if (!s.client_messages.empty()) {
    add("client_messages", "which handshake messages did the client send in clear, in order?",
        message_names(s.client_messages), answer_kind::list);
  }
  if (!s.server_messages.empty()) {
    add("server_messages", "which handshake messages did the server send in clear, in order?",
        message_names(s.server_messages), answer_kind::list);
  }
  for (const auto& r : s.records) {
    if (r.from_client) continue;
    if (!r.messages.empty()) {
      add("first_server_record", "which handshake messages does the server's first TLS record carry, in order?",
          message_names(r.messages), answer_kind::list);
    }
    break;
  }
  // Which messages in which record: every record that carries handshake messages in clear.
  for (std::size_t i = 0; i < s.records.size(); ++i) {
    const auto& r = s.records[i];
    if (r.messages.empty()) continue;
    out.push_back({fmt::format("tls.record_messages.{}.{}", n, i + 1), "tls",
                   fmt::format("{}: TLS record {} of the connection (both sides counted, in capture order; sent by the "
                               "{}): which handshake messages does it carry, in order?",
                               which, i + 1, r.from_client ? "client" : "server"),
                   message_names(r.messages), answer_kind::list});
  }
  if (s.records_truncated || !s.client.decoding || !s.server.decoding) return;  // counts would be partial
  add("client_records", "how many TLS records did the client send?", std::to_string(s.client.records),
      answer_kind::number);
  add("server_records", "how many TLS records did the server send?", std::to_string(s.server.records),
      answer_kind::number);
  add("client_application_data", "how many application_data records did the client send?",
      std::to_string(s.client.application_data_records), answer_kind::number);
  add("server_application_data", "how many application_data records did the server send?",
      std::to_string(s.server.application_data_records), answer_kind::number);
  if (s.client.encrypted_handshake_records + s.server.encrypted_handshake_records > 0) {
    add("encrypted_handshake_records",
        "how many handshake records were encrypted (sent after a ChangeCipherSpec: Wireshark's \"Encrypted Handshake "
        "Message\"), both sides together?",
        std::to_string(s.client.encrypted_handshake_records + s.server.encrypted_handshake_records),
        answer_kind::number);
  }
  std::vector<std::string> types;
  for (const auto& r : s.records) {
    const auto name = pk::tls_content_name(r.type);
    if (std::find(types.begin(), types.end(), name) == types.end()) types.push_back(name);
  }
  add("record_types", "which record content types appear in the connection (either side)?",
      names(types, [](const std::string& x) { return x; }), answer_kind::set);
}

}  // namespace

void tls_questions(const std::string& capture, const key_options& options, std::vector<question>& out) {
  std::vector<tls_found> found;
  std::uint64_t count = 0;
  netlib::capture::replay_conversations(capture, [&](const pk::tcp_conversation&) {
    return std::make_unique<tls_feed>(found, count, options.max_per_kind);
  });
  if (count == 0) return;
  out.push_back({"tls.connections", "tls",
                 "How many TLS connections does the capture hold (TCP conversations whose client "
                 "begins with a TLS handshake record)?",
                 std::to_string(count), answer_kind::number});
  for (std::size_t i = 0; i < found.size(); ++i) connection_questions(out, found[i], i + 1);
}

}  // namespace netlab::grade
