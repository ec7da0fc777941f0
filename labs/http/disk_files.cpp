// Theory of operation: resolve() joins root + "/" + path, asks realpath(3) for the canonical
// name (following every symbolic link), and accepts it only when it is the root itself or starts
// with root + "/". open_read() opens the resolved name with O_NOFOLLOW, so a link swapped in
// between resolve and open is refused too. stat() and the open_read() that follows it for the
// same request share one resolution (kept per thread, used once), so a request costs one realpath.
#include "disk_files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>

#include "netlib/app/program.hpp"

namespace lab_http {

namespace {
struct resolution {
  const disk_files* owner = nullptr;
  std::string path, real;
};
thread_local resolution last_stat;  // set by stat(), taken by the next open_read() of the same path
}  // namespace

disk_files::disk_files(const std::string& root) {
  char buf[PATH_MAX];
  if (!::realpath(root.c_str(), buf)) throw netlib::app::usage_error("--root " + root + ": no such directory");
  struct stat st {};
  if (::stat(buf, &st) != 0 || !S_ISDIR(st.st_mode)) throw netlib::app::usage_error("--root " + root + ": not a directory");
  root_ = buf;
  if (root_ == "/") root_.clear();  // root "/" : every path starts with "/"
}

std::optional<std::string> disk_files::resolve(std::string_view path) const {
  const std::string joined = path.empty() ? (root_.empty() ? "/" : root_) : root_ + "/" + std::string(path);
  if (joined.size() >= PATH_MAX) return std::nullopt;
  char buf[PATH_MAX];
  if (!::realpath(joined.c_str(), buf)) return std::nullopt;
  const std::string_view real(buf);
  if (real == (root_.empty() ? "/" : root_)) return std::string(real);
  if (real.size() > root_.size() && real.substr(0, root_.size()) == root_ && real[root_.size()] == '/')
    return std::string(real);
  return std::nullopt;  // a symbolic link out of the root
}

std::optional<netlib::http::file_info> disk_files::stat(std::string_view path) {
  const auto real = resolve(path);
  if (!real) return std::nullopt;
  last_stat = {this, std::string(path), *real};
  struct stat st {};
  if (::stat(real->c_str(), &st) != 0) return std::nullopt;
  if (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode)) return std::nullopt;  // no devices, fifos
  if (S_ISREG(st.st_mode) && ::access(real->c_str(), R_OK) != 0) return std::nullopt;
  return netlib::http::file_info{S_ISDIR(st.st_mode), static_cast<std::uint64_t>(st.st_size),
                                 static_cast<std::int64_t>(st.st_mtim.tv_sec)};
}

int disk_files::open_read(std::string_view path) const {
  std::optional<std::string> real;
  if (last_stat.owner == this && last_stat.path == path) real = std::move(last_stat.real);
  else real = resolve(path);
  last_stat.owner = nullptr;
  if (!real) return -1;
  return ::open(real->c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
}

}  // namespace lab_http
