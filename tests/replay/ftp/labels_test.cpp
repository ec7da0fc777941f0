// FTP ladder labels (netlib/ftp/labels.hpp) on the project's own capture: the control
// connection's payloads get their first lines (PASS hidden); data payloads keep the size label.
#include <gtest/gtest.h>

#include "netlib/capture/tcp_replay.hpp"
#include "netlib/ftp/labels.hpp"
#include "support/process.hpp"

namespace {

struct label_collector : netlib::capture::stream_consumer {
  const netlib::packet::label_registry& registry;
  std::uint16_t server_port;
  std::vector<std::string> labels;
  label_collector(const netlib::packet::label_registry& r, std::uint16_t port) : registry(r), server_port(port) {}
  void on_bytes(netlib::packet::tcp_direction d, netlib::byte_view bytes, netlib::time_point) override {
    labels.push_back(registry.label(bytes, netlib::packet::label_context{d, server_port, 0}));
  }
};

}  // namespace

TEST(FtpLabels, ControlLinesWithPasswordHidden) {
  netlib::packet::label_registry registry;
  netlib::ftp::register_labels(registry);
  EXPECT_EQ(registry.names(), std::vector<std::string>{"ftp"});
  const std::string capture = netlab::test::source_path("captures/ftp/ftp-sessions.pcapng");
  label_collector control(registry, 2121);
  netlib::capture::replay_conversation(capture, 0, control);
  ASSERT_GE(control.labels.size(), 6u);
  EXPECT_EQ(control.labels[0], "220 netlab FTP server ready");
  EXPECT_EQ(control.labels[1], "USER anonymous");
  EXPECT_EQ(control.labels[3], "PASS <hidden>");
  EXPECT_NE(std::find(control.labels.begin(), control.labels.end(), "EPSV"), control.labels.end());
  label_collector data(registry, 40000);  // a data connection: not FTP control text
  netlib::capture::replay_conversation(capture, 1, data);
  ASSERT_FALSE(data.labels.empty());
  EXPECT_TRUE(data.labels[0].ends_with(" B")) << data.labels[0];
}
