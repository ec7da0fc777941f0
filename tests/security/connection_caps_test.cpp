// Issue 31, item 6: idle connections from one address must not fill every slot. Each server is
// started with its defaults; one address (127.0.0.2) opens as many connections as the server's
// whole connection cap and keeps them idle (each confirmed served: a greeting, or a response
// after which the keep-alive connection stays open); then a client from another address
// (127.0.0.3) must be served. Before the fix every slot went to the first address and the other
// client got the busy reply (POP3 and SMTP 100 connections, FTP 200, HTTP and the proxy 1,024).
// The per-address cap (--max-per-address, netlib::server_cli) refuses the extra ones at once.
#include <sys/resource.h>

#include <cstdio>

#include "security/raw_client.hpp"
#include "security/security_env.hpp"

namespace connection_caps_test {

using namespace security_test;
using namespace std::chrono_literals;

struct server_case {
  std::string name;
  std::vector<std::string> argv;  // without --listen
  int cap = 0;                    // the server's default connection cap
  bool greets = true;             // the server speaks first; else an HTTP request is sent
  std::string request;            // for HTTP
  std::string served;             // the start of a served connection's first line
};

// Opens `count` connections from `source` and keeps them; returns how many were served.
int hold(int port, const server_case& c, const std::string& source, int count, std::vector<raw_client>& held) {
  int served = 0;
  for (int i = 0; i < count; ++i) {
    raw_client conn(port, source);
    if (!conn.ok()) break;
    if (!c.greets) conn.send(c.request);
    const std::string first = conn.line(10s);
    if (first.rfind(c.served, 0) == 0) {
      ++served;
      held.push_back(std::move(conn));  // the rest of a response waits unread; the connection stays open
    }
  }
  return served;
}

// This process holds up to 1,024 connections: its soft descriptor limit may be just that.
void raise_fd_limit() {
  rlimit lim{};
  if (::getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur < lim.rlim_max) {
    lim.rlim_cur = lim.rlim_max;
    ::setrlimit(RLIMIT_NOFILE, &lim);
  }
}

void expect_other_address_served(const server_case& c) {
  SCOPED_TRACE(c.name);
  raise_fd_limit();
  netlab::test::process server(c.argv);
  const int port = netlab::test::process::port_of(server.wait_listening());
  std::vector<raw_client> held;
  held.reserve(static_cast<std::size_t>(c.cap));
  const int served = hold(port, c, "127.0.0.2", c.cap, held);
  raw_client other(port, "127.0.0.3");
  ASSERT_TRUE(other.ok());
  if (!c.greets) other.send(c.request);
  const std::string first = other.line(10s);
  std::printf("%s: %d of %d connections from one address served and held idle; another address then gets \"%s\"\n",
              c.name.c_str(), served, c.cap, first.c_str());
  EXPECT_GT(served, 0);
  EXPECT_LT(served, c.cap) << "one address took every slot";
  EXPECT_EQ(first.rfind(c.served, 0), 0u) << first;
}

struct site {
  temp_dir dir{"netlab-sec-caps"};
  std::string users, root, mail;
  site() {
    write_file(dir.path / "users.txt", "alice:secret\n");
    write_file(dir.path / "root/index.html", "<p>hello</p>\n");
    users = (dir.path / "users.txt").string();
    root = (dir.path / "root").string();
    mail = (dir.path / "mail").string();
  }
};

const std::string http_request = "GET /index.html HTTP/1.1\r\nHost: x\r\n\r\n";

server_case pop3_case(const site& s, int cap) {
  return {
      "lab-pop3",
      {netlab::test::bin_path("lab-pop3"), "serve", "--maildir", s.mail, "--users", s.users, "--listen", "127.0.0.1:0"},
      cap,
      true,
      "",
      "+OK"};
}

TEST(ConnectionCaps, Pop3OneAddressCannotTakeEverySlot) {
  site s;
  expect_other_address_served(pop3_case(s, 100));
}

TEST(ConnectionCaps, SmtpOneAddressCannotTakeEverySlot) {
  site s;
  expect_other_address_served({"lab-smtp",
                               {netlab::test::bin_path("lab-smtp"), "serve", "--maildir", s.mail, "--domain",
                                "example.org", "--users", s.users, "--listen", "127.0.0.1:0"},
                               100,
                               true,
                               "",
                               "220"});
}

TEST(ConnectionCaps, FtpOneAddressCannotTakeEverySlot) {
  site s;
  expect_other_address_served(
      {"lab-ftp",
       {netlab::test::bin_path("lab-ftp"), "serve", "--root", s.root, "--users", s.users, "--listen", "127.0.0.1:0"},
       200,
       true,
       "",
       "220"});
}

TEST(ConnectionCaps, HttpServeOneAddressCannotTakeEverySlot) {
  site s;
  expect_other_address_served(
      {"lab-http serve",
       {netlab::test::bin_path("lab-http"), "serve", "--root", s.root, "--listen", "127.0.0.1:0"},
       1024,
       false,
       http_request,
       "HTTP/1.1 200"});
}

TEST(ConnectionCaps, HttpProxyOneAddressCannotTakeEverySlot) {
  expect_other_address_served({"lab-http proxy",
                               {netlab::test::bin_path("lab-http"), "proxy", "--listen", "127.0.0.1:0"},
                               1024,
                               false,
                               "GET /netlab-proxy/stats HTTP/1.1\r\nHost: x\r\n\r\n",
                               "HTTP/1.1 200"});
}

// The cap turned against the address it counts: refused connections must not take a slot, and
// the slots of connections that ended must come back, or an address that once hit the cap (a
// burst, a NAT's users) would stay refused. POP3 with its default cap of 20: 50 connections from
// one address (30 refused), all closed; then the address gets 20 served connections again.
TEST(ConnectionCaps, SlotsComeBackWhenConnectionsEnd) {
  site s;
  const server_case c = pop3_case(s, 20);
  netlab::test::process server(c.argv);
  const int port = netlab::test::process::port_of(server.wait_listening());
  std::vector<raw_client> held;
  const int first = hold(port, c, "127.0.0.4", 50, held);
  EXPECT_EQ(first, 20) << "the cap is 20 connections from one address";
  held.clear();  // every connection from the address closes
  // The server notices each close on its own thread: wait (bounded) until one is served again.
  int again = 0;
  const auto until = std::chrono::steady_clock::now() + 10s;
  while (again < 20 && std::chrono::steady_clock::now() < until) {
    raw_client conn(port, "127.0.0.4");
    if (!conn.ok()) break;
    if (conn.line(10s).rfind("+OK", 0) == 0) {
      ++again;
      held.push_back(std::move(conn));
    }
  }
  std::printf("%s: %d of 50 connections from one address served, all closed; then %d served again\n", c.name.c_str(),
              first, again);
  EXPECT_EQ(again, 20) << "slots of ended or refused connections did not come back";
  raw_client over(port, "127.0.0.4");
  EXPECT_EQ(over.line(10s).rfind("-ERR", 0), 0u) << "the 21st is refused again";
}

}  // namespace connection_caps_test
