#pragma once
// The answer key of `netlab-grade questions` against tshark, answer by answer, for the UDP, DNS,
// DHCP and NAT questions: each answer is read again from tshark's fields (-T fields, two passes for
// dns.response_in) and must be equal (sets as sets). An id of these protocols that this file does
// not know fails, so a new question cannot go unchecked. Used by questions_tshark_test.cpp on every
// capture in captures/ and by the recipe test on captures recorded again.
#include <gtest/gtest.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "support/process.hpp"
#include "support/tshark_fields.hpp"

namespace netlab::test::key_tshark {

struct key_entry {
  std::string id, answer, kind;
};

// The key of `capture` (with `inside` as --nat-inside when not empty), every item of each kind.
inline std::vector<key_entry> full_key(const std::string& capture, const std::string& inside = {}) {
  std::vector<std::string> argv{bin_path("netlab-grade"), "questions", capture, "--key", "--json",
                                "--max-per-kind",         "10000"};
  if (!inside.empty()) argv.insert(argv.end(), {"--nat-inside", inside});
  const auto r = run(argv);
  std::vector<key_entry> out;
  EXPECT_EQ(r.exit_code, 0) << r.err;
  if (r.exit_code != 0) return out;
  const auto doc = nlohmann::json::parse(r.out);
  for (const auto& q : doc.at("questions")) {
    out.push_back({q["id"].get<std::string>(), q["answer"].get<std::string>(), q["kind"].get<std::string>()});
  }
  return out;
}

// "dns.id.7" -> {"dns", "id", 7}; n = 0 for an id without a number.
struct id_parts {
  std::string protocol, what;
  std::size_t n = 0;
};
inline id_parts parse_id(const std::string& id) {
  id_parts p;
  const auto dot = id.find('.');
  p.protocol = id.substr(0, dot);
  auto rest = id.substr(dot + 1);
  const auto last = rest.rfind('.');
  if (last != std::string::npos && std::all_of(rest.begin() + static_cast<long>(last) + 1, rest.end(), ::isdigit)) {
    p.n = std::stoul(rest.substr(last + 1));
    rest = rest.substr(0, last);
  }
  p.what = rest;
  return p;
}

inline std::string yes_no(const std::string& bit) {
  return bit == "1" ? "yes" : "no";
}

inline std::string rcode_name(const std::string& code) {
  static const std::vector<std::string> names{"NOERROR",  "FORMERR", "SERVFAIL", "NXDOMAIN", "NOTIMP", "REFUSED",
                                              "YXDOMAIN", "YXRRSET", "NXRRSET",  "NOTAUTH",  "NOTZONE"};
  const auto n = std::stoul(code);
  return n < names.size() ? names[n] : "RCODE" + code;
}

inline std::string type_name(const std::string& code) {
  static const std::map<std::string, std::string> names{{"1", "A"},    {"2", "NS"},  {"5", "CNAME"}, {"6", "SOA"},
                                                        {"12", "PTR"}, {"15", "MX"}, {"16", "TXT"},  {"28", "AAAA"},
                                                        {"33", "SRV"}, {"41", "OPT"}};
  const auto it = names.find(code);
  return it == names.end() ? "TYPE" + code : it->second;
}

// A comma list as a set, for the set kinds (addresses, names, numbers, mailboxes).
inline std::set<std::string> as_set(const std::string& list) {
  std::set<std::string> out;
  std::string item;
  for (char c : list + ",") {
    if (c == ',') {
      const auto b = item.find_first_not_of(' '), e = item.find_last_not_of(' ');
      if (b != std::string::npos) out.insert(item.substr(b, e - b + 1));
      item.clear();
    } else {
      item += c;
    }
  }
  return out;
}
inline std::string set_text(const std::set<std::string>& s) {
  std::string out;
  for (const auto& i : s) out += (out.empty() ? "" : ", ") + i;
  return out;
}

// The expected answers, by id, computed from tshark.
using expectations = std::map<std::string, std::string>;

inline std::string src_of(const tshark_row& r) {
  return r.has("ip.src") ? r.first("ip.src") : r.first("ipv6.src");
}
inline std::string dst_of(const tshark_row& r) {
  return r.has("ip.dst") ? r.first("ip.dst") : r.first("ipv6.dst");
}
inline std::string endpoint(const std::string& ip, const std::string& port) {
  return ip.find(':') != std::string::npos ? "[" + ip + "]:" + port : ip + ":" + port;
}

inline void udp_expectations(const std::string& file, expectations& e) {
  const auto t =
      tshark_rows(file, "udp && !icmp && !icmpv6 && !(ip.flags.mf == 1) && !(ip.frag_offset > 0)",
                  {"frame.number", "udp.srcport", "udp.dstport", "udp.length", "udp.checksum", "ip.proto", "ipv6.nxt"});
  ASSERT_TRUE(t.ok) << t.error;
  if (t.rows.empty()) return;
  e["udp.datagrams"] = std::to_string(t.rows.size());
  const auto& first = t.rows.front();
  e["udp.protocol_number"] = first.has("ip.proto") ? first.first("ip.proto") : first.all("ipv6.nxt").back();
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    const auto& r = t.rows[i];
    const auto n = std::to_string(i + 1);
    e["udp.src_port." + n] = r.first("udp.srcport");
    e["udp.dst_port." + n] = r.first("udp.dstport");
    e["udp.length." + n] = r.first("udp.length");
    e["udp.payload_bytes." + n] = std::to_string(std::stoi(r.first("udp.length")) - 8);
    e["udp.checksum." + n] = r.first("udp.checksum");
  }
}

inline void dns_expectations(const std::string& file, expectations& e) {
  const std::vector<std::string> fields{"frame.number",
                                        "ip.src",
                                        "ip.dst",
                                        "ipv6.src",
                                        "ipv6.dst",
                                        "udp.srcport",
                                        "udp.dstport",
                                        "tcp.srcport",
                                        "tcp.dstport",
                                        "dns.id",
                                        "dns.flags.response",
                                        "dns.flags.recdesired",
                                        "dns.flags.recavail",
                                        "dns.flags.authoritative",
                                        "dns.flags.truncated",
                                        "dns.flags.rcode",
                                        "dns.count.queries",
                                        "dns.count.answers",
                                        "dns.count.auth_rr",
                                        "dns.count.add_rr",
                                        "dns.resp.type",
                                        "dns.resp.ttl",
                                        "dns.a",
                                        "dns.aaaa",
                                        "dns.ns",
                                        "dns.cname",
                                        "dns.ptr.domain_name",
                                        "dns.mx.mail_exchange",
                                        "dns.srv.target",
                                        "dns.rr.udp_payload_size",
                                        "dns.response_in"};
  const auto t = tshark_rows(file, "dns && (udp.port == 53 || tcp.port == 53) && !icmp && !icmpv6", fields, {"-2"});
  ASSERT_TRUE(t.ok) << t.error;
  if (t.rows.empty()) return;
  std::map<long long, const tshark_row*> by_frame;
  std::size_t queries = 0, responses = 0;
  for (const auto& r : t.rows) {
    by_frame[r.frame()] = &r;
    (r.first("dns.flags.response") == "1" ? responses : queries) += 1;
  }
  e["dns.queries"] = std::to_string(queries);
  e["dns.responses"] = std::to_string(responses);
  std::size_t n = 0;
  for (const auto& q : t.rows) {
    if (q.first("dns.flags.response") != "0") continue;
    const auto id = [&](const std::string& what) { return fmt::format("dns.{}.{}", what, n); };
    ++n;
    const bool tcp = q.has("tcp.srcport");
    e[id("query_transport")] = tcp ? "tcp" : "udp";
    e[id("query_dst_port")] = q.first(tcp ? "tcp.dstport" : "udp.dstport");
    e[id("server")] = dst_of(q);
    e[id("id")] = q.first("dns.id");
    e[id("query_questions")] = q.first("dns.count.queries");
    e[id("query_answers")] = q.first("dns.count.answers");
    e[id("recursion_desired")] = yes_no(q.first("dns.flags.recdesired"));
    if (q.has("dns.rr.udp_payload_size")) e[id("edns_payload")] = q.first("dns.rr.udp_payload_size");
    if (!q.has("dns.response_in")) continue;
    const auto& r = *by_frame.at(std::stoll(q.first("dns.response_in")));
    e[id("response_src_port")] = r.first(tcp ? "tcp.srcport" : "udp.srcport");
    e[id("responder")] = src_of(r);
    e[id("response_id")] = r.first("dns.id");
    e[id("response_questions")] = r.first("dns.count.queries");
    e[id("response_answers")] = r.first("dns.count.answers");
    e[id("response_authority")] = r.first("dns.count.auth_rr");
    e[id("response_additional")] = r.first("dns.count.add_rr");
    e[id("authoritative")] = yes_no(r.first("dns.flags.authoritative"));
    e[id("recursion_available")] = yes_no(r.first("dns.flags.recavail"));
    if (!tcp) e[id("truncated")] = yes_no(r.first("dns.flags.truncated"));
    e[id("rcode")] = rcode_name(r.first("dns.flags.rcode"));
    // The answer section is the first count.answers records of resp.type; the per-type data
    // fields list every record of that type in section order, so the answer section's come first.
    const auto answers = std::stoul(r.first("dns.count.answers"));
    const auto& types = r.all("dns.resp.type");
    std::map<std::string, std::size_t> per_type;
    for (std::size_t i = 0; i < answers && i < types.size(); ++i) ++per_type[types[i]];
    const auto take = [&](const std::string& type, const std::string& field, std::set<std::string>& into) {
      const auto& all = r.all(field);
      for (std::size_t i = 0; i < per_type[type] && i < all.size(); ++i) into.insert(all[i]);
    };
    if (answers > 0) {
      std::set<std::string> type_names, addresses, names;
      for (const auto& [type, count] : per_type) type_names.insert(type_name(type));
      e[id("answer_types")] = set_text(type_names);
      e[id("answer_ttl")] = r.first("dns.resp.ttl");
      take("1", "dns.a", addresses);
      take("28", "dns.aaaa", addresses);
      for (const auto& [type, field] : std::vector<std::pair<std::string, std::string>>{{"2", "dns.ns"},
                                                                                        {"5", "dns.cname"},
                                                                                        {"12", "dns.ptr.domain_name"},
                                                                                        {"15", "dns.mx.mail_exchange"},
                                                                                        {"33", "dns.srv.target"}}) {
        take(type, field, names);
      }
      if (!addresses.empty()) e[id("answer_addresses")] = set_text(addresses);
      if (!names.empty()) e[id("answer_names")] = set_text(names);
    } else if (r.has("dns.ns") && r.first("dns.flags.authoritative") != "1") {
      const auto& ns = r.all("dns.ns");
      e[id("referral_names")] = set_text({ns.begin(), ns.end()});
    }
    // The server's own queries without RD between the query and its response.
    if (q.first("dns.flags.recdesired") != "1") continue;
    std::size_t count = 0;
    std::set<std::string> servers;
    for (const auto& m : t.rows) {
      if (m.frame() <= q.frame() || m.frame() >= r.frame()) continue;
      if (m.first("dns.flags.response") == "0" && m.first("dns.flags.recdesired") == "0" && src_of(m) == dst_of(q)) {
        ++count;
        servers.insert(dst_of(m));
      }
    }
    if (count > 0) {
      e[id("iterative_queries")] = std::to_string(count);
      e[id("iterative_servers")] = set_text(servers);
    }
  }
}

inline std::string dhcp_type_name(const std::string& code) {
  static const std::vector<std::string> names{"",    "DISCOVER", "OFFER",   "REQUEST", "DECLINE",
                                              "ACK", "NAK",      "RELEASE", "INFORM"};
  const auto n = std::stoul(code);
  return n < names.size() && n > 0 ? names[n] : "TYPE" + code;
}

inline void dhcp_expectations(const std::string& file, expectations& e) {
  const auto t = tshark_rows(file, "dhcp && dhcp.option.dhcp && !icmp",
                             {"frame.number",
                              "ip.src",
                              "ip.dst",
                              "udp.srcport",
                              "udp.dstport",
                              "dhcp.type",
                              "dhcp.id",
                              "dhcp.hw.mac_addr",
                              "dhcp.ip.client",
                              "dhcp.ip.your",
                              "dhcp.ip.relay",
                              "dhcp.option.dhcp",
                              "dhcp.option.request_list_item",
                              "dhcp.option.requested_ip_address",
                              "dhcp.option.ip_address_lease_time",
                              "dhcp.option.subnet_mask",
                              "dhcp.option.router",
                              "dhcp.option.domain_name_server",
                              "dhcp.option.dhcp_server_id",
                              "dhcp.option.renewal_time_value"});
  ASSERT_TRUE(t.ok) << t.error;
  if (t.rows.empty()) return;
  e["dhcp.messages"] = std::to_string(t.rows.size());
  // Exchanges: one transaction id and client, ended by the server's ACK or NAK.
  struct exchange {
    std::string xid, mac;
    bool answered = false;
    std::vector<const tshark_row*> messages;
  };
  std::vector<exchange> exchanges;
  for (const auto& r : t.rows) {
    const auto xid = r.first("dhcp.id"), mac = r.first("dhcp.hw.mac_addr");
    exchange* x = nullptr;
    for (auto it = exchanges.rbegin(); it != exchanges.rend(); ++it) {
      if (it->xid == xid && it->mac == mac) {
        x = &*it;
        break;
      }
    }
    if (x != nullptr && r.first("dhcp.type") == "1" && x->answered) x = nullptr;
    if (x == nullptr) x = &exchanges.emplace_back(exchange{xid, mac, false, {}});
    const auto type = r.first("dhcp.option.dhcp");
    if (r.first("dhcp.type") == "2" && (type == "5" || type == "6")) x->answered = true;
    x->messages.push_back(&r);
  }
  for (std::size_t i = 0; i < exchanges.size(); ++i) {
    const auto n = std::to_string(i + 1);
    const auto& x = exchanges[i];
    e["dhcp.xid." + n] = x.xid;
    std::set<std::string> types;
    for (const auto* m : x.messages) types.insert(dhcp_type_name(m->first("dhcp.option.dhcp")));
    e["dhcp.message_types." + n] = set_text(types);
    e["dhcp.relay_agent." + n] = x.messages.front()->first("dhcp.ip.relay");
    e["dhcp.client_mac." + n] = x.mac;
    std::set<std::string> seen;
    for (const auto* m : x.messages) {
      const auto code = m->first("dhcp.option.dhcp");
      if (!seen.insert(code).second) continue;
      auto type = dhcp_type_name(code);
      std::transform(type.begin(), type.end(), type.begin(), ::tolower);
      const auto id = [&](const std::string& what) { return fmt::format("dhcp.{}_{}.{}", type, what, n); };
      e[id("src_ip")] = m->first("ip.src");
      e[id("dst_ip")] = m->first("ip.dst");
      e[id("src_port")] = m->first("udp.srcport");
      e[id("dst_port")] = m->first("udp.dstport");
      if (code == "1" || code == "3") {
        const auto& list = m->all("dhcp.option.request_list_item");
        if (!list.empty()) e[id("parameter_requests")] = set_text({list.begin(), list.end()});
        if (m->has("dhcp.option.requested_ip_address"))
          e[id("requested_address")] = m->first("dhcp.option.requested_ip_address");
      }
      if (code == "2" || code == "5") {
        e[id("your_address")] = m->first("dhcp.ip.your");
        const std::vector<std::pair<std::string, std::string>> options{
            {"lease_time", "dhcp.option.ip_address_lease_time"},
            {"subnet_mask", "dhcp.option.subnet_mask"},
            {"router", "dhcp.option.router"},
            {"dns_servers", "dhcp.option.domain_name_server"},
            {"server_id", "dhcp.option.dhcp_server_id"},
            {"renewal_time", "dhcp.option.renewal_time_value"}};
        for (const auto& [what, field] : options) {
          const auto& v = m->all(field);
          if (!v.empty()) e[id(what)] = set_text({v.begin(), v.end()});
        }
      }
      if ((code == "3" || code == "7") && m->first("dhcp.ip.client") != "0.0.0.0") {
        e[id("client_address")] = m->first("dhcp.ip.client");
      }
    }
  }
}

// NAT: the flows of the inside capture matched to the outside's by protocol, destination, IP
// identification and TCP sequence number (tshark's raw one) of their first packet.
struct nat_flow {
  std::string proto, src, sport, dst, dport, id, seq;
  const tshark_row* first = nullptr;
  const tshark_row* reply = nullptr;
};

inline std::vector<nat_flow> nat_flows(const tshark_result& t) {
  std::vector<nat_flow> out;
  for (const auto& r : t.rows) {
    const bool tcp = r.has("tcp.srcport");
    const std::string p = tcp ? "tcp" : "udp";
    nat_flow f{p,
               r.first("ip.src"),
               r.first(p + ".srcport"),
               r.first("ip.dst"),
               r.first(p + ".dstport"),
               r.first("ip.id"),
               r.first("tcp.seq_raw"),
               &r,
               nullptr};
    bool known = false;
    for (auto& o : out) {
      if (o.proto != f.proto) continue;
      if (o.src == f.src && o.sport == f.sport && o.dst == f.dst && o.dport == f.dport) known = true;
      if (o.src == f.dst && o.sport == f.dport && o.dst == f.src && o.dport == f.sport) {
        known = true;
        if (o.reply == nullptr) o.reply = &r;
      }
    }
    if (!known) out.push_back(f);
  }
  return out;
}

inline void nat_expectations(const std::string& inside_file, const std::string& outside_file, expectations& e,
                             tshark_result& inside, tshark_result& outside) {
  const std::vector<std::string> fields{"frame.number", "ip.src",      "ip.dst",      "ip.id",       "ip.ttl",
                                        "ip.checksum",  "tcp.srcport", "tcp.dstport", "tcp.seq_raw", "tcp.checksum",
                                        "udp.srcport",  "udp.dstport", "udp.checksum"};
  const std::string filter = "ip && (tcp || udp) && !icmp && !(ip.flags.mf == 1) && !(ip.frag_offset > 0)";
  inside = tshark_rows(inside_file, filter, fields);
  outside = tshark_rows(outside_file, filter, fields);
  ASSERT_TRUE(inside.ok && outside.ok) << inside.error << outside.error;
  const auto in = nat_flows(inside), out = nat_flows(outside);
  std::size_t n = 0;
  std::set<std::string> publics;
  for (const auto& f : in) {
    const nat_flow* o = nullptr;
    for (const auto& c : out) {
      if (c.proto == f.proto && c.dst == f.dst && c.dport == f.dport && c.id == f.id && c.seq == f.seq) {
        o = &c;
        break;
      }
    }
    if (o == nullptr) continue;
    const auto id = [&](const std::string& what) { return fmt::format("nat.{}.{}", what, n); };
    ++n;
    publics.insert(o->src);
    const auto checksum = f.proto + ".checksum";
    e[id("outside_source")] = endpoint(o->src, o->sport);
    e[id("outside_frame")] = o->first->first("frame.number");
    e[id("ttl_inside")] = f.first->first("ip.ttl");
    e[id("ttl_outside")] = o->first->first("ip.ttl");
    e[id("ip_checksum_inside")] = f.first->first("ip.checksum");
    e[id("ip_checksum_outside")] = o->first->first("ip.checksum");
    e[id("transport_checksum_inside")] = f.first->first(checksum);
    e[id("transport_checksum_outside")] = o->first->first(checksum);
    if (o->reply) e[id("reply_outside_frame")] = o->reply->first("frame.number");
    if (o->reply && f.reply)
      e[id("reply_inside_destination")] = endpoint(f.reply->first("ip.dst"), f.reply->first(f.proto + ".dstport"));
  }
  if (n == 0) return;
  e["nat.flows"] = std::to_string(n);
  if (publics.size() == 1) e["nat.public_address"] = *publics.begin();
}

// Checks every udp/dns/dhcp/nat answer of `key`; returns how many were checked. Every id tshark
// answers must be in the key too (a question the capture can answer is not left out).
inline std::size_t expect_key_agrees(const std::string& capture, const std::string& inside,
                                     const std::vector<key_entry>& key) {
  expectations e;
  udp_expectations(capture, e);
  dns_expectations(capture, e);
  dhcp_expectations(capture, e);
  tshark_result in, out;
  if (!inside.empty()) nat_expectations(inside, capture, e, in, out);
  std::size_t checked = 0;
  std::set<std::string> asked;
  for (const auto& q : key) asked.insert(q.id);
  for (const auto& [id, answer] : e) {
    EXPECT_TRUE(asked.contains(id)) << capture << ": tshark answers " << id << " = " << answer
                                    << ", the key has no such question";
  }
  static const std::set<std::string> set_kinds{"addresses", "names", "numbers", "mailboxes"};
  for (const auto& q : key) {
    const auto p = parse_id(q.id);
    if (p.protocol != "udp" && p.protocol != "dns" && p.protocol != "dhcp" && p.protocol != "nat") continue;
    const auto it = e.find(q.id);
    if (it == e.end()) {
      ADD_FAILURE() << capture << ": " << q.id << " = " << q.answer << ": tshark gives no answer to this question";
      continue;
    }
    ++checked;
    if (set_kinds.contains(q.kind)) {
      EXPECT_EQ(as_set(q.answer), as_set(it->second)) << capture << ": " << q.id;
    } else {
      EXPECT_EQ(q.answer, it->second) << capture << ": " << q.id;
    }
  }
  return checked;
}

}  // namespace netlab::test::key_tshark
