// pcap / pcapng reading and writing on hand-made bytes: both byte orders, both pcap precisions,
// several pcapng sections and interfaces, every packet block kind, and malformed files.
#include <gtest/gtest.h>

#include <sstream>

#include "netlib/capture/capture_reader.hpp"
#include "netlib/capture/capture_writer.hpp"
#include "support/temp_dir.hpp"

namespace {

using netlib::capture::capture_error;
using netlib::capture::capture_format;
using netlib::capture::capture_reader;
using netlib::capture::capture_writer;
using netlib::packet::link_type;

// Builds file bytes in one byte order.
struct builder {
  bool big = false;
  std::string s{};
  builder& u8(unsigned v) {
    s.push_back(static_cast<char>(v));
    return *this;
  }
  builder& u16(unsigned v) { return big ? u8((v >> 8) & 0xff).u8(v & 0xff) : u8(v & 0xff).u8((v >> 8) & 0xff); }
  builder& u32(std::uint32_t v) { return big ? u16(v >> 16).u16(v & 0xffff) : u16(v & 0xffff).u16(v >> 16); }
  builder& raw(std::string_view b) {
    s += b;
    return *this;
  }
  builder& pad() {
    while (s.size() % 4) s.push_back('\0');
    return *this;
  }
};

std::string pcap_file(bool big, std::uint32_t magic, std::uint32_t link, std::uint32_t snaplen = 65535) {
  builder b{big};
  b.u32(magic).u16(2).u16(4).u32(0).u32(0).u32(snaplen).u32(link);
  return b.s;
}
std::string pcap_record(bool big, std::uint32_t sec, std::uint32_t frac, std::string_view data,
                        std::uint32_t orig = 0) {
  builder b{big};
  b.u32(sec)
      .u32(frac)
      .u32(static_cast<std::uint32_t>(data.size()))
      .u32(orig ? orig : static_cast<std::uint32_t>(data.size()))
      .raw(data);
  return b.s;
}

// A pcapng block: type, length, body (padded), length.
std::string block(bool big, std::uint32_t type, std::string body) {
  builder pad{big, std::move(body)};
  pad.pad();
  builder b{big};
  const auto len = static_cast<std::uint32_t>(pad.s.size() + 12);
  b.u32(type).u32(len).raw(pad.s).u32(len);
  return b.s;
}
std::string shb(bool big) {
  builder b{big};
  b.u32(0x1A2B3C4D).u16(1).u16(0).u32(0xffffffff).u32(0xffffffff);
  return block(big, 0x0A0D0D0A, b.s);
}
std::string idb(bool big, std::uint16_t link, int tsresol = -1, std::string name = {}, std::int64_t offset = 0) {
  builder b{big};
  b.u16(link).u16(0).u32(0);
  if (!name.empty()) b.u16(2).u16(static_cast<unsigned>(name.size())).raw(name).pad();
  if (tsresol >= 0) b.u16(9).u16(1).u8(static_cast<unsigned>(tsresol)).pad();
  if (offset != 0) {
    b.u16(14).u16(8);
    const auto o = static_cast<std::uint64_t>(offset);
    if (big)
      b.u32(o >> 32).u32(o & 0xffffffff);
    else
      b.u32(o & 0xffffffff).u32(o >> 32);
  }
  b.u16(0).u16(0);
  return block(big, 1, b.s);
}
std::string epb(bool big, std::uint32_t iface, std::uint64_t ticks, std::string_view data, std::uint32_t orig = 0) {
  builder b{big};
  b.u32(iface)
      .u32(ticks >> 32)
      .u32(ticks & 0xffffffff)
      .u32(static_cast<std::uint32_t>(data.size()))
      .u32(orig ? orig : static_cast<std::uint32_t>(data.size()))
      .raw(data);
  return block(big, 6, b.s);
}

std::string as_string(netlib::byte_view b) {
  return std::string(netlib::as_chars(b));
}
std::int64_t ns(const netlib::capture::packet_record& r) {
  return r.ts.time_since_epoch().count();
}

TEST(PcapReader, ReadsBothByteOrdersAndPrecisions) {
  for (bool big : {false, true}) {
    for (bool nano : {false, true}) {
      std::string f = pcap_file(big, nano ? 0xa1b23c4d : 0xa1b2c3d4, 1);
      f += pcap_record(big, 10, 20, "hello", 60);
      f += pcap_record(big, 11, 0, "x");
      auto r = capture_reader::from_bytes(f);
      EXPECT_EQ(r.format(), capture_format::pcap);
      auto p = r.next();
      ASSERT_TRUE(p);
      EXPECT_EQ(as_string(p->data), "hello");
      EXPECT_EQ(p->orig_len, 60u);
      EXPECT_EQ(p->link, link_type::ethernet);
      EXPECT_EQ(p->interface_id, 0u);
      EXPECT_EQ(ns(*p), 10'000'000'000 + (nano ? 20 : 20'000));
      ASSERT_TRUE(r.next());
      EXPECT_FALSE(r.next());
      EXPECT_EQ(r.packets_read(), 2u);
      EXPECT_EQ(r.truncated_records(), 0u);
    }
  }
}

TEST(PcapReader, LinkTypeFromHeader) {
  auto r = capture_reader::from_bytes(pcap_file(false, 0xa1b2c3d4, 0) + pcap_record(false, 1, 0, "abcd"));
  auto p = r.next();
  ASSERT_TRUE(p);
  EXPECT_EQ(p->link, link_type::null_bsd);
}

TEST(PcapReader, ErrorsAreOneLine) {
  auto expect_error = [](const std::string& bytes, const std::string& part) {
    try {
      auto r = capture_reader::from_bytes(bytes, "t.pcap");
      while (r.next()) {
      }
      ADD_FAILURE() << "no error for " << part;
    } catch (const capture_error& e) {
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
      EXPECT_EQ(std::string(e.what()).rfind("t.pcap: ", 0), 0u) << e.what();
    }
  };
  expect_error("", "empty file");
  expect_error("GIF89a....", "bad magic 0x47494638");
  const std::string header = pcap_file(false, 0xa1b2c3d4, 1);
  for (std::size_t k = 1; k < header.size(); ++k) expect_error(header.substr(0, k), "truncated file header");
  builder big_len{false};
  big_len.u32(1).u32(0).u32(10'000'000).u32(10'000'000);
  expect_error(header + big_len.s, "captured length 10000000");
  builder version{false};
  version.u32(0xa1b2c3d4).u16(3).u16(0).u32(0).u32(0).u32(65535).u32(1);
  expect_error(version.s, "unsupported pcap version 3.0");
  expect_error(std::string("\x0a\x0d\x0d\x0a", 4), "truncated file header");
}

TEST(PcapReader, TruncatedLastPacketIsCountedAndSkipped) {
  const std::string good = pcap_file(false, 0xa1b2c3d4, 1) + pcap_record(false, 1, 0, "first");
  const std::string last = pcap_record(false, 2, 0, "second packet");
  for (std::size_t k = 1; k < last.size(); ++k) {
    auto r = capture_reader::from_bytes(good + last.substr(0, k));
    ASSERT_TRUE(r.next());
    EXPECT_FALSE(r.next());
    EXPECT_EQ(r.truncated_records(), 1u) << k;
    EXPECT_EQ(r.packets_read(), 1u);
  }
}

TEST(PcapngReader, SectionsInterfacesAndResolutions) {
  for (bool big : {false, true}) {
    std::string f = shb(big);
    f += idb(big, 1, -1, "eth0");          // default microseconds
    f += idb(big, 101, 9);                 // nanoseconds, raw IP
    f += idb(big, 1, 0x80 | 10, {}, 100);  // 2^-10 s, +100 s offset
    f += epb(big, 0, 1'500'000, "a");      // 1.5 s
    f += block(big, 5, "statistics!!");    // skipped
    f += epb(big, 1, 2'000'000'001, "bb");
    f += epb(big, 2, 1024 + 512, "ccc", 99);  // 1.5 s + 100 s
    f += shb(!big);                           // a new section in the other byte order
    f += idb(!big, 113, 3);
    f += epb(!big, 0, 7, "dddd");  // 7 ms
    builder spb{!big};
    spb.u32(5).raw("eeeee");
    f += block(!big, 3, spb.s);
    builder pb{!big};
    pb.u16(0).u16(0).u32(0).u32(42).u32(1).u32(1).raw("f");
    f += block(!big, 2, pb.s);

    auto r = capture_reader::from_bytes(f);
    EXPECT_EQ(r.format(), capture_format::pcapng);
    auto p = r.next();
    ASSERT_TRUE(p);
    EXPECT_EQ(r.interfaces().size(), 3u);
    EXPECT_EQ(r.interfaces()[0].name, "eth0");
    EXPECT_EQ(ns(*p), 1'500'000'000);
    p = r.next();
    ASSERT_TRUE(p);
    EXPECT_EQ(p->interface_id, 1u);
    EXPECT_EQ(p->link, link_type::raw);
    EXPECT_EQ(ns(*p), 2'000'000'001);
    p = r.next();
    ASSERT_TRUE(p);
    EXPECT_EQ(p->interface_id, 2u);
    EXPECT_EQ(ns(*p), 101'500'000'000);
    EXPECT_EQ(as_string(p->data), "ccc");
    EXPECT_EQ(p->orig_len, 99u);
    p = r.next();
    ASSERT_TRUE(p);
    EXPECT_EQ(r.section(), 1u);
    EXPECT_EQ(r.interfaces().size(), 1u);
    EXPECT_EQ(p->link, link_type::linux_sll);
    EXPECT_EQ(ns(*p), 7'000'000);
    p = r.next();
    ASSERT_TRUE(p);
    EXPECT_EQ(as_string(p->data), "eeeee");
    p = r.next();
    ASSERT_TRUE(p);
    EXPECT_EQ(as_string(p->data), "f");
    EXPECT_EQ(ns(*p), 42'000'000);  // obsolete Packet Block, 42 ticks of 1 ms
    EXPECT_FALSE(r.next());
    EXPECT_EQ(r.packets_read(), 6u);
  }
}

TEST(PcapngReader, BadBlocksAreSkippedOrRejected) {
  // A packet on an interface its section never declared is a malformed file (pcapng §4.2; issue
  // 31: it was skipped without a word), named with the block's offset and the interface.
  auto r = capture_reader::from_bytes(shb(false) + idb(false, 1) + epb(false, 0, 0, "y") + epb(false, 5, 0, "x"));
  auto p = r.next();
  ASSERT_TRUE(p);
  EXPECT_EQ(as_string(p->data), "y");
  try {
    r.next();
    ADD_FAILURE() << "a packet for interface 5 was read";
  } catch (const capture_error& e) {
    EXPECT_NE(std::string(e.what()).find("a packet for interface 5, which its section never declared"),
              std::string::npos)
        << e.what();
  }
  // A Simple Packet Block names interface 0: without one declared it is malformed too.
  builder simple{false};
  simple.u32(3).u32(20).u32(4).u32(0).u32(20);
  EXPECT_THROW(
      {
        auto r5 = capture_reader::from_bytes(shb(false) + simple.s);
        r5.next();
      },
      capture_error);
  // A block length that is not a multiple of 4 is corrupt.
  builder bad{false};
  bad.u32(6).u32(13).u32(0);
  EXPECT_THROW(
      {
        auto r2 = capture_reader::from_bytes(shb(false) + bad.s);
        r2.next();
      },
      capture_error);
  // A mismatched trailing length is corrupt.
  std::string mismatch = epb(false, 0, 0, "abcd");
  mismatch[mismatch.size() - 4] = 1;
  EXPECT_THROW(
      {
        auto r3 = capture_reader::from_bytes(shb(false) + idb(false, 1) + mismatch);
        r3.next();
      },
      capture_error);
  // Every truncation of the last block is counted, never an error.
  const std::string head = shb(false) + idb(false, 1) + epb(false, 0, 0, "first");
  const std::string last = epb(false, 0, 0, "second");
  for (std::size_t k = 1; k < last.size(); ++k) {
    auto r4 = capture_reader::from_bytes(head + last.substr(0, k));
    ASSERT_TRUE(r4.next());
    EXPECT_FALSE(r4.next());
    EXPECT_EQ(r4.truncated_records(), 1u);
  }
}

// Writes to a string kept by the test.
struct memory_writer {
  std::ostringstream* raw;
  capture_writer writer;
  explicit memory_writer(capture_format f,
                         std::unique_ptr<std::ostringstream> s = std::make_unique<std::ostringstream>())
      : raw(s.get()), writer(std::move(s), f, "<memory>") {}
  std::string bytes() {
    writer.flush();
    return raw->str();
  }
};

TEST(CaptureWriter, PcapngRoundTripKeepsInterfacesAndNanoseconds) {
  memory_writer m(capture_format::pcapng);
  const auto a = m.writer.add_interface(link_type::ethernet, "port1");
  const auto b = m.writer.add_interface(link_type::raw, "port2");
  m.writer.write(b, netlib::from_nanoseconds(1'234'567'891'234), netlib::as_bytes("abc"));
  m.writer.write(a, netlib::from_nanoseconds(5), netlib::as_bytes("defgh"), 100);
  auto r = capture_reader::from_bytes(m.bytes());
  auto p = r.next();
  ASSERT_TRUE(p);
  EXPECT_EQ(p->interface_id, 1u);
  EXPECT_EQ(p->link, link_type::raw);
  EXPECT_EQ(ns(*p), 1'234'567'891'234);
  EXPECT_EQ(as_string(p->data), "abc");
  EXPECT_EQ(r.interfaces()[1].name, "port2");
  p = r.next();
  ASSERT_TRUE(p);
  EXPECT_EQ(p->interface_id, 0u);
  EXPECT_EQ(p->orig_len, 100u);
  EXPECT_FALSE(r.next());
}

TEST(CaptureWriter, PcapRoundTripBothPrecisions) {
  for (auto prec : {netlib::capture::pcap_precision::microseconds, netlib::capture::pcap_precision::nanoseconds}) {
    memory_writer m(capture_format::pcap);
    m.writer.set_pcap_precision(prec);
    const auto a = m.writer.add_interface(link_type::ethernet);
    EXPECT_THROW(m.writer.add_interface(link_type::raw), capture_error);
    m.writer.write(a, netlib::from_nanoseconds(1'234'567'891'234), netlib::as_bytes("abc"));
    auto r = capture_reader::from_bytes(m.bytes());
    auto p = r.next();
    ASSERT_TRUE(p);
    const bool nano = prec == netlib::capture::pcap_precision::nanoseconds;
    EXPECT_EQ(ns(*p), nano ? 1'234'567'891'234 : 1'234'567'891'000);
    EXPECT_EQ(as_string(p->data), "abc");
  }
}

TEST(CaptureWriter, FormatFromExtension) {
  EXPECT_EQ(capture_writer::format_for("a.pcap"), capture_format::pcap);
  EXPECT_EQ(capture_writer::format_for("a.PCAPNG"), capture_format::pcapng);
  EXPECT_FALSE(capture_writer::format_for("a.txt"));
  const netlab::test::temp_dir scratch("capture-writer");
  EXPECT_THROW(capture_writer::create(scratch / "x.txt"), capture_error);
}

}  // namespace
