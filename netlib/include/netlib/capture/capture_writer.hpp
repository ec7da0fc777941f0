#pragma once
// Writes pcap or pcapng files (the format from the file's extension: .pcap or .pcapng).
//
//   auto out = netlib::capture::capture_writer::create("ports.pcapng");
//   auto p1 = out.add_interface(netlib::packet::link_type::ethernet, "port1");
//   auto p2 = out.add_interface(netlib::packet::link_type::ethernet, "port2");
//   out.write(p2, ts, frame);
//
// pcapng keeps every interface (its Interface Description Block is written by add_interface)
// and nanosecond timestamps (if_tsresol 9). pcap has one link type and no interface ids: several
// interfaces are accepted only when they share the link type, and the id is not stored.
#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "netlib/capture/packet_record.hpp"

namespace netlib::capture {

enum class pcap_precision { microseconds, nanoseconds };

class capture_writer {
 public:
  // The format from the extension (.pcap, .pcapng; also .cap = pcap, .ntar = pcapng), or `format`.
  static capture_writer create(const std::filesystem::path& path, std::optional<capture_format> format = std::nullopt);
  static std::optional<capture_format> format_for(const std::filesystem::path& path);

  capture_writer(std::unique_ptr<std::ostream> out, capture_format format, std::string name);
  capture_writer(capture_writer&&) noexcept;
  capture_writer& operator=(capture_writer&&) noexcept;
  ~capture_writer();

  // Timestamp precision of a pcap file; set before the first add_interface.
  void set_pcap_precision(pcap_precision p);
  // Declares an interface; returns its id for write().
  std::uint32_t add_interface(packet::link_type link, const std::string& name = {}, std::uint32_t snaplen = 262144);
  // Writes one packet; orig_len 0 means data.size().
  void write(std::uint32_t interface_id, time_point ts, byte_view data, std::uint32_t orig_len = 0);
  void write(const packet_record& rec) { write(rec.interface_id, rec.ts, rec.data, rec.orig_len); }
  // Pushes everything written so far to the file, so that it is complete if the program stops.
  void flush();

  [[nodiscard]] capture_format format() const noexcept { return format_; }
  [[nodiscard]] std::uint64_t packets_written() const noexcept { return packets_; }
  [[nodiscard]] std::size_t interface_count() const noexcept { return links_.size(); }

 private:
  void put(const void* data, std::size_t n);
  void write_section_header();
  void check_stream();

  std::unique_ptr<std::ostream> out_;
  capture_format format_;
  std::string name_;
  pcap_precision precision_ = pcap_precision::microseconds;
  std::vector<packet::link_type> links_;
  std::uint64_t packets_ = 0;
};

}  // namespace netlib::capture
