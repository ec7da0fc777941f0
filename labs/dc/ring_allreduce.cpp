// Theory of operation: every channel of every ring edge is one TCP connection, and each carries
// the same sequence of pieces in both of its ends' bookkeeping: global step g (iteration g / S,
// step g % S of S = 2(N-1)) is the sender's part `channel` of chunk ring_send_chunk(rank, g % S)
// and the receiver's part of ring_receive_chunk (the same chunk). The sender may write piece g
// once its iteration's gate time has come and, within an iteration, once its own receive of piece
// g - 1 is complete (that is the data it forwards); the receiver reads piece g into a scratch
// buffer and adds it (reduce-scatter) or straight into its buffer (all-gather). Step g ends when
// all N·K receives of it are complete. When a job's last step of an iteration ends, every rank's
// buffer is compared with the sum, the buffers start again from their first values, and the next
// iteration's gate is set compute_s later.
//
// Values are small integers (at most 1020), so every partial sum of at most 4096 of them is exact
// in float32 whatever the order of the additions, and the comparison with the sum is exact.
#include "ring_allreduce.hpp"

#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>

#include "live_traffic.hpp"
#include "netlib/app/program.hpp"
#include "netlib/core/stop_signals.hpp"

namespace netlab::lab_dc {
namespace {

namespace dc = netlib::dc;
using steady = std::chrono::steady_clock;

float start_value(std::size_t rank, std::size_t i) {
  return static_cast<float>((rank * 37 + i * 11) % 1021);
}

struct channel_state {
  fd_guard out;                             // to the successor
  fd_guard in;                              // from the predecessor (accepted)
  std::size_t send_step = 0, sent = 0;      // piece being written, bytes of it written
  std::size_t recv_step = 0, received = 0;  // piece being read, bytes of it read
  std::vector<char> scratch;                // reduce-scatter pieces land here first
  bool connected = false;
};

struct rank_state {
  std::vector<float> buf;
  std::vector<channel_state> ch;
};

struct job_state {
  std::size_t n = 0, k = 0, elements = 0, steps = 0, total_steps = 0;
  std::vector<rank_state> ranks;
  std::vector<float> sum;
  std::vector<double> gate;       // per iteration, once known (NaN until then)
  std::vector<std::size_t> done;  // per global step: receives complete
  std::size_t steps_ended = 0;
  bool finished = false;
};

// The elements [begin, end) of the part of chunk `chunk` that channel `c` carries.
std::pair<std::size_t, std::size_t> piece(const job_state& j, std::size_t chunk, std::size_t c) {
  const auto [c0, c1] = dc::split_range(j.elements, chunk, j.n);
  const auto [p0, p1] = dc::split_range(c1 - c0, c, j.k);
  return {c0 + p0, c0 + p1};
}

}  // namespace

live_allreduce run_ring_allreduce(const netns_fabric& fabric, const dc::collective_setup& s, std::size_t warmups,
                                  double deadline_s) {
  live_allreduce out;
  const auto t_begin = steady::now();
  const auto since = [](steady::time_point t) { return std::chrono::duration<double>(steady::now() - t).count(); };
  std::size_t sockets = 0;
  for (const auto& j : s.jobs) sockets += j.hosts.size() * (2 * j.spec.channels + 1);
  raise_file_limit(sockets);
  std::vector<job_state> jobs(s.jobs.size());
  std::vector<std::vector<fd_guard>> listeners(s.jobs.size());
  for (std::size_t ji = 0; ji < s.jobs.size(); ++ji) {
    const auto& spec = s.jobs[ji];
    auto& j = jobs[ji];
    j.n = spec.hosts.size();
    j.k = spec.spec.channels;
    j.elements = static_cast<std::size_t>(spec.spec.buffer_bytes / 4);
    j.steps = spec.steps();
    j.total_steps = j.steps * spec.spec.iterations;
    j.done.assign(j.total_steps, 0);
    j.gate.assign(spec.spec.iterations, std::numeric_limits<double>::quiet_NaN());
    j.sum.assign(j.elements, 0.0f);
    j.ranks.resize(j.n);
    for (std::size_t r = 0; r < j.n; ++r) {
      auto& rk = j.ranks[r];
      rk.buf.resize(j.elements);
      for (std::size_t i = 0; i < j.elements; ++i) {
        rk.buf[i] = start_value(r, i);
        j.sum[i] += rk.buf[i];
      }
      rk.ch.resize(j.k);
      const dc::node_id h = spec.hosts[r];
      // Rank r's own address: the source of its outgoing ring edge.
      listeners[ji].push_back(
          open_socket(fabric.ns(h), SOCK_STREAM, s.flows[spec.flows[r * j.k]].f.key.src, spec.listen_port[r]));
      if (::listen(listeners[ji].back().get(), static_cast<int>(j.k) + 4) != 0) fail("listen");
    }
    out.elements.push_back(j.elements);
  }
  out.payload_sent.assign(s.flows.size(), 0);
  // Connect every channel; the listener tells channels apart by their source ports.
  std::map<std::pair<std::size_t, std::uint16_t>, std::pair<std::size_t, std::size_t>>
      by_port;  // (job, port) -> (rank, channel)
  for (std::size_t fi = 0; fi < s.flows.size(); ++fi) {
    const auto& rf = s.flows[fi];
    auto& j = jobs[rf.job];
    auto& ch = j.ranks[rf.edge].ch[rf.channel];
    ch.out = open_socket(fabric.ns(rf.f.src), SOCK_STREAM, rf.f.key.src, rf.f.key.src_port);
    const auto to = address_of(rf.f.key.dst, rf.f.key.dst_port);
    if (::connect(ch.out.get(), reinterpret_cast<const sockaddr*>(&to), sizeof to) != 0 && errno != EINPROGRESS) {
      fail(fmt::format("connect {}:{}", rf.f.key.dst.to_string(), rf.f.key.dst_port));
    }
    by_port[{rf.job, rf.f.key.src_port}] = {(rf.edge + 1) % j.n, rf.channel};
  }
  std::size_t accepted = 0, connected = 0;
  while ((accepted < s.flows.size() || connected < s.flows.size()) && since(t_begin) < deadline_s &&
         !netlib::stop_requested()) {
    std::vector<pollfd> fds;
    std::vector<std::pair<std::size_t, std::size_t>>
        what;  // (job, rank) of a listener, or (job + jobs, flow) of a client
    for (std::size_t ji = 0; ji < jobs.size(); ++ji) {
      for (std::size_t r = 0; r < listeners[ji].size(); ++r) {
        fds.push_back({listeners[ji][r].get(), POLLIN, 0});
        what.emplace_back(ji, r);
      }
    }
    for (std::size_t fi = 0; fi < s.flows.size(); ++fi) {
      const auto& rf = s.flows[fi];
      auto& ch = jobs[rf.job].ranks[rf.edge].ch[rf.channel];
      if (ch.connected) continue;
      fds.push_back({ch.out.get(), POLLOUT, 0});
      what.emplace_back(jobs.size() + rf.job, fi);
    }
    if (::poll(fds.data(), fds.size(), 50) < 0 && errno != EINTR) fail("poll");
    for (std::size_t i = 0; i < fds.size(); ++i) {
      if (!fds[i].revents) continue;
      if (what[i].first < jobs.size()) {
        const std::size_t ji = what[i].first;
        for (;;) {
          sockaddr_in from{};
          socklen_t len = sizeof from;
          const int c = ::accept4(fds[i].fd, reinterpret_cast<sockaddr*>(&from), &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
          if (c < 0) break;
          fd_guard g(c);
          const auto it = by_port.find({ji, ntohs(from.sin_port)});
          if (it == by_port.end()) continue;  // not one of ours: closed
          auto& ch = jobs[ji].ranks[it->second.first].ch[it->second.second];
          if (ch.in.get() < 0) {
            ch.in = std::move(g);
            ++accepted;
          }
        }
      } else {
        const auto& rf = s.flows[what[i].second];
        auto& ch = jobs[rf.job].ranks[rf.edge].ch[rf.channel];
        int err = 0;
        socklen_t len = sizeof err;
        ::getsockopt(ch.out.get(), SOL_SOCKET, SO_ERROR, &err, &len);
        if (err != 0) {
          errno = err;
          fail(fmt::format("connect {}:{}", rf.f.key.dst.to_string(), rf.f.key.dst_port));
        }
        ch.connected = true;
        ++connected;
      }
    }
  }
  listeners.clear();
  out.connect_s = since(t_begin);
  if (accepted < s.flows.size() || connected < s.flows.size()) {
    out.step_end_s.assign(jobs.size(), {});
    out.allreduce_s.assign(jobs.size(), {});
    out.finish_s.assign(jobs.size(), std::numeric_limits<double>::quiet_NaN());
    out.checked.assign(jobs.size(), 0);
    out.wrong.assign(jobs.size(), 0);
    return out;
  }
  auto t0 = steady::now();
  out.step_end_s.assign(jobs.size(), {});
  out.allreduce_s.assign(jobs.size(), {});
  out.finish_s.assign(jobs.size(), std::numeric_limits<double>::quiet_NaN());
  out.checked.assign(jobs.size(), 0);
  out.wrong.assign(jobs.size(), 0);
  bool warm = warmups > 0;
  // Every channel at the start of a schedule: the warm-up's (one all-reduce per job, all at
  // once, untimed) or the jobs' own.
  const auto reset = [&] {
    for (std::size_t ji = 0; ji < jobs.size(); ++ji) {
      auto& j = jobs[ji];
      const auto& spec = s.jobs[ji].spec;
      const std::size_t iterations = warm ? warmups : spec.iterations;
      j.total_steps = j.steps * iterations;
      j.done.assign(j.total_steps, 0);
      j.gate.assign(iterations, std::numeric_limits<double>::quiet_NaN());
      j.gate[0] = warm ? 0 : spec.start_s + spec.compute_s;
      j.steps_ended = 0;
      j.finished = false;
      for (auto& rk : j.ranks) {
        for (auto& ch : rk.ch) ch.send_step = ch.recv_step = 0;
      }
    }
  };
  reset();
  std::map<std::tuple<std::size_t, std::size_t, std::size_t>, std::size_t> flow_index;
  for (std::size_t fi = 0; fi < s.flows.size(); ++fi)
    flow_index[{s.flows[fi].job, s.flows[fi].edge, s.flows[fi].channel}] = fi;

  // A step's receive is complete: count it; the job's step ends when all N·K are.
  const auto received_piece = [&](std::size_t ji, std::size_t g, double now) {
    auto& j = jobs[ji];
    if (++j.done[g] < j.n * j.k) return;
    if (!warm) out.step_end_s[ji].push_back(now);
    ++j.steps_ended;
    if ((g + 1) % j.steps != 0) return;
    const std::size_t it = g / j.steps;
    if (!warm) out.allreduce_s[ji].push_back(now - j.gate[it]);
    for (std::size_t r = 0; r < j.n; ++r) {
      auto& buf = j.ranks[r].buf;
      for (std::size_t i = 0; i < j.elements; ++i) {
        out.wrong[ji] += buf[i] != j.sum[i];
        buf[i] = start_value(r, i);
      }
      out.checked[ji] += j.elements;
    }
    if (it + 1 < j.gate.size()) {
      j.gate[it + 1] = now + (warm ? 0 : s.jobs[ji].spec.compute_s);
    } else {
      j.finished = true;
      if (!warm) out.finish_s[ji] = now;
    }
  };

  const auto drive = [&] {
    std::size_t finished = 0;
    while (finished < jobs.size() && !netlib::stop_requested() && since(t_begin) < deadline_s) {
      double now = since(t0);
      // Zero-length pieces (a buffer of fewer floats than pieces) complete without any I/O.
      std::vector<pollfd> fds;
      std::vector<std::tuple<std::size_t, std::size_t, std::size_t, bool>> what;  // job, rank, channel, sending
      double next_gate = std::numeric_limits<double>::infinity();
      for (std::size_t ji = 0; ji < jobs.size(); ++ji) {
        auto& j = jobs[ji];
        if (j.finished) continue;
        for (std::size_t r = 0; r < j.n; ++r) {
          for (std::size_t c = 0; c < j.k; ++c) {
            auto& ch = j.ranks[r].ch[c];
            // Receiving: empty pieces at once.
            while (ch.recv_step < j.total_steps) {
              const auto [b, e] = piece(j, dc::ring_receive_chunk(r, ch.recv_step % j.steps, j.n), c);
              if (b != e) break;
              received_piece(ji, ch.recv_step++, now);
            }
            if (ch.recv_step < j.total_steps) {
              fds.push_back({ch.in.get(), POLLIN, 0});
              what.emplace_back(ji, r, c, false);
            }
            // Sending: when the gate has come and the forwarded data is in.
            while (ch.send_step < j.total_steps) {
              const std::size_t it = ch.send_step / j.steps, step = ch.send_step % j.steps;
              if (std::isnan(j.gate[it])) break;
              if (now < j.gate[it]) {
                next_gate = std::min(next_gate, j.gate[it]);
                break;
              }
              if (step > 0 && ch.recv_step < ch.send_step) break;
              const auto [b, e] = piece(j, dc::ring_send_chunk(r, step, j.n), c);
              if (b == e) {
                ++ch.send_step;
                continue;
              }
              fds.push_back({ch.out.get(), POLLOUT, 0});
              what.emplace_back(ji, r, c, true);
              break;
            }
          }
        }
      }
      if (std::all_of(jobs.begin(), jobs.end(), [](const job_state& j) { return j.finished; })) break;
      int timeout = 50;
      if (std::isfinite(next_gate)) timeout = std::clamp(static_cast<int>(std::ceil((next_gate - now) * 1000)), 0, 50);
      if (::poll(fds.data(), fds.size(), timeout) < 0) {
        if (errno == EINTR) continue;
        fail("poll");
      }
      for (std::size_t i = 0; i < fds.size(); ++i) {
        if (!fds[i].revents) continue;
        const auto [ji, r, c, sending] = what[i];
        auto& j = jobs[ji];
        auto& ch = j.ranks[r].ch[c];
        if (sending) {
          const auto [b, e] = piece(j, dc::ring_send_chunk(r, ch.send_step % j.steps, j.n), c);
          const char* data = reinterpret_cast<const char*>(j.ranks[r].buf.data() + b);
          const std::size_t bytes = (e - b) * sizeof(float);
          while (ch.sent < bytes) {
            const auto w = ::send(ch.out.get(), data + ch.sent, bytes - ch.sent, MSG_NOSIGNAL);
            if (w < 0) {
              if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) break;
              fail("send");
            }
            ch.sent += static_cast<std::size_t>(w);
            out.payload_sent[flow_index[{ji, r, c}]] += static_cast<std::uint64_t>(w);
          }
          if (ch.sent == bytes) {
            ch.sent = 0;
            ++ch.send_step;
          }
        } else {
          const std::size_t step = ch.recv_step % j.steps;
          const auto [b, e] = piece(j, dc::ring_receive_chunk(r, step, j.n), c);
          const std::size_t bytes = (e - b) * sizeof(float);
          const bool reduce = step + 1 < j.n;  // reduce-scatter adds; all-gather keeps
          if (reduce && ch.scratch.size() < bytes) ch.scratch.resize(bytes);
          char* into = reduce ? ch.scratch.data() : reinterpret_cast<char*>(j.ranks[r].buf.data() + b);
          while (ch.received < bytes) {
            const auto got = ::recv(ch.in.get(), into + ch.received, bytes - ch.received, 0);
            if (got > 0) {
              ch.received += static_cast<std::size_t>(got);
              continue;
            }
            if (got == 0) throw netlib::app::failure("a ring connection closed before the all-reduce ended");
            if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) break;
            fail("recv");
          }
          if (ch.received == bytes) {
            if (reduce) {
              float* dst = j.ranks[r].buf.data() + b;
              for (std::size_t x = 0; x < e - b; ++x) {
                float v;
                std::memcpy(&v, ch.scratch.data() + x * sizeof(float), sizeof v);
                dst[x] += v;
              }
            }
            ch.received = 0;
            received_piece(ji, ch.recv_step++, since(t0));
          }
        }
      }
      finished = static_cast<std::size_t>(
          std::count_if(jobs.begin(), jobs.end(), [](const job_state& j) { return j.finished; }));
    }
  };
  if (warm) {
    drive();
    out.warmup_s = since(t0);
    if (!std::all_of(jobs.begin(), jobs.end(), [](const job_state& j) { return j.finished; })) return out;
    warm = false;
    reset();
    t0 = steady::now();
  }
  drive();
  out.duration_s = since(t0);
  out.complete = std::all_of(jobs.begin(), jobs.end(), [](const job_state& j) { return j.finished; });
  return out;
}

}  // namespace netlab::lab_dc
