// Theory of operation. The answer key is built from what the project's analyzers find in the
// capture, one pass per analyzer: TCP conversations and HTTP exchanges (questions_http.cpp), FTP
// control sessions with their matched data connections (netlib::capture::find_ftp_sessions, as lab-ftp analyze), SMTP
// and POP3 sessions (the passive session analyzers lab-smtp/lab-pop3 analyze use, fed by
// netlib::capture::session_feed), ARP from the packet decoder (RFC 826), and the IP, ICMP, TLS
// and TCP-timing families of questions_packets.hpp (their own passes). Each protocol
// present gives its question set, numbered from 1 in capture order and cut at max_per_kind; a
// question whose answer the capture does not hold (no response captured, no header sent) is
// left out rather than answered with a guess. Each pass keeps what its questions need, not every
// conversation: counts, the first max_per_kind items, the sessions of the protocol it asks about;
// a session analyzer is made only for a conversation that carries bytes.
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <type_traits>
#include <utility>

#include "netlib/capture/capture_reader.hpp"
#include "netlib/capture/session_feed.hpp"
#include "netlib/ftp_capture/ftp_sessions.hpp"
#include "netlib/packet/packet_decoder.hpp"
#include "netlib/pop3/session_analyzer.hpp"
#include "netlib/smtp/labels.hpp"
#include "netlib/smtp/session_analyzer.hpp"
#include "questions.hpp"
#include "questions_families.hpp"
#include "questions_http.hpp"
#include "questions_packets.hpp"

namespace netlab::grade {

namespace {

struct key_builder {
  const key_options& options;
  std::vector<question> out;

  // subject and slot: see questions.hpp (per-student variants).
  void add(std::string id, std::string protocol, std::string text, std::string answer, answer_kind kind,
           std::string subject = {}, std::string slot = {}) {
    out.push_back({std::move(id), std::move(protocol), std::move(text), std::move(answer), kind, std::move(subject),
                   std::move(slot)});
  }
  [[nodiscard]] bool within(std::size_t n) const { return n <= options.max_per_kind; }
};

void http_exchange_questions(key_builder& k, const http_exchange_facts& e, std::size_t n) {
  const auto who =
      fmt::format("HTTP request {} ({} {} on TCP conversation {})", n, e.method, e.target, e.connection + 1);
  const auto subject = fmt::format("request {}", n);
  if (e.if_modified_since) {
    k.add(fmt::format("http.if_modified_since.{}", n), "http",
          fmt::format("{}: what date does its If-Modified-Since header carry?", who), *e.if_modified_since,
          answer_kind::http_date, subject);
  }
  if (e.if_none_match) {
    k.add(fmt::format("http.if_none_match.{}", n), "http",
          fmt::format("{}: what entity tag does its If-None-Match header carry?", who), *e.if_none_match,
          answer_kind::text, subject);
  }
  if (e.status) {
    k.add(fmt::format("http.status.{}", n), "http", fmt::format("{}: what status code did the server return?", who),
          std::to_string(*e.status), answer_kind::number, subject);
  }
  if (e.complete) {
    k.add(fmt::format("http.body_bytes.{}", n), "http",
          fmt::format("{}: how many bytes of content (the message body) did the response carry?", who),
          std::to_string(e.body_bytes), answer_kind::number, subject, "response size");
    k.add(fmt::format("http.segments.{}", n), "http",
          fmt::format("{}: how many TCP segments carried the response?", who), std::to_string(e.segments),
          answer_kind::number, subject, "response size");
  }
}

void http_questions(key_builder& k, const tcp_capture_facts& f) {
  if (f.http_count == 0) return;
  k.add("http.requests", "http", "How many HTTP requests did the clients send?", std::to_string(f.http_count),
        answer_kind::number);
  k.add("http.client_version", "http", "Which HTTP version does the client run (the version of its first request)?",
        f.http.front().request_version, answer_kind::version, "", "version");
  if (f.first_answered) {
    k.add("http.server_version", "http",
          "Which HTTP version does the server run (the version of its first status line)?",
          f.first_answered->response_version, answer_kind::version, "", "version");
  }
  for (std::size_t i = 0; i < f.http.size() && k.within(i + 1); ++i) http_exchange_questions(k, f.http[i], i + 1);
}

void tcp_questions(key_builder& k, const tcp_capture_facts& f) {
  if (f.conversation_count == 0) return;
  k.add("tcp.conversations", "tcp", "How many TCP conversations does the capture hold?",
        std::to_string(f.conversation_count), answer_kind::number);
  for (std::size_t i = 0; i < f.conversations.size() && k.within(i + 1); ++i) {
    const auto& c = f.conversations[i];
    const auto which = fmt::format("TCP conversation {} (tshark's tcp.stream == {})", i + 1, c.id);
    const auto subject = fmt::format("conversation {}", i + 1);
    k.add(fmt::format("tcp.client.{}", i + 1), "tcp", fmt::format("{}: client IP address and port?", which),
          c.client.to_string(), answer_kind::endpoint, subject, "endpoint");
    k.add(fmt::format("tcp.server.{}", i + 1), "tcp", fmt::format("{}: server IP address and port?", which),
          c.server.to_string(), answer_kind::endpoint, subject, "endpoint");
    k.add(fmt::format("tcp.client_bytes.{}", i + 1), "tcp",
          fmt::format("{}: how many payload bytes did the client send (retransmissions not counted)?", which),
          std::to_string(c.to_server.payload_bytes), answer_kind::number, subject, "bytes");
    k.add(fmt::format("tcp.server_bytes.{}", i + 1), "tcp",
          fmt::format("{}: how many payload bytes did the server send (retransmissions not counted)?", which),
          std::to_string(c.to_client.payload_bytes), answer_kind::number, subject, "bytes");
  }
}

void ftp_questions(key_builder& k, const std::string& capture) {
  const auto report = netlib::capture::find_ftp_sessions(capture, k.options.ftp_control_port);
  std::size_t n = 0;
  for (const auto& s : report.sessions) {
    for (const auto& t : s.transfers) {
      if (!k.within(++n)) return;
      const auto which =
          fmt::format("FTP data connection {} ({}{}{})", n, t.command, t.path.empty() ? "" : " ", t.path);
      const auto port = t.data_server.substr(t.data_server.rfind(':') + 1);
      const auto subject = fmt::format("data connection {}", n);
      k.add(fmt::format("ftp.data_port.{}", n), "ftp",
            fmt::format("{}: on which port was it accepted (the port of its TCP server)?", which), port,
            answer_kind::number, subject);
      k.add(fmt::format("ftp.data_mode.{}", n), "ftp",
            fmt::format("{}: was it active (the FTP server connected, PORT/EPRT) or passive (PASV/EPSV)?", which),
            t.passive ? "passive" : "active", answer_kind::choice, subject);
      k.add(fmt::format("ftp.transfer_bytes.{}", n), "ftp", fmt::format("{}: how many bytes did it transfer?", which),
            std::to_string(t.bytes), answer_kind::number, subject);
    }
  }
}

void smtp_questions(key_builder& k, const std::string& capture) {
  using analyzer = netlib::smtp::session_analyzer;
  netlib::capture::replay_stats stats;
  // The first max_per_kind SMTP sessions with a message (by conversation id) hold the first
  // max_per_kind messages.
  const auto found = netlib::capture::observe_sessions<analyzer>(
      capture, stats,
      [](const netlib::capture::captured_session<analyzer>& f) {
        // As lab-smtp analyze: an SMTP port, or a 220 greeting answered with EHLO/HELO.
        const auto& s = f.session;
        const bool smtp = netlib::smtp::is_smtp_port(f.conversation.server.port) ||
                          (s.greeting_code == 220 && !s.commands.empty() &&
                           (s.commands[0].verb == "EHLO" || s.commands[0].verb == "HELO"));
        return smtp && !s.messages.empty();
      },
      k.options.max_per_kind);
  std::size_t n = 0;
  for (const auto& f : found) {
    for (const auto& m : f.session.messages) {
      if (!k.within(++n)) return;
      const auto which = fmt::format("SMTP message {} (TCP conversation {})", n, f.conversation.id + 1);
      const auto subject = fmt::format("message {}", n);
      k.add(fmt::format("smtp.sender.{}", n), "smtp", fmt::format("{}: which envelope sender (MAIL FROM)?", which),
            m.from, answer_kind::mailboxes, subject);
      std::string to;
      for (const auto& r : m.to) to += (to.empty() ? "" : ", ") + r;
      k.add(fmt::format("smtp.recipients.{}", n), "smtp",
            fmt::format("{}: which envelope recipients did the server accept (RCPT TO answered 250)?", which), to,
            answer_kind::mailboxes, subject);
    }
  }
}

void pop3_questions(key_builder& k, const std::string& capture) {
  std::size_t sessions = 0, retrieved = 0;
  netlib::capture::replay_stats stats;
  // Counted as each conversation closes; no session is kept.
  netlib::capture::observe_sessions<netlib::pop3::session_analyzer>(
      capture, stats, [&](const netlib::capture::captured_session<netlib::pop3::session_analyzer>& f) {
        // As lab-pop3 analyze: port 110 or 1110, or a +OK greeting.
        const auto port = f.conversation.server.port;
        const auto& g = f.session.greeting;
        if (port != 110 && port != 1110 && !(g && g->rfind("+OK", 0) == 0)) return false;
        ++sessions;
        for (const auto& cmd : f.session.commands) retrieved += cmd.verb == "RETR" && cmd.status == "+OK" ? 1 : 0;
        return false;
      });
  if (sessions == 0) return;
  k.add("pop3.retrieved", "pop3", "How many messages did the POP3 client retrieve (RETR answered +OK)?",
        std::to_string(retrieved), answer_kind::number);
}

void arp_request_questions(key_builder& k, const netlib::packet::decoded_packet& p, std::size_t n,
                           std::uint64_t frame) {
  const auto which = fmt::format("ARP request {} (frame {})", n, frame);
  const auto subject = fmt::format("request {}", n);
  k.add(fmt::format("arp.request_target_ip.{}", n), "arp",
        fmt::format("{}: which IP address is asked for (\"Who has ...?\")?", which), p.arp()->target_ip.to_string(),
        answer_kind::ip, subject);
  if (p.ethernet) {
    k.add(fmt::format("arp.request_eth_destination.{}", n), "arp",
          fmt::format("{}: destination MAC address of the Ethernet frame carrying it?", which),
          p.ethernet->dst.to_string(), answer_kind::mac, subject);
  }
}

void arp_reply_questions(key_builder& k, const netlib::packet::arp_packet& arp, std::size_t n, std::uint64_t frame) {
  const auto which = fmt::format("ARP reply {} (frame {})", n, frame);
  const auto subject = fmt::format("reply {}", n);
  k.add(fmt::format("arp.reply_sender_mac.{}", n), "arp", fmt::format("{}: sender MAC address?", which),
        arp.sender_mac.to_string(), answer_kind::mac, subject, "sender");
  k.add(fmt::format("arp.reply_sender_ip.{}", n), "arp", fmt::format("{}: sender IP address?", which),
        arp.sender_ip.to_string(), answer_kind::ip, subject, "sender");
}

void arp_questions(key_builder& k, const std::string& capture) {
  auto reader = netlib::capture::capture_reader::open(capture);
  std::size_t requests = 0, replies = 0;
  std::uint64_t frame = 0;
  while (auto rec = reader.next()) {
    ++frame;
    const auto p = netlib::packet::decode_packet(rec->link, rec->data);
    const auto* arp = p.arp();
    if (!arp) continue;
    // RFC 826: ar$op 1 = REQUEST, 2 = REPLY.
    if (arp->operation == 1 && k.within(++requests)) arp_request_questions(k, p, requests, frame);
    if (arp->operation == 2 && k.within(++replies)) arp_reply_questions(k, *arp, replies, frame);
  }
}

bool selected(const key_options& o, const std::string& id) {
  if (o.select.empty()) return true;
  return std::any_of(o.select.begin(), o.select.end(), [&](const std::string& p) {
    return id == p || (id.starts_with(p) && (p.ends_with(".") || id[p.size()] == '.'));
  });
}

}  // namespace

std::vector<question> make_key(const std::string& capture, const key_options& options,
                               netlib::capture::replay_stats* stats) {
  key_builder k{options, {}};
  const auto facts = collect_tcp_facts(capture, options.max_per_kind);
  if (stats != nullptr) *stats = facts.stats;
  http_questions(k, facts);
  tcp_questions(k, facts);
  if (facts.conversation_count > 0) {
    ftp_questions(k, capture);
    smtp_questions(k, capture);
    pop3_questions(k, capture);
  }
  arp_questions(k, capture);
  // Question families in files of their own (questions_families.hpp).
  udp_questions(capture, options, k.out);
  dns_questions(capture, options, k.out);
  dhcp_questions(capture, options, k.out);
  if (!options.nat_inside.empty()) nat_questions(options.nat_inside, capture, options, k.out);
  const std::size_t packet_families = k.out.size();
  ip_questions(capture, options, k.out);  // IP, ICMP, TLS and TCP timing: questions_packets.hpp
  if (facts.conversation_count > 0) {
    tls_questions(capture, options, k.out);
    tcp_timing_questions(capture, options, k.out);
  }
  // Their subjects for variants come from the numbered ids: `ip.ttl.3`, `ip.fragments.3` and
  // `icmp.error_type.3` are about number 3 of their protocol's items, `tcp.sample_rtt.2.4` about
  // conversation 2 (the TCP family's numbering); a variant keeps --variant-items numbers.
  for (auto it = k.out.begin() + static_cast<std::ptrdiff_t>(packet_families); it != k.out.end(); ++it) {
    if (!it->subject.empty()) continue;
    const auto first = it->id.find('.');
    const auto second = first == std::string::npos ? first : it->id.find('.', first + 1);
    if (second == std::string::npos) continue;  // about the whole capture
    const auto end = it->id.find('.', second + 1);
    const auto n = it->id.substr(second + 1, end == std::string::npos ? std::string::npos : end - second - 1);
    if (n.empty() || n.find_first_not_of("0123456789") != std::string::npos) continue;
    it->subject = it->protocol == "tcp" ? fmt::format("conversation {}", n) : fmt::format("number {}", n);
  }
  std::erase_if(k.out, [&](const question& q) { return !selected(options, q.id); });
  if (options.variant) return select_variant(k.out, *options.variant, options.variant_items);
  return std::move(k.out);
}

}  // namespace netlab::grade
