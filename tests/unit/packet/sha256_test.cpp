// SHA-256 against the FIPS 180-4 / NIST example vectors, and split-feed invariance.
#include <gtest/gtest.h>

#include <string>

#include "netlib/core/sha256.hpp"
#include "support/split_feed.hpp"

namespace {

TEST(Sha256, NistVectors) {
  EXPECT_EQ(netlib::sha256::hex(netlib::as_bytes("")),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(netlib::sha256::hex(netlib::as_bytes("abc")),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(netlib::sha256::hex(netlib::as_bytes("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  netlib::sha256 million;
  const std::string chunk(1000, 'a');
  for (int i = 0; i < 1000; ++i) million.update(chunk);
  EXPECT_EQ(million.hex_digest(), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, AnySplitGivesTheSameDigest) {
  const std::string input(130, 'x');
  const std::string expected = netlib::sha256::hex(netlib::as_bytes(input));
  netlab::test::for_each_split(input, [&](const netlab::test::pieces& pieces) {
    netlib::sha256 h;
    for (auto p : pieces) h.update(p);
    EXPECT_EQ(h.hex_digest(), expected);
    EXPECT_EQ(h.size(), input.size());
  });
}

}  // namespace
