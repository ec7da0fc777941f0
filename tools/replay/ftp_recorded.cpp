// Reading a recorded FTP control conversation. (1) Parse the server stream into replies with the
// FTP reply parser (RFC 959 §4.2); reply 0 is the greeting. (2) Split the client stream into
// command lines; each command takes the replies that follow in order: any 1yz preliminaries, then
// one final reply (RFC 959 §4.2: no pipelining assumed, as every client in our captures waits).
// (3) Track the data set-up: a PASV/EPSV answered 227/229 or a PORT/EPRT answered 200 names the
// endpoint that accepts the data connection; the next transfer command that got a 1yz reply used
// it, and the first unused recorded conversation whose server endpoint is that address is its data
// connection (passive: the FTP server accepted it; active: the FTP client did).
#include "ftp_recorded.hpp"

#include <algorithm>
#include <set>

#include "common/recorded_replies.hpp"
#include "netlib/core/command_line.hpp"
#include "netlib/ftp/data_address.hpp"
#include "netlib/ftp/reply.hpp"
#include "netlib/io/asio.hpp"

namespace netlab::replay {

namespace ftp = netlib::ftp;

bool is_ftp_transfer_verb(std::string_view verb) {
  return verb == "RETR" || verb == "LIST" || verb == "NLST" || verb == "MLSD" || is_ftp_upload_verb(verb);
}

bool is_ftp_upload_verb(std::string_view verb) {
  return verb == "STOR" || verb == "STOU" || verb == "APPE";
}

std::string endpoint_key(const std::string& host, unsigned short port) {
  std::string text = host;
  boost::system::error_code ec;
  const auto a = boost::asio::ip::make_address(host, ec);
  if (!ec) text = a.to_string();
  return text.find(':') != std::string::npos ? "[" + text + "]:" + std::to_string(port)
                                             : text + ":" + std::to_string(port);
}

std::string endpoint_host(const std::string& endpoint) {
  const auto colon = endpoint.rfind(':');
  std::string host = endpoint.substr(0, colon == std::string::npos ? endpoint.size() : colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  return host;
}

namespace ftp_recorded_local {

std::vector<ftp_step> split_commands(const std::string& client) {
  std::vector<ftp_step> out;
  for (auto& c : netlib::recorded_commands(client)) {
    ftp_step s;
    s.begin = c.begin;
    s.end = c.end;
    s.verb = std::move(c.command.verb);
    s.argument = std::move(c.command.argument);
    out.push_back(std::move(s));
  }
  return out;
}

// The endpoint a data set-up names, as a key, or empty when this step sets nothing up.
std::string setup_key(const ftp_step& s, const ftp::reply& final_reply, const std::string& server_host) {
  std::optional<ftp::data_address> a;
  if (s.verb == "PASV" && final_reply.code == 227) a = ftp::parse_pasv_reply(final_reply.text());
  if (s.verb == "EPSV" && final_reply.code == 229) {
    a = ftp::parse_epsv_reply(final_reply.text());
    if (a) a->host = server_host;
  }
  if (s.verb == "PORT" && final_reply.code == 200) a = ftp::parse_port_argument(s.argument);
  if (s.verb == "EPRT" && final_reply.code == 200) a = ftp::parse_eprt_argument(s.argument);
  return a ? endpoint_key(a->host, a->port) : std::string{};
}

struct data_finder {
  const std::vector<recorded_conversation>& all;
  std::set<std::uint64_t> used;
  const recorded_conversation* take(const std::string& key, std::uint64_t control) {
    for (const auto& c : all) {
      if (c.id == control || used.contains(c.id) || c.server_endpoint != key) continue;
      used.insert(c.id);
      return &c;
    }
    return nullptr;
  }
};

}  // namespace ftp_recorded_local

ftp_dialogue read_ftp_dialogue(const recorded_conversation& control, const std::vector<recorded_conversation>& all) {
  using namespace ftp_recorded_local;
  ftp_dialogue d;
  d.client_host = endpoint_host(control.client_endpoint);
  d.server_host = endpoint_host(control.server_endpoint);
  const auto replies = netlab::recorded_replies<ftp::reply_parser>(control.server);
  std::size_t next = 0;
  while (next < replies.size() && replies[next].preliminary()) ++next;  // 120 before 220
  if (next < replies.size()) d.greeting = replies[next++].code;
  d.steps = split_commands(control.client);
  data_finder finder{all, {}};
  std::string pending;  // the address of the current data set-up
  bool pending_passive = true;
  for (auto& s : d.steps) {
    while (next < replies.size()) {
      s.codes.push_back(replies[next].code);
      if (!replies[next++].preliminary()) break;
    }
    if (s.codes.empty()) continue;
    if (const auto key = setup_key(s, replies[next - 1], d.server_host); !key.empty()) {
      pending = key;
      pending_passive = s.verb == "PASV" || s.verb == "EPSV";
    }
    if (!is_ftp_transfer_verb(s.verb)) continue;
    s.transfer = ftp_recorded_transfer{is_ftp_upload_verb(s.verb), false, 0, {}};
    if (pending.empty() || s.codes.size() < 2) continue;  // no data connection was opened
    if (const auto* c = finder.take(pending, control.id)) {
      // Passive: the FTP server is the TCP server; active: the FTP server opened the connection.
      const bool from_tcp_client = s.transfer->upload == pending_passive;
      s.transfer->found = true;
      s.transfer->conversation = c->id;
      s.transfer->data = from_tcp_client ? c->client : c->server;
      d.data_conversations.push_back(c->id);
    }
    pending.clear();
  }
  return d;
}

}  // namespace netlab::replay
