// The lab's blocking FTP client: every step sends one command through ftp::client_session and
// reads until its final reply. Data connections: passive = EPSV (RFC 2428 §3) and, if the server
// refuses it (5yz), PASV (RFC 959 §4.1.2); active = a listener on the control connection's local
// address announced with EPRT (RFC 2428 §2) or, if refused, PORT. The transfer command goes out
// after the data channel is set up; in active mode the server's connection is accepted after
// the 150.
#include "ftp_client.hpp"

#include <chrono>
#include <istream>
#include <optional>
#include <ostream>

#include <fmt/format.h>

#include "netlib/app/program.hpp"
#include "netlib/ftp/ascii_codec.hpp"
#include "netlib/ftp/data_address.hpp"

namespace lab_ftp {

using netlib::app::failure;
using netlib::ftp::reply;

struct ftp_client::data_channel {
  std::optional<netlib::io::tcp_client> connected;     // passive: connected before the command
  std::unique_ptr<netlib::io::tcp_listener> listener;  // active: accepted after the 150
  std::string command;
  netlib::io::tcp_client take() {
    if (connected) return std::move(*connected);
    return listener->accept();
  }
};

ftp_client::ftp_client(std::chrono::milliseconds timeout) : timeout_(timeout), control_(timeout) {}
ftp_client::~ftp_client() = default;

void ftp_client::open(const std::string& host, unsigned short port) {
  try {
    control_.connect(host, port);
  } catch (const std::exception& e) {
    throw failure(e.what());
  }
  host_ = host;
  const reply greeting = final_reply();
  if (greeting.code != 220) throw failure(fmt::format("{}:{} did not greet with 220: {}", host, port, greeting));
  connected_ = true;
}

netlib::ftp::client_event ftp_client::next_event() {
  std::byte buf[4096];
  for (int i = 0; i < 1000000 && events_.empty(); ++i) {
    const auto out = session_.receive(in_.data());
    in_.consume(out.consumed);
    if (!out.error.empty()) throw failure("malformed reply from the server: " + out.error);
    for (const auto& e : out.events) {
      if (trace_) {
        const std::string wire = netlib::ftp::serialize(e.value);
        std::size_t pos = 0;
        for (std::size_t nl; (nl = wire.find("\r\n", pos)) != std::string::npos; pos = nl + 2) {
          *trace_ << "< " << std::string_view(wire).substr(pos, nl - pos) << '\n';
        }
        *trace_ << std::flush;
      }
      events_.push_back(e);
    }
    if (!events_.empty()) break;
    std::size_t n = 0;
    try {
      n = control_.read_some(buf);
    } catch (const std::exception& e) {
      throw failure(e.what());
    }
    if (n == 0) {
      session_.receive_eof();
      connected_ = false;
      throw failure("the server closed the control connection");
    }
    in_.append(netlib::byte_view(buf, n));
  }
  if (events_.empty()) throw failure("no reply from the server");
  auto e = std::move(events_.front());
  events_.pop_front();
  if (e.value.code == 421) connected_ = false;
  return e;
}

reply ftp_client::final_reply() {
  for (int i = 0; i < 1000; ++i) {
    auto e = next_event();
    if (e.final) return e.value;
  }
  throw failure("too many preliminary replies");
}

void ftp_client::send_line(const std::string& verb, const std::string& argument) {
  if (!connected_) throw failure("not connected (use open HOST [PORT])");
  if (trace_)
    *trace_ << "> " << verb << (argument.empty() ? "" : " ") << (verb == "PASS" ? "****" : argument) << '\n'
            << std::flush;
  try {
    control_.write(session_.send({verb, argument}));
  } catch (const std::exception& e) {
    throw failure(e.what());
  }
}

reply ftp_client::command(const std::string& verb, const std::string& argument) {
  send_line(verb, argument);
  return final_reply();
}

reply ftp_client::expect_ok(const std::string& verb, const std::string& argument) {
  reply r = command(verb, argument);
  if (r.failure()) throw failure(fmt::format("{}{}{} failed: {}", verb, argument.empty() ? "" : " ", argument, r));
  return r;
}

void ftp_client::login(const std::string& user, const std::string& password) {
  reply r = command("USER", user);
  if (r.code == 331 || r.code == 332) r = command("PASS", password);
  if (r.code != 230 && r.code != 202) throw failure(fmt::format("login as {} failed: {}", user, r));
}

ftp_client::data_channel ftp_client::open_data() {
  data_channel ch;
  if (passive_) {
    std::optional<netlib::ftp::data_address> where;
    if (!extended_failed_) {
      const reply r = command("EPSV");
      if (r.code == 229) {
        where = netlib::ftp::parse_epsv_reply(r.text());
        ch.command = "EPSV";
      } else if (r.code >= 500) {
        extended_failed_ = true;  // RFC 2428 §3: a server without EPSV answers 500/502
      } else {
        throw failure(fmt::format("EPSV failed: {}", r));
      }
    }
    if (!where) {
      const reply r = expect_ok("PASV");
      where = netlib::ftp::parse_pasv_reply(r.text());
      ch.command = "PASV";
    }
    if (!where) throw failure("could not read the data address in the server's passive reply");
    const std::string host = where->host.empty() ? host_ : where->host;
    ch.connected.emplace(timeout_);
    try {
      ch.connected->connect(host, where->port);
    } catch (const std::exception& e) {
      throw failure(e.what());
    }
    return ch;
  }
  const auto local = control_.local_endpoint().address();
  ch.listener = std::make_unique<netlib::io::tcp_listener>(local.to_string(), 0, timeout_);
  const unsigned short port = ch.listener->local_endpoint().port();
  const netlib::ftp::data_address me{local.is_v6() ? 2 : 1, local.to_string(), port};
  if (!extended_failed_) {
    const reply r = command("EPRT", netlib::ftp::format_eprt_argument(me));
    if (r.completion()) {
      ch.command = "EPRT";
      return ch;
    }
    if (r.code < 500) throw failure(fmt::format("EPRT failed: {}", r));
    extended_failed_ = true;
  }
  if (local.is_v6()) throw failure("the server refused EPRT and PORT cannot carry an IPv6 address");
  expect_ok("PORT", netlib::ftp::format_port_argument(me));
  ch.command = "PORT";
  return ch;
}

void ftp_client::set_type(bool ascii) {
  if (type_ == static_cast<int>(ascii)) return;
  expect_ok("TYPE", ascii ? "A" : "I");
  type_ = ascii ? 1 : 0;
}

// One transfer command: set up the data channel, send the command, and on its 1yz run `body` on
// the data connection; the final reply (226/250) ends it (RFC 959 §5.4 for the sequence).
transfer_stats ftp_client::transfer(const std::string& verb, const std::string& arg,
                                    const std::function<void(netlib::io::tcp_client&, transfer_stats&)>& body) {
  data_channel ch = open_data();
  transfer_stats stats;
  stats.data_command = ch.command;
  const auto t0 = std::chrono::steady_clock::now();
  send_line(verb, arg);
  auto e = next_event();
  if (!e.final) {
    try {
      netlib::io::tcp_client data = ch.take();
      body(data, stats);
      data.close();
    } catch (const failure&) {
      throw;
    } catch (const std::exception& ex) {
      throw failure(fmt::format("{} {}: data connection: {}", verb, arg, ex.what()));
    }
    e.value = final_reply();
  }
  stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (e.value.failure() || e.value.intermediate()) throw failure(fmt::format("{} {} failed: {}", verb, arg, e.value));
  return stats;
}

transfer_stats ftp_client::retrieve(const std::string& path, const std::function<void(std::string_view)>& sink) {
  set_type(ascii_);
  const bool ascii = ascii_;
  return transfer("RETR", path, [&](netlib::io::tcp_client& data, transfer_stats& stats) {
    netlib::ftp::ascii_decoder decoder;
    std::string buf(256 * 1024, '\0');
    std::string local;
    for (std::size_t n; (n = data.read_some({reinterpret_cast<std::byte*>(buf.data()), buf.size()})) > 0;) {
      stats.bytes += n;
      if (!ascii) {
        sink(std::string_view(buf).substr(0, n));
        continue;
      }
      local.clear();
      decoder.decode(netlib::as_bytes(std::string_view(buf).substr(0, n)), local);
      sink(local);
    }
    local.clear();
    decoder.finish(local);
    if (!local.empty()) sink(local);
  });
}

transfer_stats ftp_client::store(const std::string& path, std::istream& source, bool append) {
  set_type(ascii_);
  const bool ascii = ascii_;
  return transfer(append ? "APPE" : "STOR", path, [&](netlib::io::tcp_client& data, transfer_stats& stats) {
    netlib::ftp::ascii_encoder encoder;
    std::string buf(256 * 1024, '\0');
    std::string wire;
    while (source) {
      source.read(buf.data(), static_cast<std::streamsize>(buf.size()));
      const auto n = static_cast<std::size_t>(source.gcount());
      if (n == 0) break;
      std::string_view piece = std::string_view(buf).substr(0, n);
      if (ascii) {
        wire.clear();
        encoder.encode(netlib::as_bytes(piece), wire);
        piece = wire;
      }
      data.write(piece);
      stats.bytes += piece.size();
    }
    data.shutdown_send();
  });
}

transfer_stats ftp_client::list(const std::string& path, bool names_only, std::string& out) {
  set_type(true);  // listings travel in TYPE A (RFC 959 §4.1.3)
  return transfer(names_only ? "NLST" : "LIST", path, [&](netlib::io::tcp_client& data, transfer_stats& stats) {
    netlib::ftp::ascii_decoder decoder;
    std::string buf(64 * 1024, '\0');
    for (std::size_t n; (n = data.read_some({reinterpret_cast<std::byte*>(buf.data()), buf.size()})) > 0;) {
      stats.bytes += n;
      if (out.size() > (256u << 20)) throw failure("listing larger than 256 MiB");
      decoder.decode(netlib::as_bytes(std::string_view(buf).substr(0, n)), out);
    }
    decoder.finish(out);
  });
}

std::string ftp_client::pwd() {
  const reply r = expect_ok("PWD");
  const std::string t = r.text();
  const auto a = t.find('"');
  const auto b = t.rfind('"');
  if (a == std::string::npos || b == a) return t;
  std::string path;  // RFC 959 Appendix II: "" inside the quotes is one quote
  for (std::size_t i = a + 1; i < b; ++i) {
    path += t[i];
    if (t[i] == '"' && i + 1 < b && t[i + 1] == '"') ++i;
  }
  return path;
}

void ftp_client::quit() {
  if (!connected_) return;
  try {
    command("QUIT");
  } catch (const failure&) {
  }
  connected_ = false;
  control_.close();
}

}  // namespace lab_ftp
