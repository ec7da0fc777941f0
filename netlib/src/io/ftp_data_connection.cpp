// Theory of operation: the object lives from PASV/PORT to the end of one transfer. A watchdog
// coroutine sleeps until deadline_ (moved forward by every bit of progress, arm()) and closes
// the acceptor and socket when it passes, which ends any pending operation with an error; abort()
// closes them the same way. run() then maps what happened to a transfer_outcome: aborted,
// timed out or reset -> aborted/connection_lost; file errors -> local_error/storage_error.
// Uploads are written through ftp::file_writer and committed only after a clean end of stream, so
// an aborted upload leaves nothing behind (RFC 959 §3.4: in stream mode EOF ends the file).
// PROT P: the server handshake on the data connection is bound to the control connection's
// session tag (tls.hpp); a handshake that did not resume a session (SSL_session_reused) is a
// connection from someone who does not hold the control connection's session: closed, 522.
#include "netlib/io/ftp_data_connection.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <string>

#include "netlib/ftp/ascii_codec.hpp"
#include "netlib/io/send_file.hpp"
#include "netlib/io/tls.hpp"

namespace netlib::io {

using ftp::transfer_outcome;
constexpr std::size_t copy_chunk = 256 * 1024;  // what one read or write moves when copying

ftp_data_connection::ftp_data_connection(asio::any_io_executor ex, ftp_data_options options)
    : ex_(ex), options_(std::move(options)), acceptor_(ex), socket_(ex), timer_(ex) {}

ftp_data_connection::~ftp_data_connection() {
  close_all();
}

void ftp_data_connection::close_all() {
  boost::system::error_code ec;
  acceptor_.close(ec);
  socket_.close(ec);
  timer_.cancel();
}

void ftp_data_connection::abort() {
  aborted_ = true;
  close_all();
}

bool ftp_data_connection::listen(const asio::ip::address& local) {
  const unsigned lo = options_.port_min, hi = options_.port_max ? options_.port_max : options_.port_min;
  for (unsigned p = lo; p <= hi; ++p) {
    boost::system::error_code ec;
    acceptor_.close(ec);
    const tcp::endpoint ep(local, static_cast<unsigned short>(p));
    acceptor_.open(ep.protocol(), ec);
    if (!ec) acceptor_.bind(ep, ec);
    if (!ec) acceptor_.listen(1, ec);
    if (!ec) return true;
    if (p == 65535) break;
  }
  boost::system::error_code ec;
  acceptor_.close(ec);
  return false;
}

unsigned short ftp_data_connection::port() const {
  boost::system::error_code ec;
  return acceptor_.local_endpoint(ec).port();
}

void ftp_data_connection::arm(std::chrono::milliseconds timeout) {
  const auto earlier = deadline_;
  deadline_ = std::chrono::steady_clock::now() + timeout;
  if (watching_ && deadline_ < earlier) timer_.cancel();  // the watchdog re-arms for the earlier time
  if (!watching_) {
    watching_ = true;
    asio::co_spawn(ex_, watchdog(shared_from_this()), asio::detached);
  }
}

awaitable<void> ftp_data_connection::watchdog(std::shared_ptr<ftp_data_connection> self) {
  while (!self->finished_ && !self->aborted_) {
    if (std::chrono::steady_clock::now() >= self->deadline_) {
      self->timed_out_ = true;
      self->close_all();
      break;
    }
    self->timer_.expires_at(self->deadline_);
    boost::system::error_code ec;
    co_await self->timer_.async_wait(asio::redirect_error(use_awaitable, ec));
  }
  self->watching_ = false;
}

// RFC 2577 §3: only the control peer may connect; others are closed and the wait goes on.
awaitable<bool> ftp_data_connection::accept(const asio::ip::address& expected_peer) {
  arm(options_.connect_timeout);
  for (int attempt = 0; attempt < 64 && acceptor_.is_open(); ++attempt) {
    boost::system::error_code ec;
    tcp::socket s = co_await acceptor_.async_accept(asio::redirect_error(use_awaitable, ec));
    if (ec) co_return false;
    const auto peer = s.remote_endpoint(ec).address();
    if (!ec && peer == expected_peer) {
      socket_ = std::move(s);
      acceptor_.close(ec);
      co_return true;
    }
    ++refused_;
    s.close(ec);
  }
  co_return false;
}

awaitable<bool> ftp_data_connection::connect(const tcp::endpoint& target, const asio::ip::address& local) {
  arm(options_.connect_timeout);
  boost::system::error_code ec;
  socket_.open(target.protocol(), ec);
  if (!ec) socket_.bind(tcp::endpoint(local, 0), ec);
  if (ec) co_return false;
  co_await socket_.async_connect(target, asio::redirect_error(use_awaitable, ec));
  co_return !ec;
}

// RFC 4217 §9: with PROT P the server is the TLS server on the data connection too; the session
// must be the control connection's (vsftpd's require_ssl_reuse).
awaitable<transfer_outcome> ftp_data_connection::secure() {
  // The handshake has its own deadline (issue 31): a client that connects and never starts it
  // ends the transfer within the data timeout, whatever was left of the connect timeout.
  arm(options_.idle_timeout);
  tls_ = std::make_unique<ssl::stream<tcp::socket&>>(socket_, *options_.tls);
  if (!options_.tls_session_tag.empty()) bind_tls_sessions(tls_->native_handle(), options_.tls_session_tag);
  boost::system::error_code ec;
  co_await tls_->async_handshake(ssl::stream_base::server, asio::redirect_error(use_awaitable, ec));
  if (ec) co_return transfer_outcome::connect_failed;
  if (!tls_session_resumed(tls_->native_handle())) co_return transfer_outcome::tls_not_resumed;
  co_return transfer_outcome::completed;
}

awaitable<ftp_transfer_result> ftp_data_connection::run(const ftp::start_transfer& t, ftp::file_system& fs,
                                                        std::function<bool()> keep) {
  // (No co_await inside ?: or && here: GCC 12 miscompiles some of those.)
  ftp_transfer_result r;
  transfer_outcome ready = transfer_outcome::completed;
  if (t.tls) {
    ready = options_.tls != nullptr ? transfer_outcome::completed : transfer_outcome::connect_failed;
    if (ready == transfer_outcome::completed) ready = co_await secure();
  }
  if (ready != transfer_outcome::completed) {
    r.outcome = aborted_ ? transfer_outcome::aborted : ready;
  } else if (t.kind == ftp::transfer_kind::receive_file) {
    r = co_await receive(t, fs, keep);
  } else {
    r = co_await send(t, fs);
  }
  finished_ = true;
  close_all();
  if (aborted_) r.outcome = transfer_outcome::aborted;
  co_return r;
}

awaitable<ftp_transfer_result> ftp_data_connection::send(const ftp::start_transfer& t, ftp::file_system& fs) {
  ftp_transfer_result r;
  std::unique_ptr<ftp::file_reader> reader;
  if (t.kind == ftp::transfer_kind::send_file) {
    ftp::fs_status s;
    reader = fs.open_read(t.path, t.offset, s);
    if (!reader) co_return ftp_transfer_result{transfer_outcome::local_error, 0};
  }
  if (reader && reader->descriptor() >= 0 && !tls_ && !t.ascii) {
    r = co_await send_whole_file(reader->descriptor());
  } else {
    r = co_await send_copied(t, reader.get());
  }
  boost::system::error_code ec;
  if (r.outcome == transfer_outcome::completed) {
    if (tls_) co_await tls_->async_shutdown(asio::redirect_error(use_awaitable, ec));
    socket_.shutdown(tcp::socket::shutdown_send, ec);
  }
  co_return r;
}

// Binary RETR without TLS: the rest of the file from where the reader stands (REST moved it), by
// sendfile(2), so the file's bytes never pass through this process (as vsftpd does).
awaitable<ftp_transfer_result> ftp_data_connection::send_whole_file(int fd) {
  struct stat st {};
  const off_t at = ::lseek(fd, 0, SEEK_CUR);
  if (at < 0 || ::fstat(fd, &st) != 0) co_return ftp_transfer_result{transfer_outcome::local_error, 0};
  const auto offset = static_cast<std::uint64_t>(at);
  const auto size = static_cast<std::uint64_t>(st.st_size);
  arm(options_.idle_timeout);
  const auto sent = co_await send_file_on(socket_, fd, offset, size > offset ? size - offset : 0,
                                          [this] { arm(options_.idle_timeout); });
  co_return ftp_transfer_result{sent.failed ? transfer_outcome::connection_lost : transfer_outcome::completed,
                                sent.sent};
}

// A listing, an ASCII transfer, a transfer under TLS or a file without a descriptor: read into a
// buffer, convert, write.
awaitable<ftp_transfer_result> ftp_data_connection::send_copied(const ftp::start_transfer& t,
                                                                ftp::file_reader* reader) {
  ftp_transfer_result r;
  ftp::ascii_encoder encoder;
  std::string buffer(copy_chunk, '\0');
  std::string encoded;
  std::size_t listing_pos = 0;
  while (true) {
    byte_view piece;
    if (reader) {
      const auto n = reader->read({reinterpret_cast<std::byte*>(buffer.data()), buffer.size()});
      if (n < 0) co_return ftp_transfer_result{transfer_outcome::local_error, r.bytes};
      piece = as_bytes(std::string_view(buffer).substr(0, static_cast<std::size_t>(n)));
    } else {
      piece = as_bytes(std::string_view(t.listing).substr(listing_pos, copy_chunk));
      listing_pos += piece.size();
    }
    if (piece.empty()) break;
    if (t.ascii) {
      encoded.clear();
      encoder.encode(piece, encoded);
      piece = as_bytes(encoded);
    }
    arm(options_.idle_timeout);
    boost::system::error_code ec;
    if (tls_)
      co_await asio::async_write(*tls_, asio::buffer(piece.data(), piece.size()),
                                 asio::redirect_error(use_awaitable, ec));
    else
      co_await asio::async_write(socket_, asio::buffer(piece.data(), piece.size()),
                                 asio::redirect_error(use_awaitable, ec));
    if (ec) co_return ftp_transfer_result{transfer_outcome::connection_lost, r.bytes};
    r.bytes += piece.size();
  }
  co_return r;
}

awaitable<ftp_transfer_result> ftp_data_connection::receive(const ftp::start_transfer& t, ftp::file_system& fs,
                                                            const std::function<bool()>& keep) {
  ftp_transfer_result r;
  ftp::fs_status s;
  auto writer = fs.open_write(t.path, t.append, t.offset, t.existing, s);
  if (!writer) co_return ftp_transfer_result{transfer_outcome::storage_error, 0};
  ftp::ascii_decoder decoder;
  std::string buffer(copy_chunk, '\0');
  std::string decoded;
  while (true) {
    arm(options_.idle_timeout);
    boost::system::error_code ec;
    std::size_t n = 0;
    if (tls_)
      n = co_await tls_->async_read_some(asio::buffer(buffer), asio::redirect_error(use_awaitable, ec));
    else
      n = co_await socket_.async_read_some(asio::buffer(buffer), asio::redirect_error(use_awaitable, ec));
    r.bytes += n;
    byte_view piece = as_bytes(std::string_view(buffer).substr(0, n));
    if (t.ascii) {
      decoded.clear();
      decoder.decode(piece, decoded);
      if (ec) decoder.finish(decoded);
      piece = as_bytes(decoded);
    }
    if (!piece.empty() && !writer->write(piece))
      co_return ftp_transfer_result{transfer_outcome::storage_error, r.bytes};
    const bool clean_end = ec == asio::error::eof || (tls_ && ec == ssl::error::stream_truncated);
    if (ec && !clean_end) co_return ftp_transfer_result{transfer_outcome::connection_lost, r.bytes};
    if (ec) break;
  }
  if (aborted_ || timed_out_ || (keep && !keep())) co_return ftp_transfer_result{transfer_outcome::aborted, r.bytes};
  if (!writer->commit()) co_return ftp_transfer_result{transfer_outcome::storage_error, r.bytes};
  co_return r;
}

}  // namespace netlib::io
