// The DHCP lab's questions (Kurose & Ross, "Wireshark Lab: DHCP"): for each exchange, its
// transaction id, the relay agent field, and for each of its messages (DISCOVER, OFFER, REQUEST,
// ACK, RELEASE...) the IP addresses and UDP ports it was sent with; what the client asks for
// (the Parameter Request List, the requested address) and what the server gives (the offered or
// assigned address, lease time, router, subnet mask, DNS servers, server identifier, renewal
// time).
//
// Theory of operation. One pass with netlib::capture::replay_udp over datagrams between ports 67
// and 68 (RFC 2131 §4.1), each decoded with netlib::packet::decode_dhcp; messages without option 53
// (plain BOOTP) are not DHCP. An exchange is the messages of one transaction id (xid, RFC 2131 §2)
// from the same client hardware address, numbered in order of its first message, and ends with
// the server's ACK or NAK: a client message after it starts a new exchange, so a renewal is an
// exchange of its own whether the client picks a new xid or keeps the old one (udhcpc keeps it
// for a renewal, picks a new one for a release). Within an exchange the first message of each type
// is asked about. Only the first max_per_kind exchanges are kept.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <iterator>

#include "netlib/capture/packet_replay.hpp"
#include "netlib/packet/dhcp.hpp"
#include "questions_families.hpp"

namespace netlab::grade {

namespace {

namespace packet = netlib::packet;
namespace dhcp_option_code = netlib::packet::dhcp_option_code;

struct dhcp_seen {
  std::uint64_t frame = 0;
  packet::endpoint src, dst;
  packet::dhcp_message message;
};

// Memory: an exchange keeps the types of its first 64 messages and the first message of each type
// (at most the 8 types of option 53 and a few unknown ones), whatever a capture repeats.
struct dhcp_exchange {
  std::uint32_t xid = 0;
  std::array<std::uint8_t, 16> chaddr{};
  std::vector<std::uint64_t> frames;          // of its first 64 messages
  std::vector<std::uint8_t> types;            // their message types
  std::vector<dhcp_seen> first_of_each_type;  // in capture order
  bool answered = false;                      // the server sent its ACK or NAK
};
constexpr std::size_t max_messages_kept = 64;
constexpr std::size_t max_types_kept = 16;

std::string lower_case(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

std::string address_list_text(const std::vector<packet::ip_address>& list) {
  std::string out;
  for (const auto& a : list) out += (out.empty() ? "" : ", ") + a.to_string();
  return out;
}

// What the server's OFFER or ACK gives (RFC 2132 §3.3, §3.5, §3.8, §9.2, §9.7, §9.11).
void server_options(const question_sink& k, const std::string& which, const std::string& subject, std::size_t n,
                    const std::string& type, const packet::dhcp_message& m) {
  const auto id = [&](std::string_view what) { return fmt::format("dhcp.{}_{}.{}", type, what, n); };
  const auto slot = type + " option";
  if (const auto v = m.u32_option(dhcp_option_code::lease_time)) {
    k.add(id("lease_time"), fmt::format("{}: for how long is the address leased (option 51, in seconds)?", which),
          std::to_string(*v), answer_kind::number, subject);
  }
  if (const auto v = m.address_option(dhcp_option_code::subnet_mask)) {
    k.add(id("subnet_mask"), fmt::format("{}: which subnet mask does it give (option 1)?", which), v->to_string(),
          answer_kind::ip, subject, slot);
  }
  if (const auto v = m.address_list_option(dhcp_option_code::router); !v.empty()) {
    k.add(id("router"), fmt::format("{}: which first-hop router (default gateway) does it give (option 3)?", which),
          address_list_text(v), answer_kind::addresses, subject, slot);
  }
  if (const auto v = m.address_list_option(dhcp_option_code::dns_servers); !v.empty()) {
    k.add(id("dns_servers"), fmt::format("{}: which DNS servers does it give (option 6)?", which), address_list_text(v),
          answer_kind::addresses, subject, slot);
  }
  if (const auto v = m.address_option(dhcp_option_code::server_identifier)) {
    k.add(id("server_id"), fmt::format("{}: which server identifier does it carry (option 54)?", which), v->to_string(),
          answer_kind::ip, subject, slot);
  }
  if (const auto v = m.u32_option(dhcp_option_code::renewal_time)) {
    k.add(id("renewal_time"), fmt::format("{}: after how many seconds should the client renew (T1, option 58)?", which),
          std::to_string(*v), answer_kind::number, subject, slot);
  }
}

void message_questions(const question_sink& k, const std::string& exchange_text, const std::string& subject,
                       std::size_t n, const dhcp_seen& s) {
  const auto& m = s.message;
  const auto name = packet::dhcp_message_type_name(*m.message_type());
  const auto type = lower_case(name);
  const auto which = fmt::format("{}'s {} (frame {})", exchange_text, name, s.frame);
  const auto id = [&](std::string_view what) { return fmt::format("dhcp.{}_{}.{}", type, what, n); };
  k.add(id("src_ip"), fmt::format("{}: what is the source IP address of the datagram carrying it?", which),
        s.src.address.to_string(), answer_kind::ip, subject);
  k.add(id("dst_ip"), fmt::format("{}: what is the destination IP address of the datagram carrying it?", which),
        s.dst.address.to_string(), answer_kind::ip, subject);
  k.add(id("src_port"), fmt::format("{}: what is its UDP source port?", which), std::to_string(s.src.port),
        answer_kind::number, subject, type + " port");
  k.add(id("dst_port"), fmt::format("{}: what is its UDP destination port?", which), std::to_string(s.dst.port),
        answer_kind::number, subject, type + " port");
  const auto t = *m.message_type();
  if (t == packet::dhcp_message_type::discover || t == packet::dhcp_message_type::request) {
    const auto list = m.parameter_request_list();
    if (!list.empty()) {
      std::string codes;
      for (auto c : list) codes += (codes.empty() ? "" : ", ") + std::to_string(c);
      k.add(id("parameter_requests"),
            fmt::format("{}: which options does the client ask for in its Parameter Request List (option 55)? Give "
                        "their numbers",
                        which),
            codes, answer_kind::numbers, subject);
    }
    if (const auto v = m.address_option(dhcp_option_code::requested_address)) {
      k.add(id("requested_address"), fmt::format("{}: which address does the client ask for (option 50)?", which),
            v->to_string(), answer_kind::ip, subject);
    }
  }
  if (t == packet::dhcp_message_type::offer || t == packet::dhcp_message_type::ack) {
    k.add(id("your_address"),
          fmt::format("{}: which address does the server {} the client (the 'Your (client) IP address' field)?", which,
                      t == packet::dhcp_message_type::offer ? "offer" : "assign"),
          m.yiaddr.to_string(), answer_kind::ip, subject);
    server_options(k, which, subject, n, type, m);
  }
  if (t == packet::dhcp_message_type::request || t == packet::dhcp_message_type::release) {
    if (m.ciaddr.octets != packet::ip_address{}.octets) {
      k.add(id("client_address"),
            fmt::format("{}: which address does the 'Client IP address' field (ciaddr) carry?", which),
            m.ciaddr.to_string(), answer_kind::ip, subject);
    }
  }
}

}  // namespace

void dhcp_questions(const std::string& capture, const key_options& options, std::vector<question>& out) {
  std::vector<dhcp_exchange> exchanges;
  std::size_t messages = 0;
  netlib::capture::replay_udp(capture, [&](const netlib::capture::udp_datagram& d) {
    const auto sp = d.src.port, dp = d.dst.port;
    if (!((sp == 68 && dp == 67) || (sp == 67 && dp == 68) || (sp == 67 && dp == 67))) return;
    if (d.udp.truncated || d.packet.is_fragment()) return;
    auto m = packet::decode_dhcp(d.udp.payload);
    if (!m || !m->message_type()) return;
    ++messages;
    // The latest exchange of this transaction id and client; a client message after its ACK or NAK
    // starts a new one (a renewal or a release that kept the xid).
    const auto latest = std::find_if(exchanges.rbegin(), exchanges.rend(),
                                     [&](const dhcp_exchange& e) { return e.xid == m->xid && e.chaddr == m->chaddr; });
    auto it = latest == exchanges.rend() ? exchanges.end() : std::prev(latest.base());
    if (it != exchanges.end() && m->op == 1 && it->answered) it = exchanges.end();
    if (it == exchanges.end()) {
      if (exchanges.size() >= options.max_per_kind) return;
      it = exchanges.insert(exchanges.end(), dhcp_exchange{m->xid, m->chaddr, {}, {}, {}, false});
    }
    const auto type = *m->message_type();
    if (m->op == 2 && (type == packet::dhcp_message_type::ack || type == packet::dhcp_message_type::nak))
      it->answered = true;
    if (it->frames.size() < max_messages_kept) {
      it->frames.push_back(d.frame);
      it->types.push_back(type);
    }
    const bool seen = std::any_of(it->first_of_each_type.begin(), it->first_of_each_type.end(),
                                  [&](const dhcp_seen& s) { return *s.message.message_type() == type; });
    if (!seen && it->first_of_each_type.size() < max_types_kept) {
      it->first_of_each_type.push_back({d.frame, d.src, d.dst, std::move(m).value()});
    }
  });
  if (exchanges.empty()) return;
  question_sink k{options, out, "dhcp"};
  k.add("dhcp.messages", "How many DHCP messages does the capture hold?", std::to_string(messages),
        answer_kind::number);
  for (std::size_t i = 0; i < exchanges.size(); ++i) {
    const auto& e = exchanges[i];
    const auto n = i + 1;
    std::string list;
    for (const auto t : e.types) list += (list.empty() ? "" : ", ") + packet::dhcp_message_type_name(t);
    std::string frames;
    for (const auto f : e.frames) frames += (frames.empty() ? "" : ", ") + std::to_string(f);
    const auto which = fmt::format("DHCP exchange {} (frame{} {})", n, e.frames.size() > 1 ? "s" : "", frames);
    const auto short_name = fmt::format("DHCP exchange {}", n);
    const auto subject = fmt::format("exchange {}", n);
    k.add(fmt::format("dhcp.xid.{}", n),
          fmt::format("{}: what is its transaction ID (as Wireshark shows it, 0x....)?", which), hex(e.xid, 8),
          answer_kind::hex_number, subject);
    k.add(fmt::format("dhcp.message_types.{}", n),
          fmt::format("{}: which DHCP message types (option 53) make it up?", which), list, answer_kind::names,
          subject);
    k.add(fmt::format("dhcp.relay_agent.{}", n),
          fmt::format("{}: what does the relay agent field (giaddr) of its first message hold?", which),
          e.first_of_each_type.front().message.giaddr.to_string(), answer_kind::ip, subject);
    if (const auto mac = e.first_of_each_type.front().message.client_mac()) {
      k.add(fmt::format("dhcp.client_mac.{}", n),
            fmt::format("{}: what is the client's hardware (MAC) address (chaddr)?", which), mac->to_string(),
            answer_kind::mac, subject);
    }
    for (const auto& s : e.first_of_each_type) message_questions(k, short_name, subject, n, s);
  }
}

}  // namespace netlab::grade
