#pragma once
// Decoder of the chunked transfer coding (RFC 9112 §7.1): chunk-size (hex, overflow guarded),
// chunk extensions (validated, ignored), chunk data, the CRLF after it, the last chunk and the
// trailer section. Feed it the unconsumed input; it reports body_data, need_more,
// message_complete or a sticky parse_error.
#include <cstdint>

#include "netlib/http/fields.hpp"
#include "netlib/http/parse_event.hpp"
#include "netlib/http/parser_limits.hpp"

namespace netlib::http {

class chunked_decoder {
 public:
  explicit chunked_decoder(const parser_limits& limits) noexcept : limits_(limits) {}
  parse_step next(byte_view input);
  // Ready for the next chunked body (limits kept).
  void reset();
  [[nodiscard]] const fields& trailers() const noexcept { return trailers_; }
  [[nodiscard]] std::uint64_t body_bytes() const noexcept { return total_; }
  [[nodiscard]] bool done() const noexcept { return state_ == state::done; }

 private:
  enum class state { size_line, data, data_crlf, trailers, done, failed };
  parse_step step(byte_view input);
  parse_step on_size_line(byte_view input);
  parse_step on_data(byte_view input);
  parse_step on_data_crlf(byte_view input);
  parse_step on_trailers(byte_view input);
  parse_step fail(errc e);

  parser_limits limits_;
  state state_ = state::size_line;
  std::uint64_t remaining_ = 0;
  std::uint64_t total_ = 0;
  errc error_ = errc::bad_chunk_size;
  fields trailers_;
};

// Parses "1a;name=value;x" (without CRLF): the size, or nullopt with `error` set.
std::optional<std::uint64_t> parse_chunk_line(std::string_view line, errc& error);

}  // namespace netlib::http
