// libFuzzer target for the throughput lab's 12-byte bulk request (netlib/calc/bulk_request.hpp):
// any input parses without crashing, and an accepted request round-trips through the serializer.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "netlib/calc/bulk_request.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const netlib::byte_view input(reinterpret_cast<const std::byte*>(data), size);
  const auto r = netlib::calc::parse_bulk_request(input, 1'000'000'000ULL);
  if (r.status == netlib::calc::bulk_status::ok) {
    const auto again = netlib::calc::serialize_bulk_request(r.bytes);
    if (r.consumed != again.size() || std::memcmp(again.data(), data, again.size()) != 0) std::abort();
  }
  return 0;
}
