// The DNS lab's questions (Kurose & Ross, "Wireshark Lab: DNS"): for each query, its transport and
// ports, the server it went to, its transaction id, its counts and flags, and the response's
// counts, flags, RCODE and answer records; for a recursive query answered by a resolver whose own
// traffic is in the capture, the iterative queries the resolver made meanwhile (RFC 1034 §4.3.1,
// §5.3.3).
//
// Theory of operation. Messages come from UDP datagrams to or from port 53 (one pass with
// netlib::capture::replay_udp, which also notes the frame number of every TCP segment of port 53
// by its timestamp) and from TCP conversations with server port 53 (a second pass, only when
// there are such segments: each direction's bytes go through netlib::packet::dns_stream_decoder,
// and a message takes the frame of the segment that completed it, as tshark shows it). Every
// message is counted; the first max_messages are kept, each as a bounded summary of what the
// questions ask (a crafted capture of huge messages costs at most a few kilobytes a message, and
// the TCP decoders hold at most max_tcp_buffered bytes between them), and sorted by frame.
// Queries (QR = 0) are numbered in that order; a
// query's response is the first later response with the same id, on the same transport, from the
// query's destination to its source. The iterative queries of a recursive query (RD = 1) are the
// queries its server sent (IP source = the query's destination) with RD = 0 between the query and
// its response.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <memory>
#include <set>

#include "netlib/capture/packet_replay.hpp"
#include "netlib/capture/tcp_replay.hpp"
#include "netlib/packet/dns.hpp"
#include "questions_families.hpp"

namespace netlab::grade {

namespace {

namespace packet = netlib::packet;
using packet::dns_message;

constexpr std::uint16_t dns_port = 53;
// Memory: what is kept of each message is bounded (dns_summary), and so is how much is kept.
constexpr std::size_t max_messages = 10000;         // messages summarised (they are counted all the same)
constexpr std::size_t max_tcp_segments = 200000;    // TCP port 53 segments whose frame number is noted
constexpr std::size_t max_tcp_buffered = 16 << 20;  // bytes waiting in the TCP decoders, all conversations
constexpr std::size_t max_listed_chars = 2048;      // of a response's record data kept for the questions

std::string yes_no_text(bool b) {
  return b ? "yes" : "no";
}

template <class T>
std::string comma_list(const T& items) {
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "" : ", ") + i;
  return out;
}

// The domain names records point to (NS, CNAME, PTR, MX, SRV targets).
std::vector<std::string> target_names(const std::vector<packet::dns_record>& records) {
  std::vector<std::string> out;
  for (const auto& r : records) {
    std::string name;
    if (const auto* n = std::get_if<packet::dns_name_data>(&r.data))
      name = n->name;
    else if (const auto* mx = std::get_if<packet::dns_mx>(&r.data))
      name = mx->exchange;
    else if (const auto* srv = std::get_if<packet::dns_srv>(&r.data))
      name = srv->target;
    else
      continue;
    out.push_back(name.empty() ? "." : name);
  }
  return out;
}

// What the questions need of one message. The record lists are kept only while their text fits
// max_listed_chars (a crafted message with thousands of records or long names costs no more
// than that; its questions about those lists are then not asked).
struct dns_summary {
  packet::dns_header header;
  std::string question = "(no question)";  // "www.example.org A"
  std::optional<std::uint16_t> edns_payload;
  std::uint16_t rcode = 0;
  std::optional<std::uint32_t> first_ttl;
  std::set<std::string> answer_types;
  std::vector<std::string> answer_addresses, answer_names, referral_names;
  bool lists_complete = true;
};

dns_summary summarise(const dns_message& m) {
  dns_summary s;
  s.header = m.header;
  if (!m.questions.empty()) {
    const auto& q = m.questions.front();
    s.question = fmt::format("{} {}", q.name.empty() ? "." : q.name, packet::dns_type_name(q.type));
  }
  if (const auto* e = m.edns()) s.edns_payload = e->udp_payload_size;
  s.rcode = m.rcode();
  if (!m.answers.empty()) s.first_ttl = m.answers.front().ttl;
  std::size_t chars = 0;
  const auto keep = [&](std::vector<std::string>& list, std::string item) {
    chars += item.size() + 2;
    if (chars > max_listed_chars) {
      s.lists_complete = false;
      return;
    }
    list.push_back(std::move(item));
  };
  for (const auto& a : m.answers) {
    if (auto type = packet::dns_type_name(a.type); !s.answer_types.contains(type)) {
      chars += type.size() + 2;
      if (chars > max_listed_chars)
        s.lists_complete = false;
      else
        s.answer_types.insert(std::move(type));
    }
    if (const auto* ip = std::get_if<packet::ip_address>(&a.data)) keep(s.answer_addresses, ip->to_string());
    if (!s.lists_complete) break;
  }
  for (auto& n : target_names(m.answers)) keep(s.answer_names, std::move(n));
  if (m.answers.empty() && !m.header.authoritative) {
    for (auto& n : target_names(m.authority)) keep(s.referral_names, std::move(n));
  }
  if (!s.lists_complete) {
    s.answer_types.clear();
    s.answer_addresses.clear();
    s.answer_names.clear();
    s.referral_names.clear();
  }
  return s;
}

struct dns_seen {
  std::uint64_t frame = 0;
  packet::endpoint src, dst;
  bool tcp = false;
  dns_summary message;
};

struct dns_capture {
  std::vector<dns_seen> messages;  // the first max_messages, summarised
  std::uint64_t queries = 0, responses = 0;
  std::map<netlib::time_point, std::uint64_t> tcp_frames;  // TCP port 53 segments with payload, by timestamp
  std::size_t tcp_buffered = 0;

  void add(std::uint64_t frame, packet::endpoint src, packet::endpoint dst, bool tcp, const dns_message& m) {
    (m.header.response ? responses : queries) += 1;
    if (messages.size() < max_messages) messages.push_back({frame, src, dst, tcp, summarise(m)});
  }
};

void read_udp(const std::string& capture, dns_capture& c) {
  netlib::capture::replay_packets(capture, [&](const netlib::capture::captured_packet& p) {
    if (const auto* t = p.packet.tcp()) {
      if (!t->payload.empty() && (t->src_port == dns_port || t->dst_port == dns_port) &&
          c.tcp_frames.size() < max_tcp_segments) {
        c.tcp_frames[p.record.ts] = p.frame;
      }
      return;
    }
    const auto* u = p.packet.udp();
    if (u == nullptr || u->truncated || p.packet.is_fragment()) return;
    if (u->src_port != dns_port && u->dst_port != dns_port) return;
    const auto m = packet::decode_dns(u->payload);
    if (m) c.add(p.frame, {*p.packet.src_ip(), u->src_port}, {*p.packet.dst_ip(), u->dst_port}, false, *m);
  });
}

class tcp_dns_feed final : public netlib::capture::stream_consumer {
 public:
  tcp_dns_feed(dns_capture& c, const packet::tcp_conversation& conv) : c_(c), conv_(conv) {}
  ~tcp_dns_feed() override { c_.tcp_buffered -= to_server_.buffered() + to_client_.buffered(); }
  tcp_dns_feed(const tcp_dns_feed&) = delete;
  tcp_dns_feed& operator=(const tcp_dns_feed&) = delete;

  void on_bytes(packet::tcp_direction d, netlib::byte_view bytes, netlib::time_point ts) override {
    const bool to_server = d == packet::tcp_direction::client_to_server;
    auto& decoder = to_server ? to_server_ : to_client_;
    if (stopped_[to_server]) return;
    const auto before = decoder.buffered();
    if (c_.tcp_buffered + bytes.size() > max_tcp_buffered) {  // too much waiting: stop this direction
      stop(to_server);
      return;
    }
    decoder.feed(bytes);
    while (auto m = decoder.next()) {
      const auto it = c_.tcp_frames.find(ts);
      if (!*m || it == c_.tcp_frames.end()) continue;  // malformed, or its frame was not noted
      c_.add(it->second, to_server ? conv_.client : conv_.server, to_server ? conv_.server : conv_.client, true, **m);
    }
    c_.tcp_buffered = c_.tcp_buffered + decoder.buffered() - before;
  }
  // Bytes the capture never saw: the framing of that direction is lost.
  void on_gap(packet::tcp_direction d, std::uint64_t, netlib::time_point) override {
    stop(d == packet::tcp_direction::client_to_server);
  }

 private:
  void stop(bool to_server) {
    auto& decoder = to_server ? to_server_ : to_client_;
    c_.tcp_buffered -= decoder.buffered();
    decoder = packet::dns_stream_decoder{};
    stopped_[to_server] = true;
  }
  dns_capture& c_;
  packet::tcp_conversation conv_;
  packet::dns_stream_decoder to_server_, to_client_;
  bool stopped_[2] = {false, false};
};

void read_tcp(const std::string& capture, dns_capture& c) {
  if (c.tcp_frames.empty()) return;
  netlib::capture::replay_conversations(
      capture, [&](const packet::tcp_conversation& conv) -> std::unique_ptr<netlib::capture::stream_consumer> {
        if (conv.server.port != dns_port) return nullptr;
        return std::make_unique<tcp_dns_feed>(c, conv);
      });
}

void response_questions(const question_sink& k, const std::string& which, const std::string& subject, std::size_t n,
                        const dns_seen& r) {
  const auto& m = r.message;
  const auto& h = m.header;
  const auto id = [n](std::string_view what) { return fmt::format("dns.{}.{}", what, n); };
  const auto resp = fmt::format("{}: in its response (frame {})", which, r.frame);
  k.add(id("response_src_port"), fmt::format("{}, what is the source port?", resp), std::to_string(r.src.port),
        answer_kind::number, subject, "server port");
  k.add(id("responder"), fmt::format("{}: from which IP address did the response come?", which),
        r.src.address.to_string(), answer_kind::ip, subject, "server");
  k.add(id("response_id"), fmt::format("{}, what is the transaction ID (as Wireshark shows it, 0x....)?", resp),
        hex(h.id), answer_kind::hex_number, subject, "id");
  k.add(id("response_questions"), fmt::format("{}, how many questions does it contain?", resp),
        std::to_string(h.question_count), answer_kind::number, subject, "response counts");
  k.add(id("response_answers"), fmt::format("{}, how many answers (answer RRs) does it contain?", resp),
        std::to_string(h.answer_count), answer_kind::number, subject, "response counts");
  k.add(id("response_authority"), fmt::format("{}, how many authority RRs does it contain?", resp),
        std::to_string(h.authority_count), answer_kind::number, subject, "response counts");
  k.add(id("response_additional"), fmt::format("{}, how many additional RRs does it contain (OPT included)?", resp),
        std::to_string(h.additional_count), answer_kind::number, subject, "response counts");
  k.add(id("authoritative"), fmt::format("{}, is the answer authoritative (the AA flag)?", resp),
        yes_no_text(h.authoritative), answer_kind::yes_no, subject, "response flags");
  k.add(id("recursion_available"), fmt::format("{}, does the server say recursion is available (the RA flag)?", resp),
        yes_no_text(h.recursion_available), answer_kind::yes_no, subject, "response flags");
  if (!r.tcp) {
    k.add(id("truncated"), fmt::format("{}, is the message truncated (the TC flag)?", resp), yes_no_text(h.truncated),
          answer_kind::yes_no, subject, "response flags");
  }
  k.add(id("rcode"), fmt::format("{}, what is the reply code, by its name (NOERROR, NXDOMAIN...)?", resp),
        packet::dns_rcode_name(m.rcode), answer_kind::text, subject);
  if (m.first_ttl) {
    k.add(id("answer_ttl"), fmt::format("{}, what is the TTL of the first answer record (in seconds)?", resp),
          std::to_string(*m.first_ttl), answer_kind::number, subject);
  }
  if (!m.lists_complete) return;  // too many records, or names too long, to ask about them
  if (!m.answer_types.empty()) {
    k.add(id("answer_types"), fmt::format("{}, which record types are in the answer section?", resp),
          comma_list(m.answer_types), answer_kind::names, subject);
  }
  if (!m.answer_addresses.empty()) {
    k.add(id("answer_addresses"), fmt::format("{}, which IP addresses do the answer records (A, AAAA) give?", resp),
          comma_list(m.answer_addresses), answer_kind::addresses, subject, "answer data");
  }
  if (!m.answer_names.empty()) {
    k.add(id("answer_names"),
          fmt::format("{}, which domain names do the answer records (NS, CNAME, MX, PTR, SRV) point to?", resp),
          comma_list(m.answer_names), answer_kind::names, subject, "answer data");
  }
  if (!m.referral_names.empty()) {
    // No answer, NS records in the authority section: a referral (RFC 1034 §4.3.2 step 3b).
    k.add(
        id("referral_names"),
        fmt::format("{}, there is no answer: which name servers does the authority section refer the query to?", resp),
        comma_list(m.referral_names), answer_kind::names, subject);
  }
}

}  // namespace

void dns_questions(const std::string& capture, const key_options& options, std::vector<question>& out) {
  dns_capture c;
  read_udp(capture, c);
  read_tcp(capture, c);
  if (c.messages.empty()) return;
  std::stable_sort(c.messages.begin(), c.messages.end(),
                   [](const dns_seen& a, const dns_seen& b) { return a.frame < b.frame; });
  question_sink k{options, out, "dns"};
  k.add("dns.queries", "How many DNS queries does the capture hold (over UDP and TCP)?", std::to_string(c.queries),
        answer_kind::number);
  k.add("dns.responses", "How many DNS responses does the capture hold (over UDP and TCP)?",
        std::to_string(c.responses), answer_kind::number);
  std::size_t n = 0;
  for (std::size_t i = 0; i < c.messages.size(); ++i) {
    const auto& q = c.messages[i];
    if (q.message.header.response) continue;
    if (!k.within(++n)) break;
    const auto& h = q.message.header;
    const auto which =
        fmt::format("DNS query {} (frame {}, {} -> {}, {})", n, q.frame, q.src, q.dst, q.message.question);
    const auto subject = fmt::format("query {}", n);
    const auto id = [n](std::string_view what) { return fmt::format("dns.{}.{}", what, n); };
    k.add(id("query_transport"), fmt::format("{}: is it sent over UDP or TCP?", which), q.tcp ? "tcp" : "udp",
          answer_kind::text, subject);
    k.add(id("query_dst_port"), fmt::format("{}: what is its destination port?", which), std::to_string(q.dst.port),
          answer_kind::number, subject, "server port");
    k.add(id("server"), fmt::format("{}: to which IP address is it sent?", which), q.dst.address.to_string(),
          answer_kind::ip, subject, "server");
    k.add(id("id"), fmt::format("{}: what is its transaction ID (as Wireshark shows it, 0x....)?", which), hex(h.id),
          answer_kind::hex_number, subject, "id");
    k.add(id("query_questions"), fmt::format("{}: how many questions does it contain?", which),
          std::to_string(h.question_count), answer_kind::number, subject, "query counts");
    k.add(id("query_answers"), fmt::format("{}: how many answers (answer RRs) does it contain?", which),
          std::to_string(h.answer_count), answer_kind::number, subject, "query counts");
    k.add(id("recursion_desired"), fmt::format("{}: does it ask for recursion (the RD flag)?", which),
          yes_no_text(h.recursion_desired), answer_kind::yes_no, subject);
    if (q.message.edns_payload) {
      k.add(id("edns_payload"),
            fmt::format("{}: what UDP payload size does its OPT record (EDNS) advertise (in bytes)?", which),
            std::to_string(*q.message.edns_payload), answer_kind::number, subject);
    }
    // The response, and what the server asked others meanwhile.
    std::size_t iterative = 0;
    std::set<std::string> iterative_servers;
    const dns_seen* r = nullptr;
    for (std::size_t j = i + 1; j < c.messages.size() && r == nullptr; ++j) {
      const auto& m = c.messages[j];
      if (m.message.header.response) {
        if (m.tcp == q.tcp && m.src == q.dst && m.dst == q.src && m.message.header.id == h.id) r = &m;
      } else if (h.recursion_desired && m.src.address == q.dst.address && !m.message.header.recursion_desired) {
        ++iterative;
        iterative_servers.insert(m.dst.address.to_string());
      }
    }
    if (r == nullptr) continue;  // no response captured: nothing to ask about it
    response_questions(k, which, subject, n, *r);
    if (iterative > 0) {
      k.add(id("iterative_queries"),
            fmt::format("{}: {} resolved it by asking other servers itself (queries without RD) before it answered. "
                        "How many such queries did it send?",
                        which, q.dst.address),
            std::to_string(iterative), answer_kind::number, subject, "iterative");
      k.add(id("iterative_servers"),
            fmt::format("{}: {} resolved it by asking other servers itself (queries without RD) before it answered. "
                        "To which servers (IP addresses) did it send them?",
                        which, q.dst.address),
            comma_list(iterative_servers), answer_kind::addresses, subject, "iterative");
    }
  }
}

}  // namespace netlab::grade
