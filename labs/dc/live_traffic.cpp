// Theory of operation: sockets are opened inside the namespaces (netns_scope switches this
// thread in and back), then one thread drives them all with poll(2): UDP in rounds of one
// datagram per unfinished flow, the receivers drained after each round, and no new round while
// more than max_in_flight datagrams are sent but not yet received (so neither a receive buffer
// nor the kernel's per-CPU backlog of 1000 packets can overflow when the machine is busy); TCP
// with non-blocking connects, writes and reads until every connection has seen its end of stream.
#include "live_traffic.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>

#include "netlib/app/netns.hpp"
#include "netlib/app/program.hpp"
#include "netlib/core/stop_signals.hpp"

namespace netlab::lab_dc {
namespace {

namespace dc = netlib::dc;
using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point t0) {
  return std::chrono::duration<double>(clock_type::now() - t0).count();
}

}  // namespace

void fail(const std::string& what) {
  throw netlib::app::failure(fmt::format("{}: {}", what, std::strerror(errno)));
}

sockaddr_in address_of(const netlib::packet::ip_address& a, std::uint16_t port) {
  sockaddr_in s{};
  s.sin_family = AF_INET;
  s.sin_port = htons(port);
  std::memcpy(&s.sin_addr, a.octets.data(), 4);
  return s;
}

fd_guard open_socket(const std::string& ns, int type, const netlib::packet::ip_address& a, std::uint16_t port) {
  netlib::app::netns_scope in(ns);
  fd_guard fd(::socket(AF_INET, type | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
  if (fd.get() < 0) fail("socket");
  const int one = 1;
  ::setsockopt(fd.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  const auto sa = address_of(a, port);
  if (::bind(fd.get(), reinterpret_cast<const sockaddr*>(&sa), sizeof sa) != 0) {
    fail(fmt::format("bind {}:{} in {}", a.to_string(), port, ns));
  }
  return fd;
}

void raise_file_limit(std::size_t needed) {
  rlimit r{};
  if (::getrlimit(RLIMIT_NOFILE, &r) != 0) return;
  if (r.rlim_cur < needed + 64) {
    r.rlim_cur = std::min<rlim_t>(r.rlim_max, needed + 64);
    ::setrlimit(RLIMIT_NOFILE, &r);
  }
}

traffic_result send_udp(const netns_fabric& fabric, std::span<const dc::flow> flows, std::size_t payload,
                        double deadline_s, const midway_event* event) {
  constexpr double frame_overhead = 14 + 20 + 8;  // Ethernet, IPv4, UDP headers
  raise_file_limit(2 * flows.size());
  traffic_result out;
  const std::size_t n = flows.size();
  out.wire_bytes.assign(n, 0);
  out.payload_sent.assign(n, 0);
  out.payload_received.assign(n, 0);
  std::vector<fd_guard> senders, receivers;
  std::vector<std::uint64_t> datagrams(n), received_datagrams(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const auto& f = flows[i];
    receivers.push_back(open_socket(fabric.ns(f.dst), SOCK_DGRAM, f.key.dst, f.key.dst_port));
    const int buf = 4 << 20;
    ::setsockopt(receivers.back().get(), SOL_SOCKET, SO_RCVBUFFORCE, &buf, sizeof buf);
    senders.push_back(open_socket(fabric.ns(f.src), SOCK_DGRAM, f.key.src, f.key.src_port));
    datagrams[i] = static_cast<std::uint64_t>(std::ceil(f.bytes / static_cast<double>(payload)));
  }
  std::vector<char> data(payload, 'd'), sink(65536);
  std::vector<std::uint64_t> sent(n, 0);
  const auto t0 = clock_type::now();
  const auto drain = [&] {
    for (std::size_t i = 0; i < n; ++i) {
      for (;;) {
        sockaddr_in from{};
        socklen_t len = sizeof from;
        const auto got =
            ::recvfrom(receivers[i].get(), sink.data(), sink.size(), 0, reinterpret_cast<sockaddr*>(&from), &len);
        if (got < 0) {
          if (errno == EAGAIN || errno == EWOULDBLOCK) break;
          if (errno == EINTR) continue;
          fail("recvfrom");
        }
        ++received_datagrams[i];
        ++out.datagrams_received;
        out.payload_received[i] += static_cast<std::uint64_t>(got);
      }
    }
  };
  std::vector<pollfd> fds(n);
  for (std::size_t i = 0; i < n; ++i) fds[i] = {receivers[i].get(), POLLIN, 0};
  constexpr std::uint64_t max_in_flight = 256;
  // The midway event: after it, what was in flight either arrives within moments or was lost
  // with the link; once nothing has come for 100 ms the rest is written off, so that it neither
  // holds the in-flight limit nor the wait at the end.
  std::uint64_t total_datagrams = 0, written_off = 0;
  for (auto d : datagrams) total_datagrams += d;
  const auto threshold =
      event ? static_cast<std::uint64_t>(std::ceil(event->fraction * static_cast<double>(total_datagrams))) : 0;
  const auto outstanding = [&] {
    return out.datagrams_sent - std::min(out.datagrams_sent, out.datagrams_received + written_off);
  };
  const auto fire = [&] {
    out.event_ran = true;
    out.event_at_s = seconds_since(t0);
    out.wire_bytes_before = out.wire_bytes;
    event->action();
    auto quiet_since = clock_type::now();
    auto seen = out.datagrams_received;
    while (out.datagrams_received < out.datagrams_sent && !netlib::stop_requested() && seconds_since(t0) < deadline_s &&
           seconds_since(quiet_since) < 0.1) {
      if (::poll(fds.data(), fds.size(), 10) < 0 && errno != EINTR) fail("poll");
      drain();
      if (out.datagrams_received != seen) {
        seen = out.datagrams_received;
        quiet_since = clock_type::now();
      }
    }
    written_off = out.datagrams_sent - std::min(out.datagrams_sent, out.datagrams_received);
  };
  bool left = true;
  while (left && !netlib::stop_requested()) {
    while (outstanding() > max_in_flight && !netlib::stop_requested() && seconds_since(t0) < deadline_s) {
      if (::poll(fds.data(), fds.size(), 20) < 0 && errno != EINTR) fail("poll");
      drain();
    }
    left = false;
    for (std::size_t i = 0; i < n; ++i) {
      if (sent[i] >= datagrams[i]) continue;
      if (event && !out.event_ran && out.datagrams_sent >= threshold) fire();
      const auto& f = flows[i];
      const std::size_t size =
          std::min<std::size_t>(payload, static_cast<std::size_t>(f.bytes - static_cast<double>(sent[i] * payload)));
      const auto to = address_of(f.key.dst, f.key.dst_port);
      const auto rc =
          ::sendto(senders[i].get(), data.data(), size, 0, reinterpret_cast<const sockaddr*>(&to), sizeof to);
      if (rc < 0) {
        if (errno == EAGAIN || errno == ENOBUFS || errno == EINTR) {
          left = true;  // try again next round
          continue;
        }
        fail(fmt::format("sendto {}:{}", f.key.dst.to_string(), f.key.dst_port));
      }
      ++sent[i];
      ++out.datagrams_sent;
      out.payload_sent[i] += size;
      out.wire_bytes[i] += static_cast<double>(size) + frame_overhead;
      if (sent[i] < datagrams[i]) left = true;
    }
    drain();
    if (event && event->tick) event->tick();
    if (seconds_since(t0) > deadline_s) break;
  }
  if (event && !out.event_ran && !netlib::stop_requested() && seconds_since(t0) <= deadline_s) fire();
  // Wait (poll, bounded) for what is still in flight.
  while (!netlib::stop_requested() && outstanding() > 0 && seconds_since(t0) < deadline_s) {
    const int rc = ::poll(fds.data(), fds.size(), 50);
    if (rc < 0 && errno != EINTR) fail("poll");
    drain();
  }
  out.duration_s = seconds_since(t0);
  out.datagrams_lost = out.datagrams_sent - std::min(out.datagrams_sent, out.datagrams_received);
  out.complete = !netlib::stop_requested() && out.datagrams_received == out.datagrams_sent;
  for (std::size_t i = 0; i < n; ++i) out.complete = out.complete && sent[i] == datagrams[i];
  return out;
}

traffic_result send_tcp(const netns_fabric& fabric, std::span<const dc::flow> flows, double deadline_s,
                        const midway_event* event) {
  constexpr double mss = 1448, overhead = 66;  // payload per segment with timestamps; Ethernet + IPv4 + TCP headers
  raise_file_limit(3 * flows.size());
  traffic_result out;
  const std::size_t n = flows.size();
  out.wire_bytes.assign(n, 0);
  out.payload_sent.assign(n, 0);
  out.payload_received.assign(n, 0);
  out.finish_s.assign(n, std::numeric_limits<double>::quiet_NaN());
  std::vector<fd_guard> listeners, clients, accepted(n);
  std::vector<std::uint64_t> total(n);
  std::vector<char> connected(n, 0), shut(n, 0), done(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const auto& f = flows[i];
    total[i] = static_cast<std::uint64_t>(f.bytes);
    out.wire_bytes[i] = f.bytes + overhead * std::ceil(f.bytes / mss);
    listeners.push_back(open_socket(fabric.ns(f.dst), SOCK_STREAM, f.key.dst, f.key.dst_port));
    if (::listen(listeners.back().get(), 1) != 0) fail("listen");
  }
  for (std::size_t i = 0; i < n; ++i) {
    const auto& f = flows[i];
    clients.push_back(open_socket(fabric.ns(f.src), SOCK_STREAM, f.key.src, f.key.src_port));
    const auto to = address_of(f.key.dst, f.key.dst_port);
    if (::connect(clients.back().get(), reinterpret_cast<const sockaddr*>(&to), sizeof to) != 0 &&
        errno != EINPROGRESS) {
      fail(fmt::format("connect {}:{}", f.key.dst.to_string(), f.key.dst_port));
    }
  }
  std::vector<char> data(65536, 't'), sink(65536);
  const auto t0 = clock_type::now();
  std::size_t finished = 0;
  // The midway event, once `fraction` of all the payload has been written.
  std::uint64_t all_payload = 0, written = 0;
  for (auto v : total) all_payload += v;
  const auto threshold =
      event ? static_cast<std::uint64_t>(std::ceil(event->fraction * static_cast<double>(all_payload))) : 0;
  const auto fire = [&] {
    out.event_ran = true;
    out.event_at_s = seconds_since(t0);
    out.wire_bytes_before.assign(n, 0);
    for (std::size_t i = 0; i < n; ++i) {
      const auto p = static_cast<double>(out.payload_sent[i]);
      out.wire_bytes_before[i] = p + overhead * std::ceil(p / mss);
    }
    event->action();
  };
  while (finished < n && !netlib::stop_requested() && seconds_since(t0) < deadline_s) {
    if (event && !out.event_ran && written >= threshold) fire();
    if (event && event->tick) event->tick();
    std::vector<pollfd> fds;
    std::vector<std::pair<int, std::size_t>> what;  // (0 listener, 1 client, 2 accepted), flow
    for (std::size_t i = 0; i < n; ++i) {
      if (accepted[i].get() < 0 && listeners[i].get() >= 0 && !done[i]) {
        fds.push_back({listeners[i].get(), POLLIN, 0});
        what.emplace_back(0, i);
      }
      if (!shut[i]) {
        fds.push_back({clients[i].get(), POLLOUT, 0});
        what.emplace_back(1, i);
      }
      if (accepted[i].get() >= 0) {
        fds.push_back({accepted[i].get(), POLLIN, 0});
        what.emplace_back(2, i);
      }
    }
    const int rc = ::poll(fds.data(), fds.size(), 50);
    if (rc < 0) {
      if (errno == EINTR) continue;
      fail("poll");
    }
    for (std::size_t k = 0; k < fds.size(); ++k) {
      if (!fds[k].revents) continue;
      const auto [kind, i] = what[k];
      if (kind == 0) {
        const int c = ::accept4(listeners[i].get(), nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (c >= 0) {
          accepted[i] = fd_guard(c);
          listeners[i].reset();
        }
      } else if (kind == 1) {
        if (!connected[i]) {
          int err = 0;
          socklen_t len = sizeof err;
          ::getsockopt(clients[i].get(), SOL_SOCKET, SO_ERROR, &err, &len);
          if (err != 0) {
            errno = err;
            fail(fmt::format("connect {}:{}", flows[i].key.dst.to_string(), flows[i].key.dst_port));
          }
          connected[i] = 1;
        }
        while (out.payload_sent[i] < total[i]) {
          const auto chunk = std::min<std::uint64_t>(data.size(), total[i] - out.payload_sent[i]);
          const auto w = ::send(clients[i].get(), data.data(), chunk, MSG_NOSIGNAL);
          if (w < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) break;
            fail("send");
          }
          out.payload_sent[i] += static_cast<std::uint64_t>(w);
          written += static_cast<std::uint64_t>(w);
          if (event && !out.event_ran && written >= threshold) break;  // the event runs first
        }
        if (out.payload_sent[i] >= total[i]) {
          ::shutdown(clients[i].get(), SHUT_WR);
          shut[i] = 1;
        }
      } else {
        for (;;) {
          const auto r = ::recv(accepted[i].get(), sink.data(), sink.size(), 0);
          if (r > 0) {
            out.payload_received[i] += static_cast<std::uint64_t>(r);
            continue;
          }
          if (r == 0) {
            accepted[i].reset();
            done[i] = 1;
            out.finish_s[i] = seconds_since(t0);
            ++finished;
          } else if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
            fail("recv");
          }
          break;
        }
      }
    }
  }
  if (event && !out.event_ran && !netlib::stop_requested() && seconds_since(t0) < deadline_s) fire();
  out.duration_s = seconds_since(t0);
  out.complete = finished == n;
  for (std::size_t i = 0; i < n; ++i) out.complete = out.complete && out.payload_received[i] == total[i];
  return out;
}

}  // namespace netlab::lab_dc
