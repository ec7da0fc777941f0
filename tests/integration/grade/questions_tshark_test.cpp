// Every UDP, DNS, DHCP and NAT answer in the key of every capture in captures/ equals the value
// tshark reads (one test per capture file; key_tshark.hpp says how each answer is read). The NAT
// questions are asked of captures/nat/outside.pcapng with its inside.pcapng, recorded with it.
#include <gtest/gtest.h>

#include <filesystem>

#include "integration/grade/key_tshark.hpp"
#include "support/peers.hpp"

namespace questions_tshark {

namespace fs = std::filesystem;
using namespace netlab::test;

std::string nat_inside_of(const std::string& capture) {
  const fs::path p(capture);
  if (p.parent_path().filename() != "nat" || p.filename() != "outside.pcapng") return {};
  return (p.parent_path() / "inside.pcapng").string();
}

class Keys : public testing::TestWithParam<std::string> {};

TEST_P(Keys, EveryUdpDnsDhcpNatAnswerEqualsTsharks) {
  NETLAB_REQUIRE_PEER("tshark");
  const auto capture = GetParam();
  const auto inside = nat_inside_of(capture);
  const auto key = key_tshark::full_key(capture, inside);
  const auto checked = key_tshark::expect_key_agrees(capture, inside, key);
  RecordProperty("checked", static_cast<int>(checked));
}

INSTANTIATE_TEST_SUITE_P(All, Keys, testing::ValuesIn(project_captures()),
                         [](const testing::TestParamInfo<std::string>& i) { return capture_test_name(i.param); });

// The lab captures do hold these questions (so the test above checks something for each family).
TEST(KeysOfLabCaptures, EachFamilyIsAsked) {
  const auto count = [](const std::vector<key_tshark::key_entry>& key, const std::string& protocol) {
    return std::count_if(key.begin(), key.end(), [&](const auto& q) { return q.id.starts_with(protocol + "."); });
  };
  const auto dns = key_tshark::full_key(source_path("captures/dns/resolver.pcapng"));
  EXPECT_GT(count(dns, "dns"), 400);
  EXPECT_GT(count(dns, "udp"), 100);
  const auto dhcp = key_tshark::full_key(source_path("captures/dhcp/client.pcapng"));
  EXPECT_GT(count(dhcp, "dhcp"), 60);
  const auto nat =
      key_tshark::full_key(source_path("captures/nat/outside.pcapng"), source_path("captures/nat/inside.pcapng"));
  EXPECT_EQ(count(nat, "nat"), 2 + 5 * 10);  // nat.flows, nat.public_address, 10 per flow
}

}  // namespace questions_tshark
