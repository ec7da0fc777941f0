// Theory of operation: stat() opens the path through the disk root (openat2 beneath the root,
// or the per-component walk when a link is on the way) with O_RDONLY | O_NONBLOCK (a fifo
// cannot block the thread; nginx opens files the same way) and takes fstat(2) of what it got:
// so the file whose metadata is answered is the very file whose bytes are sent, and a link
// swapped in between cannot change that. A regular file's descriptor is kept per thread for the
// open_body() of the same request (used once; release_pending() closes it after a response that
// had no body). A folder without read permission is looked at with O_PATH (its index page may
// still be readable).
// The cache: a file or folder already in the file_cache is revalidated by one fstatat(2)
// relative to the root's descriptor; when its stamp (device, inode, size, mtime, ctime) equals the
// stored one, it is the very inode that passed the checked open and was read, unchanged since
// (file_cache::admissible keeps out files changed too recently to tell), so stat() answers from
// memory (its resolved path included) and open_body() hands out the stored bytes: a hit is one
// system call. Any difference is a miss that takes the checked path again.
#include "netlib/io/http_disk_files.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <ctime>

namespace netlib::io {

namespace {
struct pending_body {
  const http_disk_files* owner = nullptr;
  std::string path;
  std::shared_ptr<const http::cached_file> hit;  // stat() answered from the cache
  unique_fd fd;                                   // stat() opened the file (a miss)
  std::uint64_t size = 0;
  std::optional<std::string> resolved;  // where a link led (kept with the file in the cache)
};
thread_local pending_body http_pending;  // set by stat(), taken by the next open_body() of the same path

http::file_stamp stamp_of(const struct stat& st) {
  return {static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino),
          static_cast<std::uint64_t>(st.st_size), st.st_mtim.tv_sec * 1'000'000'000LL + st.st_mtim.tv_nsec,
          st.st_ctim.tv_sec * 1'000'000'000LL + st.st_ctim.tv_nsec};
}

http::file_info info_of(const struct stat& st) {
  return {S_ISDIR(st.st_mode), static_cast<std::uint64_t>(st.st_size), static_cast<std::int64_t>(st.st_mtim.tv_sec)};
}

std::int64_t realtime_ns() {
  timespec ts{};
  ::clock_gettime(CLOCK_REALTIME, &ts);
  return ts.tv_sec * 1'000'000'000LL + ts.tv_nsec;
}

// Reads exactly `size` bytes from the start of fd; false when the file is shorter.
bool read_whole(int fd, std::string& out, std::size_t size) {
  out.resize(size);
  std::size_t have = 0;
  while (have < size) {
    const ssize_t n = ::pread(fd, out.data() + have, size - have, static_cast<off_t>(have));
    if (n <= 0) return false;
    have += static_cast<std::size_t>(n);
  }
  return true;
}

constexpr int body_flags = O_RDONLY | O_NONBLOCK | O_NOCTTY;
}  // namespace

http_disk_files::http_disk_files(const std::string& root, std::size_t cache_bytes, std::int64_t settle_ns,
                                 std::size_t cache_file_bytes, disk_root::options root_options)
    : root_(root, {.links = link_policy::inside_root, .use_openat2 = root_options.use_openat2}),
      cache_(cache_bytes, cache_file_bytes, settle_ns) {}

void http_disk_files::release_pending() noexcept {
  http_pending.owner = nullptr;
  http_pending.hit.reset();
  http_pending.fd.reset();
  http_pending.resolved.reset();
}

// The cached answer when `path` has an entry whose stamp still matches; nullopt otherwise.
std::optional<http::file_info> http_disk_files::stat_cached(const std::string& path) {
  {
    std::lock_guard lock(mutex_);
    if (!cache_.contains(path)) return std::nullopt;
  }
  struct stat st {};
  if (::fstatat(root_.fd(), path.empty() ? "." : path.c_str(), &st, 0) != 0) return std::nullopt;
  std::shared_ptr<const http::cached_file> hit;
  {
    std::lock_guard lock(mutex_);
    hit = cache_.find(path, stamp_of(st));
  }
  if (!hit) return std::nullopt;
  http_pending.owner = this;
  http_pending.path = path;
  http_pending.hit = hit;
  return hit->info;
}

std::optional<http::file_info> http_disk_files::stat(std::string_view path_view) {
  std::string path(path_view);
  release_pending();
  if (auto cached = stat_cached(path)) return cached;
  auto f = root_.open(path, body_flags);
  if (!f.fd && f.error == EACCES) f = root_.open(path, O_PATH | O_DIRECTORY);
  if (!f.fd) return std::nullopt;
  struct stat st {};
  if (::fstat(f.fd.get(), &st) != 0) return std::nullopt;
  if (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode)) return std::nullopt;  // no devices, fifos
  http::file_info info = info_of(st);
  if (f.via_link) info.resolved = std::move(f.resolved);
  if (info.is_directory) {  // a folder has no content: its stamp is all there is to check
    auto dir = std::make_shared<const http::cached_file>(http::cached_file{stamp_of(st), info, {}});
    std::lock_guard lock(mutex_);
    cache_.put(path, std::move(dir), realtime_ns());
    return info;
  }
  http_pending.owner = this;
  http_pending.path = std::move(path);
  http_pending.fd = std::move(f.fd);
  http_pending.size = info.size;
  http_pending.resolved = info.resolved;
  return info;
}

// The content of an opened small file, stamped from the descriptor itself (with where a link led);
// stored when admissible.
std::shared_ptr<const http::cached_file> http_disk_files::load(const std::string& path, int fd,
                                                               std::optional<std::string> resolved) {
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || static_cast<std::uint64_t>(st.st_size) > cache_.max_file_bytes())
    return nullptr;
  http::cached_file file{stamp_of(st), info_of(st), {}};
  file.info.resolved = std::move(resolved);
  if (!read_whole(fd, file.content, static_cast<std::size_t>(st.st_size))) return nullptr;
  auto shared = std::make_shared<const http::cached_file>(std::move(file));
  std::lock_guard lock(mutex_);
  cache_.put(path, shared, realtime_ns());
  return shared;
}

http_disk_files::body http_disk_files::open_body(std::string_view path) {
  pending_body r;
  if (http_pending.owner == this && http_pending.path == path) r = std::move(http_pending);
  release_pending();
  if (r.hit) return {std::move(r.hit), {}};
  if (r.owner == nullptr) {  // no stat() before: the checked open now
    auto f = root_.open(path, body_flags);
    struct stat st {};
    if (!f.fd || ::fstat(f.fd.get(), &st) != 0 || !S_ISREG(st.st_mode)) return {};
    r = {this, std::string(path), {}, std::move(f.fd), static_cast<std::uint64_t>(st.st_size), {}};
    if (f.via_link) r.resolved = std::move(f.resolved);
  }
  if (r.size > cache_.max_file_bytes()) return {nullptr, std::move(r.fd)};
  if (auto loaded = load(r.path, r.fd.get(), std::move(r.resolved))) return {std::move(loaded), {}};
  return {nullptr, std::move(r.fd)};
}

std::optional<std::string> http_disk_files::real_folder(std::string_view path) const {
  auto f = root_.open(path, O_PATH | O_DIRECTORY);
  if (!f.fd) return std::nullopt;
  return f.via_link ? std::move(f.resolved) : std::string(path);
}

}  // namespace netlib::io
