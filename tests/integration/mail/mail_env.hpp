#pragma once
// Shared set-up for the mail integration tests: a temporary folder with a users file, an optional
// self-signed certificate, lab-smtp / lab-pop3 servers on port 0, and Python helpers.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "support/peers.hpp"
#include "support/process.hpp"

namespace mail_test {
namespace fs = std::filesystem;

struct mail_env {
  fs::path dir;
  fs::path maildir;
  fs::path users;
  fs::path cert;
  fs::path key;

  mail_env() {
    std::string tmpl = (fs::temp_directory_path() / "netlab-mail-XXXXXX").string();
    dir = mkdtemp(tmpl.data());
    maildir = dir / "mail";
    users = dir / "users.txt";
    std::ofstream(users) << "alice:secret\nbob:hunter2\n";
  }
  ~mail_env() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  mail_env(const mail_env&) = delete;
  mail_env& operator=(const mail_env&) = delete;

  // openssl req -x509 -newkey rsa:2048 -nodes -subj /CN=localhost -days 1
  void make_cert() {
    cert = dir / "cert.pem";
    key = dir / "key.pem";
    const auto r = netlab::test::run({"openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj",
                                      "/CN=localhost", "-days", "1", "-keyout", key.string(), "-out", cert.string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }

  std::unique_ptr<netlab::test::process> start_smtp(std::vector<std::string> extra = {}) {
    std::vector<std::string> argv{netlab::test::bin_path("lab-smtp"),
                                  "serve",
                                  "--maildir",
                                  maildir.string(),
                                  "--domain",
                                  "example.org",
                                  "--users",
                                  users.string(),
                                  "--listen",
                                  "127.0.0.1:0"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    return std::make_unique<netlab::test::process>(argv);
  }
  std::vector<std::string> tls_args() const { return {"--tls-cert", cert.string(), "--tls-key", key.string()}; }

  std::unique_ptr<netlab::test::process> start_pop3(std::vector<std::string> extra = {}) {
    std::vector<std::string> argv{netlab::test::bin_path("lab-pop3"),
                                  "serve",
                                  "--maildir",
                                  maildir.string(),
                                  "--users",
                                  users.string(),
                                  "--listen",
                                  "127.0.0.1:0"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    return std::make_unique<netlab::test::process>(argv);
  }

  // The files in DIR/user/sub, sorted by name.
  std::vector<fs::path> files(const std::string& user, const std::string& sub) const {
    std::vector<fs::path> out;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(maildir / user / sub, ec)) out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
  }
  static std::string read(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }
  // A Maildir file (stored with LF line ends) as POP3 sends it: every LF as CRLF.
  static std::string read_as_crlf(const fs::path& p) {
    std::string out;
    for (char c : read(p)) {
      if (c == '\n') out += '\r';
      out += c;
    }
    return out;
  }
};

// Runs /usr/bin/python3 -c script args...
inline netlab::test::run_result python(const std::string& script, std::vector<std::string> args = {},
                                       const std::string& input = {}) {
  std::vector<std::string> argv{"/usr/bin/python3", "-c", script};
  argv.insert(argv.end(), args.begin(), args.end());
  return netlab::test::run(argv, input, std::chrono::seconds(30));
}

inline std::string port_string(const std::string& host_port) {
  return std::to_string(netlab::test::process::port_of(host_port));
}

// A raw client: after the greeting it sends each chunk as one write (Python escapes like \r\n
// are decoded), then reads until the server closes. In mode "starttls" it half-closes as soon as
// "220 2.0.0" (the STARTTLS go-ahead) arrives, so a server that waits for a handshake gives up.
// In mode "abort" it closes abruptly (RST) once "354" arrived and the chunks were sent.
inline const char* raw_client = R"PY(
import socket, struct, sys
port, mode, chunks = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
s = socket.create_connection(("127.0.0.1", port), timeout=10)
got = s.recv(4096)
def decode(c): return c.encode("latin-1").decode("unicode_escape").encode("latin-1")
def read_until(token):
    global got
    while token not in got:
        b = s.recv(65536)
        if not b: return
        got += b
for c in chunks:
    s.sendall(decode(c))
    if mode == "abort" and b"DATA" in decode(c): read_until(b"354")
if mode == "starttls":
    read_until(b"220 2.0.0")
    s.shutdown(socket.SHUT_WR)
if mode == "abort":
    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    s.close()
    sys.stdout.write(got.decode("latin-1"))
    sys.exit(0)
while True:
    b = s.recv(65536)
    if not b: break
    got += b
sys.stdout.write(got.decode("latin-1"))
)PY";

}  // namespace mail_test
