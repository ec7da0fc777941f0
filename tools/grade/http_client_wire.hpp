#pragma once
// The HTTP requests a client sent through the relay, parsed with netlib::http's request parser,
// each paired with the status and validators of the reference server's response.
#include <optional>
#include <string>
#include <vector>

#include "netlib/http/message.hpp"
#include "wire_relay.hpp"

namespace netlab::grade {

struct client_request {
  std::size_t connection = 0;  // index of the conversation it came on
  std::string raw_head;        // the request head as sent (up to the empty line)
  netlib::http::request_head head;
  std::optional<int> status;  // the response's status, when one came back
  std::string etag;           // the response's validators
  std::string last_modified;
};

struct client_requests {
  std::vector<client_request> requests;
  std::string error;        // the first unparsable request: why, and on which connection
  std::string error_bytes;  // the bytes it was found in
};

client_requests parse_client_requests(const std::vector<conversation>& conversations);

}  // namespace netlab::grade
