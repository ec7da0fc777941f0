// The throughput lab's request header: round trip, every split, every truncation, limits.
#include "netlib/calc/bulk_request.hpp"

#include <gtest/gtest.h>

#include <string>

#include "support/split_feed.hpp"

namespace {

using namespace netlib::calc;

std::string wire(std::uint64_t n) {
  const auto a = serialize_bulk_request(n);
  return {reinterpret_cast<const char*>(a.data()), a.size()};
}

TEST(BulkRequest, RoundTripAtEverySplit) {
  for (std::uint64_t n : {0ULL, 1ULL, 100'000'000ULL, 0x0102030405060708ULL}) {
    const std::string input = wire(n) + "extra";
    netlab::test::for_each_split(input, [&](const netlab::test::pieces& pieces) {
      netlib::input_buffer buf;
      bulk_parse r;
      for (auto piece : pieces) {
        buf.append(piece);
        r = parse_bulk_request(buf.data(), UINT64_MAX);
        if (r.status != bulk_status::need_more) break;
      }
      ASSERT_EQ(r.status, bulk_status::ok);
      EXPECT_EQ(r.bytes, n);
      EXPECT_EQ(r.consumed, 12u);
    });
  }
  EXPECT_EQ(wire(0x0102030405060708ULL).substr(4), std::string("\x01\x02\x03\x04\x05\x06\x07\x08", 8));
}

TEST(BulkRequest, EveryTruncationNeedsMore) {
  netlab::test::for_each_prefix(wire(42), [](std::string_view prefix) {
    EXPECT_EQ(parse_bulk_request(netlib::as_bytes(prefix), 100).status, bulk_status::need_more) << prefix.size();
  });
}

TEST(BulkRequest, WrongPeerIsRefusedAtItsFirstByte) {
  EXPECT_EQ(parse_bulk_request(netlib::as_bytes("G"), 100).status, bulk_status::bad_magic);
  EXPECT_EQ(parse_bulk_request(netlib::as_bytes("GET / HTTP/1.1\r\n"), 100).status, bulk_status::bad_magic);
  EXPECT_EQ(parse_bulk_request(netlib::as_bytes("NLBX"), 100).status, bulk_status::bad_magic);
}

TEST(BulkRequest, LimitIsEnforced) {
  EXPECT_EQ(parse_bulk_request(netlib::as_bytes(wire(101)), 100).status, bulk_status::too_large);
  EXPECT_EQ(parse_bulk_request(netlib::as_bytes(wire(100)), 100).status, bulk_status::ok);
}

}  // namespace
