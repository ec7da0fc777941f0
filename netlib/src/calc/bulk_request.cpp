// Theory of operation: a fixed-size header; the magic is checked byte by byte as it arrives so a
// wrong peer (an HTTP client, say) is refused after its first bytes, not after twelve.
#include "netlib/calc/bulk_request.hpp"

#include <algorithm>

namespace netlib::calc {
namespace {
constexpr std::array<std::byte, 4> magic{std::byte{'N'}, std::byte{'L'}, std::byte{'B'}, std::byte{'T'}};
}

bulk_parse parse_bulk_request(byte_view data, std::uint64_t max_bytes) {
  const std::size_t seen = std::min(data.size(), magic.size());
  if (!std::equal(data.begin(), data.begin() + static_cast<std::ptrdiff_t>(seen), magic.begin()))
    return {bulk_status::bad_magic, 0, 0};
  if (data.size() < bulk_request_size) return {};
  std::uint64_t n = 0;
  for (std::size_t i = magic.size(); i < bulk_request_size; ++i) n = (n << 8) | std::to_integer<std::uint64_t>(data[i]);
  if (n > max_bytes) return {bulk_status::too_large, 0, n};
  return {bulk_status::ok, bulk_request_size, n};
}

std::array<std::byte, bulk_request_size> serialize_bulk_request(std::uint64_t bytes) {
  std::array<std::byte, bulk_request_size> out{};
  std::copy(magic.begin(), magic.end(), out.begin());
  for (std::size_t i = 0; i < 8; ++i)
    out[bulk_request_size - 1 - i] = std::byte(static_cast<unsigned char>(bytes >> (8 * i)));
  return out;
}

}  // namespace netlib::calc
