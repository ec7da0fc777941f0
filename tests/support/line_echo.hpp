#pragma once
// A tiny sans-I/O line-echo core used to test the live runners: each CRLF line comes back as
// "echo: LINE"; "STARTTLS" answers "220 go ahead" and asks the driver to switch to TLS; "QUIT"
// answers "221 bye" and asks to close. Lines longer than 128 bytes get "500 line too long".
#include <string>
#include <variant>
#include <vector>

#include "netlib/core/line_framer.hpp"
#include "netlib/core/session.hpp"

namespace netlab::test {

// The session contract's common actions (the runner bench's own driver executes them).
using echo_action = netlib::session_action<>;
using netlib::close_connection;
using netlib::send_bytes;
using netlib::start_tls;

class line_echo {
 public:
  struct result {
    std::size_t consumed = 0;
    std::vector<echo_action> actions;
  };
  // Consumes complete lines; stops after an action that changes the connection (TLS, close), so
  // the driver handles the bytes after it (and discards plaintext pipelined after STARTTLS).
  result receive(netlib::byte_view input) {
    result r;
    for (;;) {
      auto line = framer_.next(input.subspan(r.consumed));
      r.consumed += line.consumed;
      if (line.status == netlib::line_status::need_more) return r;
      if (line.status != netlib::line_status::line) {
        r.actions.emplace_back(send_bytes{"500 line too long\r\n"});
        continue;
      }
      if (line.text == "STARTTLS") {
        r.actions.emplace_back(send_bytes{"220 go ahead\r\n"});
        r.actions.emplace_back(start_tls{});
        return r;
      }
      if (line.text == "QUIT") {
        r.actions.emplace_back(send_bytes{"221 bye\r\n"});
        r.actions.emplace_back(close_connection{});
        return r;
      }
      r.actions.emplace_back(send_bytes{"echo: " + std::string(line.text) + "\r\n"});
    }
  }

 private:
  netlib::line_framer framer_{{.max_length = 128}};
};

}  // namespace netlab::test
