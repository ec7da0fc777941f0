// Theory of operation: virtual paths are absolute and normalized. normalize_path() splits the
// argument at '/', applies "." and ".." lexically over the current directory (".." at the root
// stays at the root), so every path a session hands the file system lies inside its root; the
// disk implementation additionally refuses symbolic links.
#include <vector>

#include "netlib/ftp/file_system.hpp"

namespace netlib::ftp {

std::string_view describe(fs_status s) {
  switch (s) {
    case fs_status::ok:
      return "ok";
    case fs_status::not_found:
      return "No such file or directory";
    case fs_status::not_a_directory:
      return "Not a directory";
    case fs_status::is_a_directory:
      return "Is a directory";
    case fs_status::exists:
      return "File exists";
    case fs_status::not_empty:
      return "Directory not empty";
    case fs_status::denied:
      return "Permission denied";
    case fs_status::io_error:
      return "Input/output error";
  }
  return "error";
}

std::string join_path(std::string_view dir, std::string_view name) {
  std::string out(dir);
  if (out.empty() || out.back() != '/') out += '/';
  out += name;
  return out;
}

std::string parent_path(std::string_view path) {
  const std::size_t slash = path.rfind('/');
  if (slash == std::string_view::npos || slash == 0) return "/";
  return std::string(path.substr(0, slash));
}

std::string base_name(std::string_view path) {
  const std::size_t slash = path.rfind('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

std::string normalize_path(std::string_view cwd, std::string_view argument) {
  if (argument.find('\0') != std::string_view::npos) return {};
  std::vector<std::string_view> parts;
  auto walk = [&parts](std::string_view s) {
    std::size_t start = 0;
    for (std::size_t i = 0; i <= s.size(); ++i) {
      if (i < s.size() && s[i] != '/') continue;
      const std::string_view part = s.substr(start, i - start);
      start = i + 1;
      if (part.empty() || part == ".") continue;
      if (part == "..") {
        if (!parts.empty()) parts.pop_back();
        continue;
      }
      parts.push_back(part);
    }
  };
  if (argument.empty() || argument.front() != '/') walk(cwd);
  walk(argument);
  std::string out;
  for (auto p : parts) {
    out += '/';
    out += p;
  }
  return out.empty() ? "/" : out;
}

}  // namespace netlib::ftp
