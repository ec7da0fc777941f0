// Writing pcap and pcapng files, little-endian.
//
// Theory of operation: pcap = a 24-byte header (written with the first interface, which fixes the
// link type) then a 16-byte header per packet. pcapng (draft-ietf-opsawg-pcapng) = one Section
// Header Block written at creation, an Interface Description Block per add_interface (with
// if_name and if_tsresol = 9, nanoseconds), an Enhanced Packet Block per packet, each padded to
// 32 bits (§3.1).
#include "netlib/capture/capture_writer.hpp"
#include "netlib/core/ascii.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <ostream>
#include <stdexcept>
#include <vector>

#include "netlib/packet/wire.hpp"

namespace netlib::capture {
namespace {

using bytes = std::vector<std::byte>;

void le16(bytes& b, std::uint16_t v) {
  b.resize(b.size() + 2);
  packet::wire::put_le16(b.data() + b.size() - 2, v);
}
void le32(bytes& b, std::uint32_t v) {
  b.resize(b.size() + 4);
  packet::wire::put_le32(b.data() + b.size() - 4, v);
}
void pad32(bytes& b) {
  b.resize((b.size() + 3) & ~std::size_t{3}, std::byte{0});
}

// Adds an option (code, length, value padded to 32 bits).
void option(bytes& b, std::uint16_t code, const void* value, std::uint16_t len) {
  le16(b, code);
  le16(b, len);
  const auto* p = static_cast<const std::byte*>(value);
  b.insert(b.end(), p, p + len);
  pad32(b);
}

// Frames a block body: type, total length, body, total length.
bytes block(std::uint32_t type, const bytes& body) {
  bytes b;
  const auto total = static_cast<std::uint32_t>(body.size() + 12);
  le32(b, type);
  le32(b, total);
  b.insert(b.end(), body.begin(), body.end());
  le32(b, total);
  return b;
}

}  // namespace

std::optional<capture_format> capture_writer::format_for(const std::filesystem::path& path) {
  const auto ext = ascii::to_lower(path.extension().string());
  if (ext == ".pcap" || ext == ".cap") return capture_format::pcap;
  if (ext == ".pcapng" || ext == ".ntar") return capture_format::pcapng;
  return std::nullopt;
}

capture_writer capture_writer::create(const std::filesystem::path& path, std::optional<capture_format> format) {
  if (!format) format = format_for(path);
  if (!format) {
    throw capture_error(fmt::format("{}: unknown capture extension (use .pcap or .pcapng)", path.string()));
  }
  auto out = std::make_unique<std::ofstream>(path, std::ios::binary | std::ios::trunc);
  if (!*out) throw capture_error(fmt::format("{}: cannot create ({})", path.string(), std::strerror(errno)));
  return capture_writer(std::move(out), *format, path.string());
}

capture_writer::capture_writer(std::unique_ptr<std::ostream> out, capture_format format, std::string name)
    : out_(std::move(out)), format_(format), name_(std::move(name)) {
  if (format_ == capture_format::pcapng) write_section_header();
}

capture_writer::capture_writer(capture_writer&&) noexcept = default;
capture_writer& capture_writer::operator=(capture_writer&&) noexcept = default;
capture_writer::~capture_writer() {
  if (out_) out_->flush();
}

void capture_writer::put(const void* data, std::size_t n) {
  out_->write(static_cast<const char*>(data), static_cast<std::streamsize>(n));
  check_stream();
}

void capture_writer::check_stream() {
  if (!*out_) throw capture_error(fmt::format("{}: write failed ({})", name_, std::strerror(errno)));
}

void capture_writer::write_section_header() {
  bytes body;
  le32(body, 0x1A2B3C4D);  // byte-order magic
  le16(body, 1);
  le16(body, 0);
  le32(body, 0xffffffff);  // section length unknown (-1)
  le32(body, 0xffffffff);
  const std::string app = "netlab";
  option(body, 4, app.data(), static_cast<std::uint16_t>(app.size()));  // shb_userappl
  option(body, 0, nullptr, 0);
  const bytes b = block(0x0A0D0D0A, body);
  put(b.data(), b.size());
}

void capture_writer::set_pcap_precision(pcap_precision p) {
  if (!links_.empty()) throw std::logic_error("capture_writer: set_pcap_precision after add_interface");
  precision_ = p;
}

std::uint32_t capture_writer::add_interface(packet::link_type link, const std::string& name, std::uint32_t snaplen) {
  const auto id = static_cast<std::uint32_t>(links_.size());
  if (format_ == capture_format::pcap) {
    if (!links_.empty() && links_[0] != link) {
      throw capture_error(
          fmt::format("{}: pcap holds one link type; use .pcapng for interfaces of "
                      "different link types",
                      name_));
    }
    if (links_.empty()) {
      bytes h;
      le32(h, precision_ == pcap_precision::nanoseconds ? 0xa1b23c4d : 0xa1b2c3d4);
      le16(h, 2);
      le16(h, 4);
      le32(h, 0);
      le32(h, 0);
      le32(h, snaplen);
      le32(h, static_cast<std::uint32_t>(link));
      put(h.data(), h.size());
    }
  } else {
    bytes body;
    le16(body, static_cast<std::uint16_t>(link));
    le16(body, 0);
    le32(body, snaplen);
    if (!name.empty())
      option(body, 2, name.data(), static_cast<std::uint16_t>(std::min<std::size_t>(name.size(), 0xfff0)));
    const std::uint8_t tsresol = 9;
    option(body, 9, &tsresol, 1);
    option(body, 0, nullptr, 0);
    const bytes b = block(1, body);
    put(b.data(), b.size());
  }
  links_.push_back(link);
  return id;
}

void capture_writer::write(std::uint32_t interface_id, time_point ts, byte_view data, std::uint32_t orig_len) {
  if (interface_id >= links_.size()) throw std::logic_error("capture_writer::write: undeclared interface");
  if (data.size() > 0xffffffffu - 64) throw std::logic_error("capture_writer::write: packet too large");
  const auto caplen = static_cast<std::uint32_t>(data.size());
  if (orig_len < caplen) orig_len = caplen;
  const auto ns = static_cast<std::uint64_t>(ts.time_since_epoch().count());
  bytes b;
  if (format_ == capture_format::pcap) {
    const bool nano = precision_ == pcap_precision::nanoseconds;
    le32(b, static_cast<std::uint32_t>(ns / 1'000'000'000ULL));
    le32(b, static_cast<std::uint32_t>(nano ? ns % 1'000'000'000ULL : ns % 1'000'000'000ULL / 1000));
    le32(b, caplen);
    le32(b, orig_len);
    b.insert(b.end(), data.begin(), data.end());
  } else {
    bytes body;
    le32(body, interface_id);
    le32(body, static_cast<std::uint32_t>(ns >> 32));
    le32(body, static_cast<std::uint32_t>(ns & 0xffffffffu));
    le32(body, caplen);
    le32(body, orig_len);
    body.insert(body.end(), data.begin(), data.end());
    pad32(body);
    b = block(6, body);
  }
  put(b.data(), b.size());
  ++packets_;
}

void capture_writer::flush() {
  out_->flush();
  check_stream();
}

}  // namespace netlib::capture
