#pragma once
// Mapping a request target to a path under a document root without escaping it: the path part is
// percent-decoded (RFC 3986 §2.1) and normalized ("." and ".." segments, RFC 3986 §5.2.4);
// a ".." that would climb above the root, an encoded "/" or "\", and NUL are refused.
#include <optional>
#include <string>
#include <string_view>

namespace netlib::http {

struct target_path {
  std::string path;             // "dir/file.html"; "" for the root; never starts with '/'
  bool trailing_slash = false;  // the target named a directory ("/dir/")
  std::string query;            // after '?', still encoded
};

enum class target_error { malformed, escapes_root };

struct target_result {
  std::optional<target_path> value;
  target_error error = target_error::malformed;
};

// Accepts origin-form ("/a/b?q") and absolute-form ("http://h/a/b").
target_result decode_target(std::string_view target);
// The same into `out`, reusing its strings' memory (the static server decodes every request's
// target): nullopt on success, else the error; `out` is then unspecified.
std::optional<target_error> decode_target(std::string_view target, target_path& out);
std::optional<std::string> percent_decode(std::string_view s);
// A decoded path ("/dir name/") as a URI path for a Location field (RFC 3986 §2.1, §3.3): every
// byte outside pchar and "/" percent-encoded, '%' included, so CR, LF, spaces, quotes, '<' and
// non-ASCII bytes never go out raw (issue 31: a folder name injected a header).
std::string percent_encode_path(std::string_view path);

}  // namespace netlib::http
