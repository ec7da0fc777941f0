// HTTP labels for netlab-ladder (netlib/http/labels.hpp; links netlib::packet, hence here).
#include "netlib/http/labels.hpp"

#include <gtest/gtest.h>

namespace http = netlib::http;

TEST(HttpLabels, RequestAndStatusLines) {
  netlib::packet::label_context to_server{netlib::packet::tcp_direction::client_to_server, 80, 0};
  netlib::packet::label_context to_client{netlib::packet::tcp_direction::server_to_client, 80, 0};
  EXPECT_EQ(http::http_label(netlib::as_bytes(std::string_view("GET /x HTTP/1.1\r\nHost: a\r\n")), to_server),
            "GET /x HTTP/1.1");
  EXPECT_EQ(http::http_label(netlib::as_bytes(std::string_view("HTTP/1.1 304 Not Modified\r\n")), to_client),
            "HTTP/1.1 304 Not Modified");
  EXPECT_FALSE(http::http_label(netlib::as_bytes(std::string_view("body bytes")), to_client));
  EXPECT_FALSE(http::http_label(netlib::as_bytes(std::string_view("HTTP/1.1 200 OK\r\n")), to_server));
}

TEST(HttpLabels, RegisteredInTheGlobalRegistry) {
  netlib::packet::label_registry r;
  http::register_labels(r);
  netlib::packet::label_context to_server{netlib::packet::tcp_direction::client_to_server, 8080, 0};
  EXPECT_EQ(r.label(netlib::as_bytes(std::string_view("HEAD / HTTP/1.0\r\n\r\n")), to_server), "HEAD / HTTP/1.0");
  EXPECT_EQ(r.label(netlib::as_bytes(std::string_view("xyz")), to_server), "3 B");
}
