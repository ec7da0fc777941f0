// The label registry: the first labeller that answers wins, otherwise the payload size.
#include <gtest/gtest.h>

#include "netlib/packet/payload_labels.hpp"

namespace {

using namespace netlib::packet;

TEST(PayloadLabels, FirstAnsweringLabellerWinsElseSize) {
  label_registry r;
  EXPECT_EQ(r.label(netlib::as_bytes("GET / HTTP/1.1\r\n"), {}), "16 B");
  r.add("http", [](netlib::byte_view p, const label_context& c) -> std::optional<std::string> {
    if (c.server_port != 80) return std::nullopt;
    return printable_first_line(p);
  });
  r.add("any", [](netlib::byte_view, const label_context&) -> std::optional<std::string> { return "other"; });
  EXPECT_EQ(r.label(netlib::as_bytes("GET / HTTP/1.1\r\nHost: x\r\n"), {tcp_direction::client_to_server, 80, 0}),
            "GET / HTTP/1.1");
  EXPECT_EQ(r.label(netlib::as_bytes("GET / HTTP/1.1\r\n"), {tcp_direction::client_to_server, 81, 0}), "other");
  EXPECT_EQ(r.names(), (std::vector<std::string>{"http", "any"}));
}

TEST(PayloadLabels, PrintableFirstLine) {
  EXPECT_EQ(printable_first_line(netlib::as_bytes("220 ready\r\n")), "220 ready");
  EXPECT_EQ(printable_first_line(netlib::as_bytes("USER bob\n")), "USER bob");
  EXPECT_FALSE(printable_first_line(netlib::as_bytes(std::string("\x16\x03\x01", 3))));
  EXPECT_FALSE(printable_first_line(netlib::as_bytes("\r\n")));
  EXPECT_EQ(printable_first_line(netlib::as_bytes("abcdefgh"), 4), "abcd...");
}

}  // namespace
