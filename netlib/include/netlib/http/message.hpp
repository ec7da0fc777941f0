#pragma once
// Request and response heads (RFC 9112 §3, §4) as the parsers produce them and the serializers
// consume them. Bodies travel separately (parse events or a driver's body source).
#include <string>

#include "netlib/http/fields.hpp"

namespace netlib::http {

struct version {
  int major = 1;
  int minor = 1;
  friend bool operator==(version, version) = default;
};

struct request_head {
  std::string method;
  std::string target;
  http::version version;
  http::fields fields;
  http::fields trailers;  // filled at message end for chunked bodies
};

struct response_head {
  http::version version;
  int status = 200;
  std::string reason;     // empty: the RFC 9110 phrase is used when serializing
  http::fields fields;
  http::fields trailers;
};

// RFC 9112 §9.3: persistence. HTTP/1.1 is persistent unless "Connection: close"; HTTP/1.0 only
// with "Connection: keep-alive".
bool wants_keep_alive(const request_head& r);
bool wants_keep_alive(const response_head& r);

}  // namespace netlib::http
