#pragma once
// Pure serializers (RFC 9112): heads and chunked framing as bytes to send.
#include <string>
#include <string_view>

#include "netlib/core/bytes.hpp"
#include "netlib/http/message.hpp"

namespace netlib::http {

std::string serialize(const request_view& r);
std::string serialize(const response_head& r);
// Appends the serialized head to `out`: a buffer kept from response to response (the static
// server's) grows once and is then reused without allocating.
void serialize_into(const response_head& r, std::string& out);
// One chunk (RFC 9112 §7.1): size in hex, CRLF, data, CRLF. An empty chunk gives "".
std::string serialize_chunk(std::string_view data);
// The last chunk and the trailer section.
std::string serialize_last_chunk(const fields& trailers = {});

}  // namespace netlib::http
