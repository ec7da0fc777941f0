// Theory of operation: one io_context per thread (threads >= 1), each kept alive by a work guard
// until stop(). The acceptor lives on the first context; each accepted socket is created on the
// next context round-robin and its session coroutine runs there, so a connection's handler, reads,
// writes and watchdog all run on one thread. In the shared_pool model there is one context run by
// every thread and each socket is created on its own strand, which gives the same guarantee. Live sessions are
// registered (id -> executor + weak state) so stop() can close each on its own executor. Over max_connections, a
// connection gets busy_reply and is closed; over max_per_address for its address (counted in a map under the mutex,
// keyed by the 16 bytes of the IPv6 form, an IPv6 address cut to its /64), per_address_reply. Each connection gets the
// handshake timeout. A connection gives back its places (in the cap and its address's count) the moment its socket
// closes, before the close reaches the peer (connection's close hook), whoever closes it: a client that saw its
// connection end and connects again is never refused for the slot it held. TCP_NODELAY is set once on the listener
// (accepted sockets inherit it on Linux), TCP_DEFER_ACCEPT too when asked (defer_accept). stop() closes the listener
// and every connection and releases the work guards; run() returns when every context has run out of work.
#include "netlib/io/tcp_server.hpp"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/resource.h>
#include <sys/socket.h>

#include <algorithm>
#include <iostream>
#include <map>
#include <mutex>
#include <thread>
#include <unordered_map>

namespace netlib::io {

std::size_t raise_fd_limit() {
  rlimit lim{};
  if (getrlimit(RLIMIT_NOFILE, &lim) != 0) return 0;
  if (lim.rlim_cur < lim.rlim_max) {
    lim.rlim_cur = lim.rlim_max;
    setrlimit(RLIMIT_NOFILE, &lim);
    getrlimit(RLIMIT_NOFILE, &lim);
  }
  return static_cast<std::size_t>(lim.rlim_cur);
}

struct tcp_server::impl {
  using guard = asio::executor_work_guard<asio::io_context::executor_type>;
  struct live {
    asio::any_io_executor executor;
    std::function<void()> close;
  };

  server_options options;
  connection_handler handler;
  std::vector<std::unique_ptr<asio::io_context>> contexts;
  std::vector<guard> guards;
  tcp::acceptor acceptor;
  asio::signal_set signals;
  // The places connections hold, shared with each connection's close hook (which may run while the
  // server is torn down, when a context destroys a pending session).
  struct places {
    std::atomic<std::size_t> active{0};
    std::size_t max_per_address = 0;
    std::mutex mutex;
    std::unordered_map<std::string, std::size_t> per_address;  // under `mutex`

    // Counts a connection from `key`; false when the address has max_per_address already.
    bool admit_address(const std::string& key) {
      if (max_per_address == 0 || key.empty()) return true;
      std::lock_guard lock(mutex);
      auto& n = per_address[key];
      if (n >= max_per_address) return false;
      ++n;
      return true;
    }
    void give_back(const std::string& key) {
      if (max_per_address != 0 && !key.empty()) {
        std::lock_guard lock(mutex);
        const auto it = per_address.find(key);
        if (it != per_address.end() && --it->second == 0) per_address.erase(it);
      }
      --active;
    }
  };
  std::shared_ptr<places> held = std::make_shared<places>();
  std::atomic<std::size_t> accepted{0};
  std::atomic<std::size_t> refused_address{0};
  std::atomic<bool> stopping{false};
  std::mutex mutex;
  std::map<std::uint64_t, live> sessions;
  std::uint64_t next_id = 0;

  impl(server_options o, connection_handler h)
      : options(std::move(o)),
        handler(std::move(h)),
        contexts(make_contexts(options.model == thread_model::shared_pool ? 1u : options.threads)),
        acceptor(*contexts.front()),
        signals(*contexts.front()) {
    held->max_per_address = options.max_per_address;
    for (auto& ctx : contexts) guards.emplace_back(ctx->get_executor());
  }

  static std::vector<std::unique_ptr<asio::io_context>> make_contexts(unsigned threads) {
    std::vector<std::unique_ptr<asio::io_context>> v;
    for (unsigned i = 0; i < std::max(1u, threads); ++i) v.push_back(std::make_unique<asio::io_context>(1));
    return v;
  }

  void bind() {
    boost::system::error_code ec;
    const auto addr = asio::ip::make_address(options.host, ec);
    if (ec) throw io_error("cannot listen on '" + options.host + "': not an IP address (use e.g. 127.0.0.1 or ::1)");
    const tcp::endpoint ep(addr, options.port);
    acceptor.open(ep.protocol(), ec);
    if (!ec) acceptor.set_option(tcp::acceptor::reuse_address(true), ec);
    if (!ec) acceptor.set_option(tcp::no_delay(true), ec);  // inherited by accepted sockets (Linux)
#ifdef TCP_DEFER_ACCEPT
    if (!ec && options.defer_accept) {  // an optimisation only: ignored where refused
      // 1 s: a client that connects and stays silent is accepted after about that long (one
      // SYN-ACK retransmission), so a protocol's first deadline (HTTP's head timeout) is late
      // by at most that much.
      const int seconds = 1;
      ::setsockopt(acceptor.native_handle(), IPPROTO_TCP, TCP_DEFER_ACCEPT, &seconds, sizeof seconds);
    }
#endif
    if (!ec) acceptor.bind(ep, ec);
    if (!ec) acceptor.listen(asio::socket_base::max_listen_connections, ec);
    if (ec) {
      std::string hint;
      if (ec == asio::error::address_in_use) hint = " (another program uses this port; pick another or use port 0)";
      if (ec == asio::error::access_denied) hint = " (ports below 1024 need root; use a port above 1024 or 0)";
      throw io_error("cannot listen on " + to_string(ep) + ": " + ec.message() + hint);
    }
  }

  std::uint64_t enroll(connection& c) {
    std::lock_guard lock(mutex);
    const auto id = next_id++;
    sessions[id] = live{c.executor(), c.make_closer()};
    return id;
  }
  void leave(std::uint64_t id) {
    std::lock_guard lock(mutex);
    sessions.erase(id);
  }

  // The key an address is counted under: its 16 bytes as IPv6 (IPv4 mapped), an IPv6 one cut to its
  // /64 (what one host or site gets; its last 64 bits are the client's to pick).
  static std::string address_key(const tcp::socket& socket) {
    boost::system::error_code ec;
    const auto a = socket.remote_endpoint(ec).address();
    if (ec) return {};
    auto bytes =
        a.is_v4() ? asio::ip::make_address_v6(asio::ip::v4_mapped, a.to_v4()).to_bytes() : a.to_v6().to_bytes();
    if (a.is_v6() && !a.to_v6().is_v4_mapped()) std::fill(bytes.begin() + 8, bytes.end(), 0);
    return std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  }

  awaitable<void> session(tcp::socket socket, std::string address) {
    connection c(std::move(socket), options.tls, options.idle_timeout, options.initial_deadline);
    c.set_handshake_timeout(options.handshake_timeout);
    c.on_close([held = held, address = std::move(address)] { held->give_back(address); });
    const auto id = enroll(c);
    if (stopping) c.close();
    try {
      if (!options.implicit_tls || co_await c.start_tls()) co_await handler(c);
    } catch (const std::exception& e) {
      std::cerr << "connection from " << to_string(c.remote_endpoint()) << " ended by an error: " << e.what() << '\n';
    }
    c.close();
    leave(id);
  }

  awaitable<void> refuse(tcp::socket socket, const std::string& reply) {
    if (!reply.empty()) {
      boost::system::error_code ec;
      co_await asio::async_write(socket, asio::buffer(reply), asio::redirect_error(use_awaitable, ec));
    }
    boost::system::error_code ec;
    socket.shutdown(tcp::socket::shutdown_both, ec);
    socket.close(ec);
  }

  awaitable<void> accept_loop() {
    std::size_t next = 0;
    asio::steady_timer backoff(*contexts.front());
    while (acceptor.is_open()) {
      auto& ctx = *contexts[next++ % contexts.size()];
      // In a shared pool of several threads every connection gets a strand, so its operations never
      // run in parallel; one thread needs none.
      const asio::any_io_executor where = options.model == thread_model::shared_pool && options.threads > 1
                                              ? asio::any_io_executor(asio::make_strand(ctx))
                                              : asio::any_io_executor(ctx.get_executor());
      boost::system::error_code ec;
      tcp::socket socket = co_await acceptor.async_accept(where, asio::redirect_error(use_awaitable, ec));
      if (ec) {
        if (ec == asio::error::operation_aborted || !acceptor.is_open()) co_return;
        // Out of descriptors or memory: wait a little for connections to finish, then go on.
        backoff.expires_after(std::chrono::milliseconds(20));
        co_await backoff.async_wait(asio::redirect_error(use_awaitable, ec));
        continue;
      }
      ++accepted;
      if (held->active.load() >= options.max_connections) {
        asio::co_spawn(where, refuse(std::move(socket), options.busy_reply), asio::detached);
        continue;
      }
      std::string address = address_key(socket);
      if (!held->admit_address(address)) {
        ++refused_address;
        const std::string& reply = options.per_address_reply.empty() ? options.busy_reply : options.per_address_reply;
        asio::co_spawn(where, refuse(std::move(socket), reply), asio::detached);
        continue;
      }
      ++held->active;
      asio::co_spawn(where, session(std::move(socket), std::move(address)), asio::detached);
    }
  }

  void stop() {
    if (stopping.exchange(true)) return;
    asio::post(*contexts.front(), [this] {
      boost::system::error_code ec;
      acceptor.close(ec);
      signals.cancel(ec);
      std::lock_guard lock(mutex);
      for (auto& [id, s] : sessions) {
        asio::post(s.executor, s.close);
      }
      for (auto& g : guards) g.reset();
    });
  }
};

tcp_server::tcp_server(server_options options, connection_handler handler)
    : impl_(std::make_unique<impl>(std::move(options), std::move(handler))) {
  impl_->bind();
}

tcp_server::~tcp_server() = default;

tcp::endpoint tcp_server::local_endpoint() const {
  boost::system::error_code ec;
  return impl_->acceptor.local_endpoint(ec);
}

void tcp_server::run() {
  raise_fd_limit();
  if (impl_->options.handle_signals) {
    impl_->signals.add(SIGINT);
    impl_->signals.add(SIGTERM);
    impl_->signals.async_wait([this](const boost::system::error_code& ec, int) {
      if (!ec) stop();
    });
  }
  asio::co_spawn(*impl_->contexts.front(), impl_->accept_loop(), asio::detached);
  if (impl_->options.print_listening)
    (impl_->options.listening_on_stderr ? std::cerr : std::cout)
        << "listening on " << to_string(local_endpoint()) << std::endl;
  std::vector<std::thread> threads;
  for (std::size_t i = 1; i < impl_->contexts.size(); ++i)
    threads.emplace_back([ctx = impl_->contexts[i].get()] { ctx->run(); });
  if (impl_->options.model == thread_model::shared_pool)
    for (unsigned i = 1; i < impl_->options.threads; ++i)
      threads.emplace_back([ctx = impl_->contexts.front().get()] { ctx->run(); });
  impl_->contexts.front()->run();
  for (auto& t : threads) t.join();
}

void tcp_server::stop() {
  impl_->stop();
}
std::size_t tcp_server::active_connections() const noexcept {
  return impl_->held->active.load();
}
std::size_t tcp_server::total_accepted() const noexcept {
  return impl_->accepted.load();
}
std::size_t tcp_server::refused_per_address() const noexcept {
  return impl_->refused_address.load();
}
asio::any_io_executor tcp_server::executor() {
  return impl_->contexts.front()->get_executor();
}

}  // namespace netlib::io
