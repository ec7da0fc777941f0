// Theory of operation: resolve() joins root + "/" + path, asks realpath(3) for the canonical
// name (following every symbolic link), and accepts it only when it is the root itself or starts
// with root + "/". Opening uses the resolved name with O_NOFOLLOW, so a link swapped in between
// resolve and open is refused too. stat() and the open_body() that follows it for the same request
// share one resolution (kept per thread, used once), so a miss costs one realpath.
// The cache: a file or directory already in the file_cache is revalidated by one fstatat(2)
// relative to the root's descriptor; when its stamp (device, inode, size, mtime, ctime) equals the
// stored one, it is the very inode that passed the realpath check and was read, unchanged since
// (file_cache::admissible keeps out files changed too recently to tell), so stat() answers from
// memory and open_body() hands out the stored bytes: a hit is one system call. Any difference is
// a miss that takes the checked path again and refreshes the entry from the opened descriptor.
#include "disk_files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <ctime>

#include "netlib/app/program.hpp"

namespace lab_http {

namespace http = netlib::http;

namespace {
struct disk_resolution {
  const disk_files* owner = nullptr;
  std::string path, real;
  std::shared_ptr<const http::cached_file> hit;  // stat() answered from the cache
  std::uint64_t size = 0;                         // stat()'s size, on a miss
};
thread_local disk_resolution disk_last_stat;  // set by stat(), taken by the next open_body() of the same path

http::file_stamp disk_stamp_of(const struct stat& st) {
  return {static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino),
          static_cast<std::uint64_t>(st.st_size), st.st_mtim.tv_sec * 1'000'000'000LL + st.st_mtim.tv_nsec,
          st.st_ctim.tv_sec * 1'000'000'000LL + st.st_ctim.tv_nsec};
}

http::file_info disk_info_of(const struct stat& st) {
  return {S_ISDIR(st.st_mode), static_cast<std::uint64_t>(st.st_size), static_cast<std::int64_t>(st.st_mtim.tv_sec)};
}

std::int64_t disk_files_now_ns() {
  timespec ts{};
  ::clock_gettime(CLOCK_REALTIME, &ts);
  return ts.tv_sec * 1'000'000'000LL + ts.tv_nsec;
}

// Reads exactly `size` bytes from the start of fd; false when the file is shorter.
bool disk_read_whole(int fd, std::string& out, std::size_t size) {
  out.resize(size);
  std::size_t have = 0;
  while (have < size) {
    const ssize_t n = ::pread(fd, out.data() + have, size - have, static_cast<off_t>(have));
    if (n <= 0) return false;
    have += static_cast<std::size_t>(n);
  }
  return true;
}
}  // namespace

disk_files::disk_files(const std::string& root, std::size_t cache_bytes, std::int64_t settle_ns,
                       std::size_t cache_file_bytes)
    : cache_(cache_bytes, cache_file_bytes, settle_ns) {
  char buf[PATH_MAX];
  if (!::realpath(root.c_str(), buf)) throw netlib::app::usage_error("--root " + root + ": no such directory");
  struct stat st {};
  if (::stat(buf, &st) != 0 || !S_ISDIR(st.st_mode)) throw netlib::app::usage_error("--root " + root + ": not a directory");
  root_ = buf;
  root_fd_ = ::open(buf, O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (root_fd_ < 0) throw netlib::app::usage_error("--root " + root + ": cannot open the directory");
  if (root_ == "/") root_.clear();  // root "/" : every path starts with "/"
}

disk_files::~disk_files() {
  if (root_fd_ >= 0) ::close(root_fd_);
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

// The cached answer when `path` has an entry whose stamp still matches; nullopt otherwise.
std::optional<http::file_info> disk_files::stat_cached(const std::string& path) {
  {
    std::lock_guard lock(mutex_);
    if (!cache_.contains(path)) return std::nullopt;
  }
  struct stat st {};
  if (::fstatat(root_fd_, path.empty() ? "." : path.c_str(), &st, 0) != 0) return std::nullopt;
  std::shared_ptr<const http::cached_file> hit;
  {
    std::lock_guard lock(mutex_);
    hit = cache_.find(path, disk_stamp_of(st));
  }
  if (!hit) return std::nullopt;
  disk_last_stat = {this, path, {}, hit, 0};
  return hit->info;
}

std::optional<http::file_info> disk_files::stat(std::string_view path_view) {
  std::string path(path_view);
  disk_last_stat.owner = nullptr;
  if (auto cached = stat_cached(path)) return cached;
  auto real = resolve(path);
  if (!real) return std::nullopt;
  struct stat st {};
  if (::stat(real->c_str(), &st) != 0) return std::nullopt;
  if (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode)) return std::nullopt;  // no devices, fifos
  if (S_ISREG(st.st_mode) && ::access(real->c_str(), R_OK) != 0) return std::nullopt;
  const http::file_info info = disk_info_of(st);
  if (info.is_directory) {  // a directory entry has no content: its stamp is all there is to check
    auto dir = std::make_shared<const http::cached_file>(http::cached_file{disk_stamp_of(st), info, {}});
    std::lock_guard lock(mutex_);
    cache_.put(path, std::move(dir), disk_files_now_ns());
  }
  disk_last_stat = {this, std::move(path), std::move(*real), {}, info.size};
  return info;
}

// The content of an opened small file, stamped from the descriptor itself; stored when admissible.
std::shared_ptr<const http::cached_file> disk_files::load(const std::string& path, int fd) {
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || static_cast<std::uint64_t>(st.st_size) > cache_.max_file_bytes())
    return nullptr;
  http::cached_file file{disk_stamp_of(st), disk_info_of(st), {}};
  if (!disk_read_whole(fd, file.content, static_cast<std::size_t>(st.st_size))) return nullptr;
  auto shared = std::make_shared<const http::cached_file>(std::move(file));
  std::lock_guard lock(mutex_);
  cache_.put(path, shared, disk_files_now_ns());
  return shared;
}

disk_files::body disk_files::open_body(std::string_view path) {
  disk_resolution r;
  if (disk_last_stat.owner == this && disk_last_stat.path == path) r = std::move(disk_last_stat);
  disk_last_stat.owner = nullptr;
  if (r.hit) return {std::move(r.hit), -1};
  if (r.owner == nullptr) {
    auto real = resolve(path);
    if (!real) return {};
    r = {this, std::string(path), std::move(*real), {}, cache_.max_file_bytes()};
  }
  const int fd = ::open(r.real.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0 || r.size > cache_.max_file_bytes()) return {nullptr, fd};
  if (auto loaded = load(r.path, fd)) {
    ::close(fd);
    return {std::move(loaded), -1};
  }
  return {nullptr, fd};
}

}  // namespace lab_http
