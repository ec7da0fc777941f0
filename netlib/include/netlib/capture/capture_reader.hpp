#pragma once
// An incremental reader of pcap and pcapng files, written from the format specifications
// (no libpcap), so it can be fuzzed and runs anywhere:
//   pcap: both byte orders, microsecond (0xa1b2c3d4) and nanosecond (0xa1b23c4d) magic;
//   pcapng (draft-ietf-opsawg-pcapng): several sections, several interfaces per section with their
//   own link types and if_tsresol/if_tsoffset; Enhanced, Simple and obsolete Packet Blocks; other
//   blocks skipped.
//
//   auto reader = netlib::capture::capture_reader::open("x.pcapng");
//   while (auto rec = reader.next()) { ... rec->interface_id, rec->ts, rec->data ... }
//
// Records are views into a read buffer that is filled from the stream in large chunks (no copy
// per record); a record stays valid until the next call to next().
//
// Errors (capture_error, one line): unreadable file, empty file, bad magic, truncated file header,
// corrupt block or record length. A packet cut short by the end of the file is counted in
// truncated_records() and ends the reading without an error, as tcpdump does.
#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "netlib/capture/packet_record.hpp"
#include "netlib/packet/wire.hpp"

namespace netlib::capture {

class capture_reader {
 public:
  // Largest captured length and pcapng block accepted; larger ones are reported as corrupt.
  static constexpr std::uint32_t max_record_bytes = 256 * 1024;
  static constexpr std::uint32_t max_block_bytes = 16 * 1024 * 1024;

  static capture_reader open(const std::filesystem::path& path);
  // Reads from memory (tests, fuzzing).
  static capture_reader from_bytes(std::string bytes, std::string name = "<memory>");
  capture_reader(std::unique_ptr<std::istream> in, std::string name);
  capture_reader(capture_reader&&) noexcept;
  capture_reader& operator=(capture_reader&&) noexcept;
  ~capture_reader();

  // The next packet, or nullopt at the end of the file. Throws capture_error on a corrupt file.
  // Inline: one call per record instead of two (the format's reader is the only call).
  std::optional<packet_record> next() { return format_ == capture_format::pcapng ? next_pcapng() : next_pcap(); }

  [[nodiscard]] capture_format format() const noexcept { return format_; }
  [[nodiscard]] const std::string& name() const noexcept { return name_; }
  // Interfaces of the current section (pcap: one).
  [[nodiscard]] const std::vector<interface_info>& interfaces() const noexcept { return interfaces_; }
  // Number of the current pcapng section, from 0.
  [[nodiscard]] std::uint32_t section() const noexcept { return section_; }
  [[nodiscard]] std::uint64_t packets_read() const noexcept { return packets_; }
  // Packets cut short by the end of the file (at most 1) and blocks skipped as unknown or unusable.
  [[nodiscard]] std::uint64_t truncated_records() const noexcept { return truncated_; }
  [[nodiscard]] std::uint64_t skipped_blocks() const noexcept { return skipped_; }

 private:
  // pcapng's Section Header Block type, which is also the file's first four bytes.
  static constexpr std::uint32_t shb_type = 0x0A0D0D0A;
  void read_file_header();
  void read_pcap_header(const std::byte* magic);
  std::optional<packet_record> next_pcap();
  std::optional<packet_record> next_pcapng();
  template <bool big_endian>
  std::optional<packet_record> next_enhanced_fast();  // a complete, well-formed EPB already buffered
  bool read_block();                                  // false at a clean or truncated end
  bool fill(std::size_t n);                           // at least n unread bytes in the read buffer; false at the end
  byte_view take(std::size_t n);                      // the next n bytes (after fill(n)), consumed
  void on_section_header();
  void on_interface_description();
  std::optional<packet_record> on_enhanced_packet();
  std::optional<packet_record> on_simple_packet();
  std::optional<packet_record> on_obsolete_packet();
  std::optional<packet_record> make_record(std::uint32_t iface, std::uint64_t ticks, std::size_t offset,
                                           std::uint32_t caplen, std::uint32_t orig_len);
  // Fields in the byte order of the file (pcap) or section (pcapng); inline: several per record.
  [[nodiscard]] std::uint16_t u16(const std::byte* p) const noexcept {
    return big_endian_ ? packet::wire::be16(p) : packet::wire::le16(p);
  }
  [[nodiscard]] std::uint32_t u32(const std::byte* p) const noexcept {
    return big_endian_ ? packet::wire::be32(p) : packet::wire::le32(p);
  }
  [[noreturn]] void fail(const std::string& what) const;

  std::unique_ptr<std::istream> in_;
  std::string name_;
  capture_format format_ = capture_format::pcap;
  bool big_endian_ = false;
  std::vector<interface_info> interfaces_;
  // Per interface of interfaces_: nanoseconds per tick when the resolution divides a second
  // exactly (10^-k, k <= 9), else 0; and if_tsoffset in nanoseconds (both modulo 2^64).
  struct tick_scale {
    std::uint64_t ns_per_tick = 0;
    std::uint64_t offset_ns = 0;
  };
  std::vector<tick_scale> scales_;
  std::vector<std::byte> read_buffer_;  // bytes read from in_: [read_pos_, read_end_) not consumed yet
  std::size_t read_pos_ = 0;
  std::size_t read_end_ = 0;
  bool eof_ = false;
  byte_view block_;  // current pcapng block, a view into read_buffer_
  std::uint32_t block_type_ = 0;
  std::uint32_t section_ = 0;
  bool first_section_ = true;
  std::uint64_t packets_ = 0;
  std::uint64_t truncated_ = 0;
  std::uint64_t skipped_ = 0;
  std::uint64_t offset_ = 0;  // file offset of the next unread byte, for error messages
};

}  // namespace netlib::capture
