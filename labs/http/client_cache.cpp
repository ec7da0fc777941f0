// The client's cache folder: one metadata file of "key value" lines and one body file per URL,
// named by a 64-bit FNV-1a hash of the URL (the metadata repeats the URL, so a collision is seen
// and treated as a miss). Bodies are written to a temporary name and renamed into place.
#include "client_cache.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "netlib/app/program.hpp"

namespace lab_http {

client_cache::client_cache(std::string dir) : dir_(std::move(dir)) {
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  if (!std::filesystem::is_directory(dir_))
    throw netlib::app::usage_error("--cache " + dir_ + ": cannot create the folder");
}

std::string client_cache::stem(const std::string& url) const {
  std::uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : url) h = (h ^ c) * 1099511628211ULL;
  return fmt::format("{}/{:016x}", dir_, h);
}

std::optional<cache_entry> client_cache::find(const std::string& url) const {
  std::ifstream meta(stem(url) + ".meta");
  if (!meta) return std::nullopt;
  cache_entry e;
  for (std::string line; std::getline(meta, line);) {
    const auto sp = line.find(' ');
    const std::string key = line.substr(0, sp), value = sp == std::string::npos ? "" : line.substr(sp + 1);
    if (key == "url")
      e.url = value;
    else if (key == "etag")
      e.etag = value;
    else if (key == "last-modified")
      e.last_modified = value;
    else if (key == "content-type")
      e.content_type = value;
  }
  if (e.url != url) return std::nullopt;
  std::ifstream body(stem(url) + ".body", std::ios::binary);
  if (!body) return std::nullopt;
  std::ostringstream s;
  s << body.rdbuf();
  e.body = s.str();
  return e;
}

bool client_cache::store(const std::string& url, const netlib::http::response_head& head,
                         const std::string& body) const {
  if (head.status != 200 || head.fields.has_token("Cache-Control", "no-store")) return false;
  const auto etag = head.fields.get("ETag");
  const auto lm = head.fields.get("Last-Modified");
  if (!etag && !lm) return false;
  const std::string base = stem(url);
  {
    std::ofstream b(base + ".body.tmp", std::ios::binary);
    b << body;
    std::ofstream m(base + ".meta.tmp");
    m << "url " << url << "\netag " << etag.value_or("") << "\nlast-modified " << lm.value_or("") << "\ncontent-type "
      << head.fields.get("Content-Type").value_or("") << "\n";
    if (!b || !m) return false;
  }
  std::filesystem::rename(base + ".body.tmp", base + ".body");
  std::filesystem::rename(base + ".meta.tmp", base + ".meta");
  return true;
}

void client_cache::add_conditions(const cache_entry& e, netlib::http::request_head& request) {
  if (!e.etag.empty()) request.fields.set("If-None-Match", e.etag);                        // RFC 9110 §13.1.2
  if (!e.last_modified.empty()) request.fields.set("If-Modified-Since", e.last_modified);  // §13.1.3
}

}  // namespace lab_http
