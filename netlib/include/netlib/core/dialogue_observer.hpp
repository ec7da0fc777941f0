#pragma once
// The plumbing every passive analyzer of a line protocol shares (docs/architecture.md, "The
// capture feed"): an observer of one recorded conversation, fed both directions' bytes in
// capture order, that pairs the client's command lines with the server's answers. The protocol
// (smtp::session_analyzer, pop3::session_analyzer) derives from it and says how to read one
// server answer and one client line; this base keeps the two buffers, the gaps, the switch to
// TLS after which bytes are only counted, and the order rule below.
//
//   class my_analyzer : public dialogue_observer<my_analyzer> {
//     friend dialogue_observer;
//     observed_transport& transport();          // the session's common part
//     bool greeted() const;                     // the server's greeting was read
//     bool awaiting_answer() const;             // a command waits for its answer
//     bool client_waits() const;                // the client's next bytes depend on an answer
//     bool server_unit(input_buffer& server);   // reads one answer; false: needs more / must wait
//     bool client_line(const line_result& l);   // one client line; true when it made progress
//   };
//
// Order rule: both sides are fed in capture order, so a server answer that arrives while no
// command waits for it, and the client has a complete line not read yet, answers that line: the
// line is read first.
#include <cstddef>
#include <string>

#include "netlib/core/bytes.hpp"
#include "netlib/core/line_framer.hpp"

namespace netlib {

// What every observed session reports besides its protocol's dialogue.
struct observed_transport {
  bool encrypted = false;  // STARTTLS/STLS succeeded: the rest was not analysed
  std::size_t encrypted_client_bytes = 0;
  std::size_t encrypted_server_bytes = 0;
  std::size_t gap_bytes = 0;  // bytes missing from the capture; analysis of that side stopped
  std::string problem;        // first thing that could not be parsed, if any
};

template <class Derived>
class dialogue_observer {
 public:
  void client_bytes(byte_view bytes) {
    take(bytes, client_, stopped_client_, &observed_transport::encrypted_client_bytes);
  }
  void server_bytes(byte_view bytes) {
    take(bytes, server_, stopped_server_, &observed_transport::encrypted_server_bytes);
  }
  void gap(bool from_client, std::size_t size) {
    observed_transport& t = self().transport();
    t.gap_bytes += size;
    note_problem(std::string(from_client ? "client" : "server") + " bytes missing from the capture");
    (from_client ? stopped_client_ : stopped_server_) = true;
    (from_client ? client_ : server_).clear();
  }

 protected:
  explicit dialogue_observer(std::size_t max_client_line)
      : client_framer_({.max_length = max_client_line, .strict = false}) {}

  // The first problem is kept.
  void note_problem(std::string what) {
    observed_transport& t = self().transport();
    if (t.problem.empty()) t.problem = std::move(what);
  }
  // Bytes of the client's stream read as lines so far: within client_line, the line just read is
  // [client_offset() - l.consumed, client_offset()) of the stream (a replay re-sends those bytes).
  [[nodiscard]] std::size_t client_offset() const noexcept { return client_read_; }
  // The server's side cannot be read any further (a malformed answer).
  void stop_server(std::string why) {
    note_problem(std::move(why));
    stopped_server_ = true;
  }
  // TLS started: what is buffered and everything after it is only counted.
  void stop_encrypted() {
    observed_transport& t = self().transport();
    t.encrypted = true;
    t.encrypted_client_bytes += client_.size();
    t.encrypted_server_bytes += server_.size();
    client_.clear();
    server_.clear();
  }

 private:
  Derived& self() { return static_cast<Derived&>(*this); }
  const Derived& self() const { return static_cast<const Derived&>(*this); }

  void take(byte_view bytes, input_buffer& side, bool stopped, std::size_t observed_transport::*encrypted_count) {
    observed_transport& t = self().transport();
    if (t.encrypted) {
      t.*encrypted_count += bytes.size();
      return;
    }
    if (!stopped) side.append(bytes);
    pump();
  }

  bool client_line_first() const {
    if (!self().greeted() || self().awaiting_answer() || stopped_client_ || self().client_waits()) return false;
    return as_chars(client_.data()).find('\n') != std::string_view::npos;
  }

  void pump() {
    for (int round = 0; round < 1'000'000; ++round) {  // each round reads something or returns
      bool progress = false;
      while (!stopped_server_ && !self().transport().encrypted && !client_line_first()) {
        if (!self().server_unit(server_)) break;
        progress = true;
      }
      while (!stopped_client_ && !self().transport().encrypted && !self().client_waits()) {
        const line_result l = client_framer_.next(client_.data());
        client_.consume(l.consumed);
        client_read_ += l.consumed;
        if (l.status == line_status::need_more) break;
        progress = self().client_line(l) || progress;
      }
      if (!progress || self().transport().encrypted) return;
    }
  }

  input_buffer client_;
  input_buffer server_;
  line_framer client_framer_;
  std::size_t client_read_ = 0;
  bool stopped_client_ = false;
  bool stopped_server_ = false;
};

}  // namespace netlib
