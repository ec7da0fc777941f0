#include <gtest/gtest.h>

#include "netlib/ftp/ascii_codec.hpp"
#include "support/split_feed.hpp"

using namespace netlib;
using namespace netlib::ftp;

TEST(AsciiCodec, EncodeAnySplit) {
  const std::string local = "a\nb\r\nc\rd\n\n";
  netlab::test::for_each_split(local, [](const netlab::test::pieces& p) {
    ascii_encoder e;
    std::string out;
    for (auto piece : p) e.encode(as_bytes(piece), out);
    EXPECT_EQ(out, "a\r\nb\r\nc\rd\r\n\r\n");
  });
}

TEST(AsciiCodec, DecodeAnySplit) {
  const std::string wire = "a\r\nb\rc\r\n\r\nend\r";
  netlab::test::for_each_split(wire, [](const netlab::test::pieces& p) {
    ascii_decoder d;
    std::string out;
    for (auto piece : p) d.decode(as_bytes(piece), out);
    d.finish(out);
    EXPECT_EQ(out, "a\nb\rc\n\nend\r");
  });
}
