// Common Log Format (NCSA): host ident authuser [date] "request" status bytes.
#include "netlib/http/access_log.hpp"

#include <fmt/format.h>

#include "netlib/http/http_date.hpp"

namespace netlib::http {

std::string format_clf(const access_record& r) {
  std::string request;
  for (char c : r.request_line) {  // keep the line one line and the quotes balanced
    if (c == '"' || c == '\\') request += '\\';
    request += (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) ? '?' : c;
  }
  return fmt::format("{} - {} [{}] \"{}\" {} {}", r.remote_host.empty() ? "-" : r.remote_host,
                     r.user.empty() ? "-" : r.user, format_clf_date(r.time), request.empty() ? "-" : request, r.status,
                     r.body_bytes == 0 ? std::string("-") : std::to_string(r.body_bytes));
}

std::uint64_t body_size_of(std::string_view response) {
  const auto end = response.find("\r\n\r\n");
  return end == std::string_view::npos ? 0 : response.size() - (end + 4);
}

}  // namespace netlib::http
