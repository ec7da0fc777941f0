// The reader takes records as views out of a read buffer filled in 256 KiB chunks: records that
// straddle a chunk boundary, records larger than a chunk (the buffer grows up to the limits), and a
// file cut at any point (a truncated record, counted once, every earlier record intact).
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "netlib/capture/capture_reader.hpp"
#include "netlib/capture/capture_writer.hpp"

namespace {

using netlib::capture::capture_format;
using netlib::capture::capture_reader;
using netlib::capture::capture_writer;

// Packets of sizes that move record boundaries across every chunk edge, plus some larger than a
// chunk; byte i of packet n is (n * 31 + i) % 251, so a misplaced byte is noticed.
std::vector<std::string> packets() {
  std::vector<std::string> out;
  const std::size_t sizes[] = {1, 60, 1499, 4093, 65535, 200'000, 256 * 1024, 7, 300'000};
  for (std::size_t n = 0; n < 120; ++n) {
    const std::size_t size = sizes[n % std::size(sizes)] + n % 5;
    std::string p(std::min<std::size_t>(size, capture_reader::max_record_bytes), '\0');
    for (std::size_t i = 0; i < p.size(); ++i) p[i] = static_cast<char>((n * 31 + i) % 251);
    out.push_back(std::move(p));
  }
  return out;
}

std::string write_all(capture_format format, const std::vector<std::string>& pkts) {
  auto stream = std::make_unique<std::ostringstream>();
  auto* raw = stream.get();
  {
    capture_writer w(std::move(stream), format, "<memory>");
    if (format == capture_format::pcap) w.set_pcap_precision(netlib::capture::pcap_precision::nanoseconds);
    const auto a = w.add_interface(netlib::packet::link_type::ethernet, "a");
    const auto b = format == capture_format::pcapng ? w.add_interface(netlib::packet::link_type::ethernet, "b") : a;
    for (std::size_t n = 0; n < pkts.size(); ++n) {
      const std::uint32_t iface = format == capture_format::pcapng && n % 2 ? b : a;
      w.write(iface, netlib::from_nanoseconds(static_cast<std::int64_t>(n) * 1'000'003), netlib::as_bytes(pkts[n]));
    }
    w.flush();
    return raw->str();
  }
}

TEST(ReadBuffer, RecordsAcrossChunkBoundariesAndLargerThanAChunk) {
  const auto pkts = packets();
  for (const auto format : {capture_format::pcap, capture_format::pcapng}) {
    auto r = capture_reader::from_bytes(write_all(format, pkts));
    for (std::size_t n = 0; n < pkts.size(); ++n) {
      const auto rec = r.next();
      ASSERT_TRUE(rec) << n;
      ASSERT_EQ(netlib::to_string(rec->data), pkts[n]) << "packet " << n;
      EXPECT_EQ(rec->ts.time_since_epoch().count(), static_cast<std::int64_t>(n) * 1'000'003);
      EXPECT_EQ(rec->interface_id, format == capture_format::pcapng ? n % 2 : 0u);
    }
    EXPECT_FALSE(r.next());
    EXPECT_FALSE(r.next());
    EXPECT_EQ(r.truncated_records(), 0u);
    EXPECT_EQ(r.packets_read(), pkts.size());
  }
}

TEST(ReadBuffer, CutAnywhereGivesTheWholeRecordsBeforeAndOneTruncated) {
  std::vector<std::string> pkts;
  for (std::size_t n = 0; n < 40; ++n) pkts.push_back(std::string(9000 + n * 97, static_cast<char>('a' + n % 26)));
  for (const auto format : {capture_format::pcap, capture_format::pcapng}) {
    const std::string file = write_all(format, pkts);
    // Cut at a spread of offsets (some land on record boundaries: then nothing is truncated).
    for (std::size_t cut = file.size() / 2; cut < file.size(); cut += 331) {
      auto r = capture_reader::from_bytes(file.substr(0, cut));
      std::size_t n = 0;
      while (auto rec = r.next()) {
        ASSERT_LT(n, pkts.size());
        ASSERT_EQ(netlib::to_string(rec->data), pkts[n]) << "cut " << cut;
        ++n;
      }
      EXPECT_FALSE(r.next());  // the end stays the end, and the cut record is counted once
      EXPECT_LE(r.truncated_records(), 1u) << "cut " << cut;
      EXPECT_LT(n, pkts.size());
      if (format == capture_format::pcap) {  // records of 16 + size bytes after a 24-byte header
        std::size_t whole = 0, end = 24;
        while (whole < pkts.size() && end + 16 + pkts[whole].size() <= cut) end += 16 + pkts[whole++].size();
        EXPECT_EQ(n, whole) << "cut " << cut;
        EXPECT_EQ(r.truncated_records(), end < cut ? 1u : 0u) << "cut " << cut;
      }
    }
  }
}

}  // namespace
