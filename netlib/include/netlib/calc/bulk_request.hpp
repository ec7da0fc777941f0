#pragma once
// The throughput lab's one request: a client asks the server to send it N bytes.
// Wire format, 12 bytes: the magic "NLBT", then N as a 64-bit unsigned big-endian integer.
// The server answers with exactly N bytes and closes; the client times their arrival.
#include <array>
#include <cstddef>
#include <cstdint>

#include "netlib/core/bytes.hpp"

namespace netlib::calc {

inline constexpr std::size_t bulk_request_size = 12;

enum class bulk_status { need_more, ok, bad_magic, too_large };

struct bulk_parse {
  bulk_status status = bulk_status::need_more;
  std::size_t consumed = 0;  // 12 when ok, else 0
  std::uint64_t bytes = 0;
};

// Parses the request at the start of `data`; a request for more than `max_bytes` is refused.
bulk_parse parse_bulk_request(byte_view data, std::uint64_t max_bytes);
std::array<std::byte, bulk_request_size> serialize_bulk_request(std::uint64_t bytes);

}  // namespace netlib::calc
