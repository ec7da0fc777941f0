// The recording relay. Theory of operation: tcp_server accepts the client's connection; the handler
// connects to the reference server, spawns the client->server pump and runs the server->client
// pump itself, then waits (on a timer used as a signal) until the other pump has ended, so no
// coroutine outlives the connection it reads. Each pump appends what it forwards to the
// conversation, merging consecutive bytes of one direction into one chunk. One io thread touches
// the conversations while the relay runs; the grading thread reads them after stop().
#include "wire_relay.hpp"

#include <array>
#include <chrono>
#include <condition_variable>
#include <mutex>

#include "netlib/io/tcp_server.hpp"

namespace netlab::grade {

namespace io = netlib::io;
using io::awaitable;
using io::tcp;

std::string conversation::client_bytes() const {
  std::string out;
  for (const auto& c : chunks) out += c.from_client ? c.bytes : std::string();
  return out;
}

std::string conversation::server_bytes() const {
  std::string out;
  for (const auto& c : chunks) out += c.from_client ? std::string() : c.bytes;
  return out;
}

struct wire_relay::impl {
  tcp::endpoint upstream;
  std::mutex mutex;
  std::condition_variable idle;
  std::size_t active = 0;
  std::vector<std::shared_ptr<conversation>> live;
  std::vector<conversation> done;
  std::unique_ptr<io::tcp_server> server;

  std::shared_ptr<conversation> open() {
    std::lock_guard lock(mutex);
    ++active;
    live.push_back(std::make_shared<conversation>());
    return live.back();
  }
  void close() {
    std::lock_guard lock(mutex);
    --active;
    idle.notify_all();
  }
};

namespace {

using buffer = std::array<std::byte, 16384>;

// Each conversation keeps at most this many bytes (both directions); the rest is forwarded only.
constexpr std::size_t max_recorded = 32u << 20;

void record(conversation& conv, bool from_client, const std::byte* data, std::size_t n) {
  if (conv.recorded + n > max_recorded) {
    conv.truncated = true;
    return;
  }
  conv.recorded += n;
  if (conv.chunks.empty() || conv.chunks.back().from_client != from_client) conv.chunks.push_back({from_client, {}});
  conv.chunks.back().bytes.append(reinterpret_cast<const char*>(data), n);
}

struct pump_state {
  bool client_done = false;
  io::asio::steady_timer signal;
};

awaitable<void> client_to_server(io::connection& c, tcp::socket& up, conversation& conv, pump_state& st) {
  auto buf = std::make_unique<buffer>();
  boost::system::error_code ec;
  for (;;) {
    const auto n = co_await c.read_some(*buf);
    if (n == 0) break;
    record(conv, true, buf->data(), n);
    co_await io::asio::async_write(up, io::asio::buffer(buf->data(), n),
                                   io::asio::redirect_error(io::use_awaitable, ec));
    if (ec) break;
  }
  up.shutdown(tcp::socket::shutdown_send, ec);
  st.client_done = true;
  st.signal.cancel();
}

awaitable<void> relay_one(io::connection& c, tcp::endpoint upstream, conversation& conv) {
  tcp::socket up(c.executor());
  boost::system::error_code ec;
  co_await up.async_connect(upstream, io::asio::redirect_error(io::use_awaitable, ec));
  if (ec) {
    conv.upstream_refused = true;
    co_return;
  }
  pump_state st{false, io::asio::steady_timer(c.executor(), io::asio::steady_timer::time_point::max())};
  io::asio::co_spawn(c.executor(), client_to_server(c, up, conv, st), io::asio::detached);
  auto buf = std::make_unique<buffer>();
  for (;;) {
    const auto n = co_await up.async_read_some(io::asio::buffer(*buf), io::asio::redirect_error(io::use_awaitable, ec));
    if (ec || n == 0) break;
    record(conv, false, buf->data(), n);
    if (!co_await c.write(netlib::byte_view(buf->data(), n))) break;
  }
  c.shutdown_send();
  while (!st.client_done) co_await st.signal.async_wait(io::asio::redirect_error(io::use_awaitable, ec));
  up.close(ec);
}

}  // namespace

wire_relay::wire_relay(const std::string& upstream_host, unsigned short upstream_port)
    : impl_(std::make_unique<impl>()) {
  impl_->upstream = tcp::endpoint(io::asio::ip::make_address(upstream_host), upstream_port);
  io::server_options opts;
  opts.host = "127.0.0.1";
  opts.port = 0;
  opts.max_connections = 64;
  opts.idle_timeout = std::chrono::seconds(120);
  opts.handle_signals = false;
  opts.print_listening = false;
  auto* self = impl_.get();
  impl_->server = std::make_unique<io::tcp_server>(opts, [self](io::connection& c) -> awaitable<void> {
    auto conv = self->open();
    co_await relay_one(c, self->upstream, *conv);
    self->close();
  });
  port_ = impl_->server->local_endpoint().port();
  thread_ = std::thread([self] { self->server->run(); });
}

wire_relay::~wire_relay() {
  stop();
}

void wire_relay::stop() {
  if (!thread_.joinable()) return;
  {
    // Let the relay forward what a just-exited client left in flight (bounded: 3 s).
    std::unique_lock lock(impl_->mutex);
    impl_->idle.wait_for(lock, std::chrono::seconds(3), [this] { return impl_->active == 0; });
  }
  impl_->server->stop();
  thread_.join();
  for (const auto& c : impl_->live) impl_->done.push_back(*c);
}

const std::vector<conversation>& wire_relay::conversations() const {
  return impl_->done;
}

}  // namespace netlab::grade
