// Theory of operation: the strategies differ only in how requests map onto connections.
//   persistent:      one connection, request, response, request, response ... (reconnect only
//                    when the server closes).
//   non-persistent:  a new connection per object, "Connection: close"; with parallel N, N worker
//                    threads each take the next object from a shared index.
//   pipelined:       one connection, every request written back to back, then the responses
//                    read in order; requests the server did not answer before closing are sent
//                    again on a new connection.
#include "fetch_session.hpp"

#include <atomic>
#include <thread>

#include "netlib/app/program.hpp"
#include "netlib/io/live_clock.hpp"

namespace lab_http {

namespace http = netlib::http;

fetch_session::fetch_session(fetch_settings settings, http::cookie_jar* jar, client_cache* cache)
    : settings_(std::move(settings)), jar_(jar), cache_(cache) {}

double fetch_session::elapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
}

std::optional<connect_timing> fetch_session::first_connect() const {
  std::lock_guard lock(mutex_);
  return first_connect_;
}
int fetch_session::connections() const {
  std::lock_guard lock(mutex_);
  return connections_;
}

std::unique_ptr<origin_connection> fetch_session::connect(const http::url& u, int& index) {
  auto c = std::make_unique<origin_connection>(u, settings_.timeout, settings_.verify_tls, settings_.ca_file);
  const connect_timing t = c->connect();
  std::lock_guard lock(mutex_);
  index = ++connections_;
  if (!first_connect_) first_connect_ = t;
  return c;
}

http::request_head fetch_session::make_request(const http::url& u, bool close) {
  http::request_head r;
  r.method = "GET";
  r.target = u.target;
  r.fields.add("Host", u.authority());
  r.fields.add("User-Agent", "netlab-http/0.1");
  r.fields.add("Accept", "*/*");
  if (close) r.fields.add("Connection", "close");
  std::lock_guard lock(mutex_);
  if (jar_) {
    const std::string cookies = jar_->cookie_header(u, netlib::io::read_clock().wall_seconds());
    if (!cookies.empty()) r.fields.add("Cookie", cookies);
  }
  if (cache_)
    if (auto e = cache_->find(u.to_string())) client_cache::add_conditions(*e, r);
  return r;
}

void fetch_session::absorb(const http::url& u, received_response& r, object_result& out) {
  std::lock_guard lock(mutex_);
  out.status = r.head.status;
  out.reason = r.head.reason;
  if (jar_)
    for (const auto& f : r.head.fields.lines())
      if (http::iequals(f.name, "Set-Cookie"))
        jar_->set_from_header(u, f.value, netlib::io::read_clock().wall_seconds());
  if (cache_ && r.head.status == 304) {
    if (auto e = cache_->find(u.to_string())) {
      r.body = e->body;  // RFC 9111 §4.3.4: the stored response, freshened
      out.cache = "revalidated";
    }
  } else if (cache_ && cache_->store(u.to_string(), r.head, r.body)) {
    out.cache = "stored";
  }
  out.body_bytes = r.body.size();
  out.body = std::move(r.body);
}

namespace {

void fetch_one(fetch_session& s, origin_connection& c, int index, const http::url& u, bool close, object_result& out) {
  out.url = u.to_string();
  out.connection = index;
  out.start_s = s.elapsed();
  c.send(s.make_request(u, close));
  auto r = c.receive();
  s.absorb(u, r, out);
  out.end_s = s.elapsed();
}

}  // namespace

std::unique_ptr<origin_connection> fetch_persistent(fetch_session& s, const std::vector<http::url>& urls,
                                                    std::vector<object_result>& results,
                                                    std::unique_ptr<origin_connection> c, int& index) {
  for (std::size_t i = 0; i < urls.size(); ++i) {
    try {
      if (!c || !c->open()) c = s.connect(urls[i], index);
      fetch_one(s, *c, index, urls[i], false, results[i]);
    } catch (const std::exception& e) {
      results[i].url = urls[i].to_string();
      results[i].error = e.what();
      c.reset();
    }
  }
  return c;
}

void fetch_non_persistent(fetch_session& s, const std::vector<http::url>& urls, std::vector<object_result>& results,
                          unsigned parallel) {
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t i = next++; i < urls.size(); i = next++) {
      try {
        int index = 0;
        auto c = s.connect(urls[i], index);
        results[i].start_s = s.elapsed();
        fetch_one(s, *c, index, urls[i], true, results[i]);
      } catch (const std::exception& e) {
        results[i].url = urls[i].to_string();
        results[i].error = e.what();
      }
    }
  };
  std::vector<std::thread> threads;
  for (unsigned t = 1; t < std::max(1u, parallel); ++t) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();
}

std::unique_ptr<origin_connection> fetch_pipelined(fetch_session& s, const std::vector<http::url>& urls,
                                                   std::vector<object_result>& results,
                                                   std::unique_ptr<origin_connection> c, int& index) {
  std::size_t done = 0;
  int failures = 0;  // consecutive failed attempts at results[done]
  for (int attempt = 0; done < urls.size() && attempt < 2 + 2 * static_cast<int>(urls.size()); ++attempt) {
    try {
      if (!c || !c->open()) c = s.connect(urls[done], index);
      const double sent = s.elapsed();
      std::vector<http::request_head> batch;
      for (std::size_t i = done; i < urls.size(); ++i) batch.push_back(s.make_request(urls[i], false));
      c->send_all(batch);
      while (done < urls.size()) {
        auto& out = results[done];
        out.url = urls[done].to_string();
        out.connection = index;
        out.start_s = sent;
        auto r = c->receive();
        s.absorb(urls[done], r, out);
        out.end_s = s.elapsed();
        ++done;
        failures = 0;
        if (!c->open()) break;  // the server closed: send the rest again on a new connection
      }
    } catch (const std::exception& e) {
      // A server that closes with requests still unread may reset the connection: try the rest
      // once more on a new connection before giving up on the next object.
      c.reset();
      if (++failures < 3) continue;
      results[done].url = urls[done].to_string();
      results[done].error = e.what();
      ++done;
      failures = 0;
    }
  }
  return c;
}

}  // namespace lab_http
