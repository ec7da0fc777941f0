#pragma once
// Request and response heads (RFC 9112 §3, §4) as the parsers produce them and the serializers
// consume them. Bodies travel separately (parse events or a driver's body source).
//
// A request head comes in two forms of one template (basic_request_head<Text>):
//   request_view  what request_parser produces: method, target and fields are views of the bytes
//                 it parsed (the connection's read buffer), valid until those bytes change; no
//                 copy is made (docs/architecture.md, "HTTP requests as views").
//   request_head  owns its text: what a client builds and sends, what a proxy keeps while it
//                 forwards. request_head(view) copies a view; a request_head converts to a
//                 request_view implicitly (as std::string does to std::string_view), so what
//                 reads requests takes `const request_view&` and serves both.
#include <string>
#include <string_view>

#include "netlib/http/fields.hpp"

namespace netlib::http {

struct version {
  int major = 1;
  int minor = 1;
  friend bool operator==(version, version) = default;
};

template <class Text>
struct basic_request_head {
  basic_request_head() = default;
  // An owned copy of a view, or a view of an owned head (see above).
  template <class Other>
  requires(!std::same_as<Other, Text>) explicit(std::same_as<Text, std::string>)
      basic_request_head(const basic_request_head<Other>& o)
      : method(o.method), target(o.target), version(o.version), fields(o.fields), trailers(o.trailers) {}

  Text method;
  Text target;
  http::version version;
  fields_for<Text> fields;
  fields_for<Text> trailers;  // filled at message end for chunked bodies
};
using request_head = basic_request_head<std::string>;
using request_view = basic_request_head<std::string_view>;

struct response_head {
  http::version version;
  int status = 200;
  std::string reason;  // empty: the RFC 9110 phrase is used when serializing
  http::fields fields;
  http::fields trailers;
};

// RFC 9112 §9.3: persistence. HTTP/1.1 is persistent unless "Connection: close"; HTTP/1.0 only
// with "Connection: keep-alive".
bool wants_keep_alive(const request_view& r);
bool wants_keep_alive(const response_head& r);

}  // namespace netlib::http
