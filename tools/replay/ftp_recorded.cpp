// Reading a recorded FTP control conversation. (1) Read the dialogue with netlib::ftp::control_analyzer,
// the reader of lab-ftp analyze (one pairing rule for both): fed both directions in capture order
// with their capture times, it gives each command line (its bytes in the client stream) the
// replies that answered it, any 1yz preliminaries then the final one (RFC 959 §4.2, §5.4), and
// the data set-ups: a PASV/EPSV answered 227/229 or a PORT/EPRT answered 2yz names the endpoint
// that accepts the data connection. (2) The next transfer command that got a 1yz reply used it,
// and the first unused recorded conversation whose server endpoint is that address is its data
// connection (passive: the FTP server accepted it; active: the FTP client did).
#include "ftp_recorded.hpp"

#include <algorithm>
#include <cstdint>
#include <set>

#include "netlib/ftp/control_analyzer.hpp"
#include "netlib/io/asio.hpp"

namespace netlab::replay {

namespace ftp = netlib::ftp;

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
  ftp::control_analyzer analyzer;
  feed_pieces(control, analyzer);
  if (analyzer.greeting()) d.greeting = analyzer.greeting()->code;
  const auto& setups = analyzer.setups();
  std::size_t next_setup = 0;
  data_finder finder{all, {}};
  std::string pending;  // the address of the current data set-up
  bool pending_passive = true;
  for (std::size_t i = 0; i < analyzer.commands().size(); ++i) {
    const auto& c = analyzer.commands()[i];
    ftp_step s;
    s.begin = c.client_begin;
    s.end = c.client_end;
    s.verb = c.verb;
    s.argument = c.argument;
    s.codes = c.preliminary_codes;
    if (c.reply_code) s.codes.push_back(*c.reply_code);
    for (; next_setup < setups.size() && setups[next_setup].command_index <= i; ++next_setup) {
      const auto& setup = setups[next_setup];
      pending = endpoint_key(setup.where.host.empty() ? d.server_host : setup.where.host, setup.where.port);
      pending_passive = setup.passive;
    }
    if (!s.codes.empty() && ftp::control_analyzer::is_transfer_verb(s.verb)) {
      s.transfer = ftp_recorded_transfer{ftp::control_analyzer::is_upload_verb(s.verb), false, 0, {}};
      if (!pending.empty() && s.codes.size() >= 2) {  // else no data connection was opened
        if (const auto* dc = finder.take(pending, control.id)) {
          // Passive: the FTP server is the TCP server; active: the FTP server opened the connection.
          const bool from_tcp_client = s.transfer->upload == pending_passive;
          s.transfer->found = true;
          s.transfer->conversation = dc->id;
          s.transfer->data = from_tcp_client ? dc->client : dc->server;
          d.data_conversations.push_back(dc->id);
        }
        pending.clear();
      }
    }
    d.steps.push_back(std::move(s));
  }
  return d;
}

}  // namespace netlab::replay
