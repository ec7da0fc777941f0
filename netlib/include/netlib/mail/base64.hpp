#pragma once
// Base64 (RFC 4648 §4) for SMTP AUTH (RFC 4954) and MIME attachments (RFC 2045 §6.8).
#include <optional>
#include <string>
#include <string_view>

namespace netlib::mail {

std::string base64_encode(std::string_view data);
// Rejects characters outside the alphabet, bad padding and lengths not a multiple of 4.
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace netlib::mail
