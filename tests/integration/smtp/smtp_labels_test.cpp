// The SMTP and POP3 ladder labels (netlab-ladder), registered into a registry of their own.
#include <gtest/gtest.h>

#include "netlib/pop3/labels.hpp"
#include "netlib/smtp/labels.hpp"

namespace {

using netlib::packet::label_context;
using netlib::packet::tcp_direction;

TEST(MailLabels, FirstLinesOnMailPortsWithCredentialsHidden) {
  netlib::packet::label_registry r;
  netlib::smtp::register_labels(r);
  netlib::pop3::register_labels(r);
  EXPECT_EQ(r.names(), (std::vector<std::string>{"smtp", "pop3"}));
  const label_context smtp_c2s{tcp_direction::client_to_server, 25, 0};
  const label_context smtp_s2c{tcp_direction::server_to_client, 25, 0};
  EXPECT_EQ(r.label(netlib::as_bytes("EHLO client.example\r\n"), smtp_c2s), "EHLO client.example");
  EXPECT_EQ(r.label(netlib::as_bytes("250-mx\r\n250 HELP\r\n"), smtp_s2c), "250-mx");
  EXPECT_EQ(r.label(netlib::as_bytes("AUTH PLAIN AGFsaWNlAHNlY3JldA==\r\n"), smtp_c2s), "AUTH PLAIN <credentials>");
  const label_context pop_c2s{tcp_direction::client_to_server, 110, 0};
  EXPECT_EQ(r.label(netlib::as_bytes("PASS hunter2\r\n"), pop_c2s), "PASS <hidden>");
  EXPECT_EQ(r.label(netlib::as_bytes("RETR 1\r\n"), pop_c2s), "RETR 1");
  // Other ports are not ours: the registry falls back to the size.
  EXPECT_EQ(r.label(netlib::as_bytes("GET / HTTP/1.1\r\n"), {tcp_direction::client_to_server, 80, 0}), "16 B");
}

}  // namespace
