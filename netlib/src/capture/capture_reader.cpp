// Reading pcap and pcapng files from bytes.
//
// Theory of operation: the first four bytes choose the format. pcap: a 24-byte file header
// (magic, version, snaplen, link type) then records of a 16-byte header and the captured bytes;
// the magic's byte order is the file's. pcapng (draft-ietf-opsawg-pcapng §3.1): a sequence of
// blocks type(4) length(4) body length(4); a Section Header Block's byte-order magic sets the
// byte order of its section and resets the interface list; Interface Description Blocks append
// interfaces; packet blocks name an interface by index. The stream is read in large chunks into
// `read_buffer_`; a record or block is taken whole from it as a view (fill() first makes it hold
// the whole record, growing the buffer up to the limits), only after its length was checked
// against the limits, so later field reads are bounds-checked once and no record is copied.
// A file that ends inside a record counts one truncated record and ends the reading.
#include "netlib/capture/capture_reader.hpp"

#include <fmt/format.h>

#include <cstring>
#include <fstream>
#include <sstream>

#include "netlib/packet/wire.hpp"

namespace netlib::capture {
capture_reader capture_reader::open(const std::filesystem::path& path) {
  auto in = std::make_unique<std::ifstream>(path, std::ios::binary);
  if (!*in) {
    throw capture_error(fmt::format("{}: cannot open ({})", path.string(), std::strerror(errno)));
  }
  return capture_reader(std::move(in), path.string());
}

capture_reader capture_reader::from_bytes(std::string bytes, std::string name) {
  return capture_reader(std::make_unique<std::istringstream>(std::move(bytes)), std::move(name));
}

capture_reader::capture_reader(std::unique_ptr<std::istream> in, std::string name)
    : in_(std::move(in)), name_(std::move(name)) {
  read_file_header();
}

capture_reader::capture_reader(capture_reader&&) noexcept = default;
capture_reader& capture_reader::operator=(capture_reader&&) noexcept = default;
capture_reader::~capture_reader() = default;

void capture_reader::fail(const std::string& what) const {
  throw capture_error(fmt::format("{}: {}", name_, what));
}

namespace {
constexpr std::size_t read_chunk = 256 * 1024;
}  // namespace

bool capture_reader::fill(std::size_t n) {
  if (read_end_ - read_pos_ >= n) return true;
  if (read_pos_ > 0) {  // keep the unread tail, at the front
    std::memmove(read_buffer_.data(), read_buffer_.data() + read_pos_, read_end_ - read_pos_);
    read_end_ -= read_pos_;
    read_pos_ = 0;
  }
  if (read_buffer_.size() < std::max(n, read_chunk)) read_buffer_.resize(std::max(n, read_chunk));
  while (read_end_ < n && !eof_) {
    in_->read(reinterpret_cast<char*>(read_buffer_.data() + read_end_),
              static_cast<std::streamsize>(read_buffer_.size() - read_end_));
    const auto got = static_cast<std::size_t>(in_->gcount());
    read_end_ += got;
    eof_ = got == 0 || !*in_;
  }
  return read_end_ >= n;
}

byte_view capture_reader::take(std::size_t n) {
  const byte_view out(read_buffer_.data() + read_pos_, n);
  read_pos_ += n;
  offset_ += n;
  return out;
}

void capture_reader::read_file_header() {
  fill(4);
  const std::size_t got = read_end_ - read_pos_;
  if (got == 0) fail("empty file (no capture header)");
  if (got < 4) fail(fmt::format("truncated file header ({} of 24 bytes)", got));
  const std::byte* magic = read_buffer_.data() + read_pos_;
  if (packet::wire::be32(magic) == shb_type) {
    format_ = capture_format::pcapng;
    if (!read_block()) fail("truncated file header (section header block)");
    return;
  }
  read_pcap_header(magic);
}

void capture_reader::read_pcap_header(const std::byte* magic) {
  const std::uint32_t be = packet::wire::be32(magic);
  const std::uint32_t le = packet::wire::le32(magic);
  interface_info info;
  if (be == 0xa1b2c3d4 || le == 0xa1b2c3d4) {
    info.ticks_per_second = 1'000'000;
  } else if (be == 0xa1b23c4d || le == 0xa1b23c4d) {
    info.ticks_per_second = 1'000'000'000;
  } else {
    fail(fmt::format("bad magic 0x{:08x} (not a pcap or pcapng file)", be));
  }
  big_endian_ = (be == 0xa1b2c3d4 || be == 0xa1b23c4d);
  if (!fill(24)) fail(fmt::format("truncated file header ({} of 24 bytes)", read_end_ - read_pos_));
  const std::byte* rest = take(24).data() + 4;
  const std::uint16_t major = u16(rest);
  if (major != 2) fail(fmt::format("unsupported pcap version {}.{}", major, u16(rest + 2)));
  info.snaplen = u32(rest + 12);
  info.link = static_cast<packet::link_type>(u32(rest + 16) & 0xffff);
  interfaces_.push_back(std::move(info));
}

std::optional<packet_record> capture_reader::next_pcap() {
  const std::uint64_t record_offset = offset_;
  if (!fill(16)) {
    truncated_ += read_end_ > read_pos_ ? 1 : 0;
    read_pos_ = read_end_;  // a cut record header is dropped
    return std::nullopt;
  }
  const std::byte* header = read_buffer_.data() + read_pos_;
  const std::uint32_t caplen = u32(header + 8);
  const std::uint32_t limit = std::max(max_record_bytes, std::min(interfaces_[0].snaplen, max_block_bytes));
  if (caplen > limit) {
    fail(
        fmt::format("record at offset {}: captured length {} exceeds {} (corrupt file)", record_offset, caplen, limit));
  }
  if (!fill(16 + std::size_t{caplen})) {
    ++truncated_;
    read_pos_ = read_end_;  // the cut record is dropped
    return std::nullopt;
  }
  header = take(16 + std::size_t{caplen}).data();
  const std::uint64_t sec = u32(header);
  const std::uint64_t frac = u32(header + 4);
  const std::uint64_t scale = interfaces_[0].ticks_per_second == 1'000'000 ? 1000 : 1;
  packet_record rec;
  rec.ts = from_nanoseconds(static_cast<std::int64_t>(sec * 1'000'000'000ULL + frac * scale));
  rec.link = interfaces_[0].link;
  rec.data = byte_view(header + 16, caplen);
  rec.orig_len = u32(header + 12);
  ++packets_;
  return rec;
}

}  // namespace netlib::capture
