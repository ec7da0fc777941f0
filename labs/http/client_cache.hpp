#pragma once
// `lab-http get --cache DIR`: a local cache of responses that carry a validator (ETag or
// Last-Modified). Every later request for the URL is made conditional (If-None-Match,
// If-Modified-Since); a 304 answer is served from the cache. Files: DIR/<hash>.meta and .body.
#include <optional>
#include <string>

#include "netlib/http/message.hpp"

namespace lab_http {

struct cache_entry {
  std::string url;
  std::string etag;
  std::string last_modified;
  std::string content_type;
  std::string body;
};

class client_cache {
 public:
  explicit client_cache(std::string dir);  // creates DIR when missing
  [[nodiscard]] std::optional<cache_entry> find(const std::string& url) const;
  // Stores a 200 response when it has a validator and no "Cache-Control: no-store"; returns
  // whether it was stored.
  bool store(const std::string& url, const netlib::http::response_head& head, const std::string& body) const;
  static void add_conditions(const cache_entry& e, netlib::http::request_head& request);

 private:
  [[nodiscard]] std::string stem(const std::string& url) const;
  std::string dir_;
};

}  // namespace lab_http
