#include "netlib/l2/vlan_config.hpp"

#include <gtest/gtest.h>

namespace {

using namespace netlib::l2;

TEST(VlanConfig, ParsesAccessTrunkNativeHairpinAndComments) {
  auto r = parse_vlan_config(
      "# lab topology\n"
      "port 0 access 10\n"
      "\n"
      "  port 3 trunk 10,20   # uplink\n"
      "port 4 trunk 20 native 30 hairpin\r\n");
  using port_map = std::map<port_id, port_config>;
  ASSERT_TRUE(std::holds_alternative<port_map>(r)) << std::get<vlan_config_error>(r).message;
  const auto& ports = std::get<port_map>(r);
  ASSERT_EQ(ports.size(), 3U);
  EXPECT_EQ(ports.at(0).mode, port_mode::access);
  EXPECT_EQ(ports.at(0).pvid, 10);
  EXPECT_EQ(ports.at(3).mode, port_mode::trunk);
  EXPECT_EQ(ports.at(3).allowed, (std::set<vlan_id>{10, 20}));
  EXPECT_FALSE(ports.at(3).native);
  EXPECT_EQ(ports.at(4).native, 30);
  EXPECT_TRUE(ports.at(4).hairpin);
}

TEST(VlanConfig, ErrorsNameTheLine) {
  const std::pair<const char*, const char*> cases[] = {
      {"port 0 access 10\nport 1 trunc 10\n", "line 2: unknown mode 'trunc' (access or trunk)"},
      {"port 0 access 4095\n", "line 1: bad VLAN id '4095' (1..4094)"},
      {"port 0 access 0\n", "line 1: bad VLAN id '0' (1..4094)"},
      {"port x access 1\n", "line 1: bad port 'x' (0..4095)"},
      {"port 0 trunk 1,,2\n", "line 1: bad VLAN id '' (1..4094)"},
      {"port 0 access 1\nport 0 access 2\n", "line 2: port 0 configured twice"},
      {"vlan 10\n", "line 1: expected 'port N access VID' or 'port N trunk VIDS [native VID]'"},
      {"port 0 trunk 1 nativ 2\n", "line 1: after the trunk's VLANs only 'native VID' may follow"},
      {"port 0 access 1 2\n", "line 1: 'access' takes one VLAN id"},
  };
  for (const auto& [text, message] : cases) {
    auto r = parse_vlan_config(text);
    ASSERT_TRUE(std::holds_alternative<vlan_config_error>(r)) << text;
    EXPECT_EQ(std::get<vlan_config_error>(r).message, message);
  }
}

}  // namespace
