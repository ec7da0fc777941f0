// Theory of operation: the FTP control connection is the FTP core on the one live driver
// (run_session, docs/architecture.md "The live driver"), which reads, writes replies in order
// through its writer, runs AUTH TLS (plaintext sent after it is discarded, RFC 4217 §4) and wakes
// the core at its wake_at times (the login delay, the idle timeout's 421). FTP's own actions, the
// data connections, are this file's hooks, all on the connection's executor (no locks):
//   - open_passive / close_passive: one ftp_data_connection listening on the control
//     connection's local address, reported with passive_opened()/passive_failed();
//   - start_transfer: at most one transfer task (spawned on the runner, which waits for it before
//     the handler returns): accept only from the control peer's address (RFC 2577 §3) or connect
//     to the PORT/EPRT target, run the transfer, report transfer_finished(), pump the input that
//     waited behind it;
//   - abort_transfer (ABOR, end of the control connection): stop the transfer in progress.
#include "netlib/io/ftp_control_driver.hpp"

#include <sys/socket.h>

#include <chrono>

#include <fmt/format.h>

#include "netlib/io/session_driver.hpp"

namespace netlib::io {

namespace {

// A client that closes the control connection before the data connection of an upload has left
// the session: the FIN is already queued on the control socket, so peek for it before committing.
bool control_alive(connection& c) {
  if (!c.is_open()) return false;
  char byte;
  const auto n = ::recv(c.socket().native_handle(), &byte, 1, MSG_PEEK | MSG_DONTWAIT);
  return n != 0;
}

struct ftp_hooks {
  const ftp_server_settings& settings;
  ftp_data_options data_options;  // settings.data, with the control connection's TLS session tag
  std::shared_ptr<ftp_data_connection> passive;
  std::shared_ptr<ftp_data_connection> current;

  void log(const std::string& line) const {
    if (settings.log) settings.log(line);
  }

  // Replies in the --verbose log: "< CODE TEXT" of the reply's last line.
  void on_send(std::string_view bytes) const {
    if (!settings.log) return;
    std::string_view text = bytes.substr(0, bytes.size() >= 2 ? bytes.size() - 2 : 0);
    const auto last = text.rfind("\r\n");
    if (last != std::string_view::npos) text.remove_prefix(last + 2);
    log(fmt::format("< {}", text));
  }

  template <class Runner>
  void on_start(Runner& r) {
    r.conn().set_idle_timeout(std::chrono::milliseconds(0));  // the session's own idle timeout (421) rules
    // RFC 959 §4.1.3: clients send ABOR's Synch as TCP urgent data; keep it in the byte stream.
    boost::system::error_code ec;
    r.conn().socket().set_option(asio::socket_base::out_of_band_inline(true), ec);
  }

  template <class Runner>
  void on_finish(Runner&) {
    if (current) current->abort();
    passive.reset();
  }

  template <class Runner>
  void handle(Runner& r, ftp::open_passive&) {
    passive = std::make_shared<ftp_data_connection>(r.conn().executor(), data_options);
    const auto local = r.conn().local_endpoint().address();
    if (!passive->listen(local)) {
      passive.reset();
      log("passive listener: no free port in the range");
      return r.execute(r.core().passive_failed());
    }
    r.execute(r.core().passive_opened(local.to_string(), passive->port()));
  }

  template <class Runner>
  void handle(Runner&, ftp::close_passive&) {
    passive.reset();
  }

  template <class Runner>
  void handle(Runner&, ftp::abort_transfer&) {
    if (current) current->abort();
  }

  template <class Runner>
  void handle(Runner& r, ftp::start_transfer& t) {
    auto data =
        t.passive ? std::move(passive) : std::make_shared<ftp_data_connection>(r.conn().executor(), data_options);
    passive.reset();
    current = data;
    r.spawn([this, &r, data, t = std::move(t)]() -> awaitable<void> { co_await transfer(r, data, t); });
  }

  template <class Runner>
  awaitable<void> transfer(Runner& r, std::shared_ptr<ftp_data_connection> data, ftp::start_transfer t) {
    connection& conn = r.conn();
    ftp_transfer_result result{ftp::transfer_outcome::connect_failed, 0};
    bool connected = false;
    if (data && t.passive) {
      connected = co_await data->accept(conn.remote_endpoint().address());
      if (data->refused() > 0) log(fmt::format("refused {} data connection(s) from another address", data->refused()));
    } else if (data) {
      boost::system::error_code ec;
      const auto address = asio::ip::make_address(t.active_target.host, ec);
      if (!ec)
        connected =
            co_await data->connect(tcp::endpoint(address, t.active_target.port), conn.local_endpoint().address());
    }
    if (connected)
      result = co_await data->run(t, *settings.files, [&r] { return !r.finished() && control_alive(r.conn()); });
    else if (data && data->aborted())
      result.outcome = ftp::transfer_outcome::aborted;
    log(fmt::format("transfer {} bytes", result.bytes));
    current.reset();
    if (!r.finished()) {
      r.execute(r.core().transfer_finished(result.outcome, result.bytes));
      r.pump();  // commands that waited behind the transfer
    }
  }
};

}  // namespace

awaitable<void> ftp_handle_control(connection& c, const ftp_server_settings& settings) {
  ftp::server_config cfg = settings.session;
  const auto peer = c.remote_endpoint().address();
  cfg.peer_is_ipv6 = peer.is_v6() && !peer.to_v6().is_v4_mapped();
  cfg.peer_address = peer.is_v6() && peer.to_v6().is_v4_mapped()
                         ? asio::ip::make_address_v4(asio::ip::v4_mapped, peer.to_v6()).to_string()
                         : peer.to_string();
  cfg.tls_available = c.tls_available();
  if (c.tls_available()) c.bind_tls_sessions();
  // Named, not temporaries in the co_await expression: GCC 12 mishandles an aggregate temporary
  // holding a std::string there (its SSO buffer was freed as if on the heap).
  ftp_hooks hooks{settings, settings.data, {}, {}};
  hooks.data_options.tls_session_tag = c.tls_session_tag();  // PROT P: data sessions resume this one's
  ftp::server_session core(std::move(cfg), *settings.files);
  co_await run_session(c, std::move(core), std::move(hooks));
}

}  // namespace netlib::io
