// Persistence rules of RFC 9112 §9.3.
#include "netlib/http/message.hpp"

namespace netlib::http {
namespace {
template <class Fields>
bool keep_alive(version v, const Fields& f) {
  if (f.has_token("Connection", "close")) return false;  // RFC 9112 §9.3 rule 1
  if (v.major == 1 && v.minor >= 1) return true;         // rule 2
  return f.has_token("Connection", "keep-alive");        // rule 3 (HTTP/1.0)
}
}  // namespace

bool wants_keep_alive(const request_view& r) {
  return keep_alive(r.version, r.fields);
}
bool wants_keep_alive(const response_head& r) {
  return keep_alive(r.version, r.fields);
}

}  // namespace netlib::http
