// Theory of operation: one control_driver per control connection, all on the connection's
// executor (one thread, no locks). Four coroutines share it:
//   - the read loop (ftp_handle_control): read, append to in_, pump();
//   - the writer: replies are queued in out_ and written in order by one writer at a time;
//   - the waker: sleeps until the session's next_deadline() and pumps (login delay, idle 421);
//   - at most one transfer: waits for the data connection, runs it, reports transfer_finished.
// pump() = tick(now) + receive(unconsumed input) + execute(actions); it is synchronous, so the
// session is never entered twice at once. notify_ (a timer that is only ever cancelled) wakes
// whoever waits for the writer or the transfer to finish. The handler returns only when the
// writer and transfer coroutines are done, since they use the connection.
#include "netlib/io/ftp_control_driver.hpp"

#include <sys/socket.h>

#include <chrono>
#include <ctime>

#include <fmt/format.h>

#include "netlib/core/bytes.hpp"

namespace netlib::io {

namespace {
using steady = std::chrono::steady_clock;

steady::time_point to_steady(netlib::time_point t) {
  return steady::time_point(std::chrono::duration_cast<steady::duration>(t.time_since_epoch()));
}

class control_driver : public std::enable_shared_from_this<control_driver> {
 public:
  control_driver(connection& c, const ftp_server_settings& s, ftp::server_config cfg)
      : conn_(c), settings_(s), data_options_(s.data), core_(std::move(cfg), *s.files), waker_(c.executor()),
        notify_(c.executor()) {
    data_options_.tls_session_tag = c.tls_session_tag();  // PROT P: data sessions resume this one's
  }

  awaitable<void> run();

 private:
  void pump();
  void execute(const ftp::server_actions& actions);
  void execute_one(const ftp::server_action& a);
  void send(std::string bytes);
  void open_passive();
  void start_transfer(const ftp::start_transfer& t);
  void notify() { notify_.cancel(); }
  awaitable<void> wait_until(const std::function<bool()>& done);
  awaitable<void> writer();
  awaitable<void> wake_loop();
  awaitable<void> transfer(std::shared_ptr<ftp_data_connection> data, ftp::start_transfer t);
  void log(const std::string& line) { if (settings_.log) settings_.log(line); }
  bool control_alive();

  connection& conn_;
  const ftp_server_settings& settings_;
  ftp_data_options data_options_;
  ftp::server_session core_;
  input_buffer in_;
  std::string out_;
  bool writing_ = false;
  bool close_after_write_ = false;
  bool tls_requested_ = false;
  bool finished_ = false;
  bool waking_ = false;
  std::shared_ptr<ftp_data_connection> passive_;
  std::shared_ptr<ftp_data_connection> current_;
  bool transferring_ = false;
  asio::steady_timer waker_;
  asio::steady_timer notify_;
};

void control_driver::pump() {
  if (finished_) return;
  core_.set_wall_time(static_cast<std::int64_t>(std::time(nullptr)));
  execute(core_.tick(connection::now()));
  const auto out = core_.receive(in_.data());
  in_.consume(out.consumed);
  execute(out.actions);
  waker_.cancel();  // the deadline may have moved
}

void control_driver::execute(const ftp::server_actions& actions) {
  for (const auto& a : actions) execute_one(a);
}

void control_driver::execute_one(const ftp::server_action& a) {
  if (auto* r = std::get_if<ftp::send_reply>(&a)) {
    log(fmt::format("< {}", r->value));
    send(ftp::serialize(r->value));
  } else if (std::holds_alternative<ftp::open_passive>(a)) {
    open_passive();
  } else if (std::holds_alternative<ftp::close_passive>(a)) {
    passive_.reset();
  } else if (auto* t = std::get_if<ftp::start_transfer>(&a)) {
    start_transfer(*t);
  } else if (std::holds_alternative<ftp::abort_transfer>(a)) {
    if (current_) current_->abort();
  } else if (std::holds_alternative<ftp::close_control>(a)) {
    close_after_write_ = true;
    if (!writing_) conn_.close();
  } else if (std::holds_alternative<ftp::start_tls>(a)) {
    tls_requested_ = true;
  }
  // wake_at: the waker follows core_.next_deadline() after every pump.
}

void control_driver::send(std::string bytes) {
  out_ += bytes;
  if (writing_) return;
  writing_ = true;
  asio::co_spawn(conn_.executor(), [self = shared_from_this()] { return self->writer(); }, asio::detached);
}

awaitable<void> control_driver::writer() {
  while (!out_.empty()) {
    const std::string chunk = std::move(out_);
    out_.clear();
    if (!co_await conn_.write(chunk)) {
      out_.clear();
      break;
    }
  }
  writing_ = false;
  if (close_after_write_) conn_.close();
  notify();
}

awaitable<void> control_driver::wait_until(const std::function<bool()>& done) {
  for (int i = 0; i < 100000 && !done(); ++i) {
    notify_.expires_at(steady::time_point::max());
    boost::system::error_code ec;
    co_await notify_.async_wait(asio::redirect_error(use_awaitable, ec));
  }
}

awaitable<void> control_driver::wake_loop() {
  while (!finished_) {
    const auto deadline = core_.next_deadline();
    waker_.expires_at(deadline ? to_steady(*deadline) : steady::time_point::max());
    boost::system::error_code ec;
    co_await waker_.async_wait(asio::redirect_error(use_awaitable, ec));
    if (!ec && !finished_) pump();  // a deadline passed (cancellation only re-arms)
  }
  waking_ = false;
  notify();
}

// A client that closes the control connection before the data connection of an upload has left
// the session: the FIN is already queued on the control socket, so peek for it before committing.
bool control_driver::control_alive() {
  if (!conn_.is_open()) return false;
  char byte;
  const auto n = ::recv(conn_.socket().native_handle(), &byte, 1, MSG_PEEK | MSG_DONTWAIT);
  return n != 0;
}

void control_driver::open_passive() {
  passive_ = std::make_shared<ftp_data_connection>(conn_.executor(), data_options_);
  const auto local = conn_.local_endpoint().address();
  if (!passive_->listen(local)) {
    passive_.reset();
    log("passive listener: no free port in the range");
    return execute(core_.passive_failed());
  }
  execute(core_.passive_opened(local.to_string(), passive_->port()));
}

void control_driver::start_transfer(const ftp::start_transfer& t) {
  auto data = t.passive ? std::move(passive_) : std::make_shared<ftp_data_connection>(conn_.executor(), data_options_);
  passive_.reset();
  current_ = data;
  transferring_ = true;
  asio::co_spawn(conn_.executor(), [self = shared_from_this(), data, t] { return self->transfer(data, t); },
                 asio::detached);
}

awaitable<void> control_driver::transfer(std::shared_ptr<ftp_data_connection> data, ftp::start_transfer t) {
  ftp_transfer_result result{ftp::transfer_outcome::connect_failed, 0};
  bool connected = false;
  if (data && t.passive) {
    connected = co_await data->accept(conn_.remote_endpoint().address());
    if (data->refused() > 0) log(fmt::format("refused {} data connection(s) from another address", data->refused()));
  } else if (data) {
    boost::system::error_code ec;
    const auto address = asio::ip::make_address(t.active_target.host, ec);
    if (!ec) connected = co_await data->connect(tcp::endpoint(address, t.active_target.port), conn_.local_endpoint().address());
  }
  if (connected) result = co_await data->run(t, *settings_.files, [this] { return !finished_ && control_alive(); });
  else if (data && data->aborted()) result.outcome = ftp::transfer_outcome::aborted;
  log(fmt::format("transfer {} bytes", result.bytes));
  current_.reset();
  transferring_ = false;
  if (!finished_) {
    execute(core_.transfer_finished(result.outcome, result.bytes));
    pump();
  }
  notify();
}

awaitable<void> control_driver::run() {
  conn_.set_idle_timeout(std::chrono::milliseconds(0));  // the session's own idle timeout (421) rules
  // RFC 959 §4.1.3: clients send ABOR's Synch as TCP urgent data; keep it in the byte stream.
  boost::system::error_code ec;
  conn_.socket().set_option(asio::socket_base::out_of_band_inline(true), ec);
  execute(core_.start(connection::now()));
  waking_ = true;
  asio::co_spawn(conn_.executor(), [self = shared_from_this()] { return self->wake_loop(); }, asio::detached);
  std::vector<std::byte> buffer(16384);
  while (conn_.is_open()) {
    const std::size_t n = co_await conn_.read_some(buffer);
    if (n == 0) break;
    in_.append(byte_view(buffer.data(), n));
    pump();
    if (tls_requested_) {
      tls_requested_ = false;
      in_.clear();  // nothing sent before the handshake may be taken as a command (RFC 4217 §4)
      co_await wait_until([this] { return !writing_; });
      const bool ok = co_await conn_.start_tls();
      execute(core_.tls_established(ok));
    }
  }
  execute(core_.receive_eof());
  finished_ = true;
  if (current_) current_->abort();
  passive_.reset();
  waker_.cancel();
  co_await wait_until([this] { return !writing_ && !transferring_ && !waking_; });
}
}  // namespace

awaitable<void> ftp_handle_control(connection& c, const ftp_server_settings& settings) {
  ftp::server_config cfg = settings.session;
  const auto peer = c.remote_endpoint().address();
  cfg.peer_is_ipv6 = peer.is_v6() && !peer.to_v6().is_v4_mapped();
  cfg.peer_address = peer.is_v6() && peer.to_v6().is_v4_mapped() ? asio::ip::make_address_v4(asio::ip::v4_mapped, peer.to_v6()).to_string() : peer.to_string();
  cfg.tls_available = c.tls_available();
  if (c.tls_available()) c.bind_tls_sessions();
  auto driver = std::make_shared<control_driver>(c, settings, std::move(cfg));
  co_await driver->run();
}

}  // namespace netlib::io
