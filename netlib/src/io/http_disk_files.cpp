// Theory of operation: stat() opens the path through the disk root (openat2 beneath the root,
// or the per-component walk when a link is on the way) with O_RDONLY | O_NONBLOCK (a fifo
// cannot block the thread; nginx opens files the same way) and takes fstat(2) of what it got:
// so the file whose metadata is answered is the very file whose bytes are sent, and a link
// swapped in between cannot change that. A folder without read permission is looked at with
// O_PATH (its index page may still be readable). A regular file with several names (hard links)
// is not served: 404 (its other names may be anywhere; has_other_names in disk_root.hpp).
// The cache (http::file_cache) keeps what such an open found: a folder's metadata, a small file's
// bytes (read at its first open_body), a larger file's descriptor itself (an open_file entry,
// which closes it when the last user lets go). A cached path is answered from memory while its
// entry was compared with the file less than the validity ago; after that, one fstatat(2)
// relative to the root's descriptor compares the stamp (device, inode, size, mtime, ctime): equal
// (and still one name) means the very inode that passed the checked open, unchanged since
// (file_cache::admissible keeps out small files changed too recently to tell), so the entry is
// used again (its resolved path included) and counts as compared now; any difference is a miss
// that takes the checked path again. Nothing but that inode is ever served from the cache: a file
// replaced by a link out of the root, given a second name, or deleted, is seen at the next
// comparison, and until then the old inode (which passed the checks) is what goes out.
// What stat() found waits per thread for the open_body() of the same request (taken once;
// release_pending() closes an unused descriptor after a response that had no body).
#include "netlib/io/http_disk_files.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

namespace netlib::io {

namespace {
struct pending_body {
  const http_disk_files* owner = nullptr;
  std::string path;
  std::shared_ptr<const http::cached_file> hit;  // stat() answered from the cache
  unique_fd fd;                                  // stat() opened a small file (a miss)
  std::uint64_t size = 0;
  std::optional<std::string> resolved;  // where a link led (kept with the file in the cache)
  clock_reading opened;                 // when stat() opened it
};
thread_local pending_body http_pending;  // set by stat(), taken by the next open_body() of the same path

// A larger file kept open in the cache: the entry owns its descriptor.
struct open_file final : http::cached_file {
  open_file() = default;
  open_file(const open_file&) = delete;
  open_file& operator=(const open_file&) = delete;
  ~open_file() {
    if (descriptor >= 0) ::close(descriptor);
  }
};

wall_time wall_time_of(const timespec& t) {
  return wall_time(std::chrono::seconds(t.tv_sec) + std::chrono::nanoseconds(t.tv_nsec));
}

http::file_stamp stamp_of(const struct stat& st) {
  return {static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino),
          static_cast<std::uint64_t>(st.st_size), wall_time_of(st.st_mtim), wall_time_of(st.st_ctim)};
}

http::file_info info_of(const struct stat& st) {
  return {S_ISDIR(st.st_mode), static_cast<std::uint64_t>(st.st_size),
          std::chrono::sys_seconds{std::chrono::seconds{st.st_mtim.tv_sec}}};
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

void set_pending(pending_body& pending, const http_disk_files* owner, std::string_view path) {
  pending.owner = owner;
  pending.path.assign(path);  // the string keeps its memory from request to request
}

constexpr int body_flags = O_RDONLY | O_NONBLOCK | O_NOCTTY;
}  // namespace

http_disk_files::http_disk_files(const std::string& root, cache_options cache, disk_root::options root_options)
    : root_(root, {.links = link_policy::inside_root, .use_openat2 = root_options.use_openat2}),
      cache_(cache.bytes, cache.file_bytes, cache.settle, cache.valid, cache.max_open) {}

void http_disk_files::release_pending() noexcept {
  pending_body& pending = http_pending;  // one look-up of the thread's copy
  pending.owner = nullptr;
  pending.hit.reset();
  pending.fd.reset();
  pending.resolved.reset();
}

// The cache's entry for `path` when it is fresh, or when one fstatat finds its stamp unchanged;
// nullptr otherwise.
std::shared_ptr<const http::cached_file> http_disk_files::cached(std::string_view path, time_point now) {
  {
    std::lock_guard lock(mutex_);
    if (auto hit = cache_.fresh(path, now)) return hit;
    if (!cache_.contains(path)) return nullptr;
  }
  char name[4096];  // fstatat wants a terminated string; paths come from request targets (< 8 KiB)
  if (path.size() >= sizeof name) return nullptr;
  path.copy(name, path.size());
  name[path.size()] = '\0';
  struct stat st {};
  // A file given a second name (hard link) since is a miss: the checked open refuses it.
  const bool found = ::fstatat(root_.fd(), path.empty() ? "." : name, &st, 0) == 0 && !has_other_names(st);
  std::lock_guard lock(mutex_);
  if (!found) {
    cache_.erase(path);
    return nullptr;
  }
  return cache_.find(path, stamp_of(st), now);
}

std::optional<http::file_info> http_disk_files::stat(std::string_view path, const clock_reading& now) {
  release_pending();
  pending_body& pending = http_pending;
  if (auto hit = cached(path, now.mono)) {
    set_pending(pending, this, path);
    pending.hit = std::move(hit);
    return pending.hit->info;
  }
  auto f = root_.open(path, body_flags);
  if (!f.fd && f.error == EACCES) f = root_.open(path, O_PATH | O_DIRECTORY);
  if (!f.fd) return std::nullopt;
  struct stat st {};
  if (::fstat(f.fd.get(), &st) != 0) return std::nullopt;
  if (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode)) return std::nullopt;  // no devices, fifos
  if (has_other_names(st)) return std::nullopt;  // a hard link: its other names may be anywhere
  http::file_info info = info_of(st);
  if (f.via_link) info.resolved = std::move(f.resolved);
  if (info.is_directory) {  // a folder has no content: its stamp is all there is to check
    auto dir = std::make_shared<const http::cached_file>(http::cached_file{stamp_of(st), info, {}, -1});
    std::lock_guard lock(mutex_);
    cache_.put(path, std::move(dir), now.wall, now.mono);
    return info;
  }
  set_pending(pending, this, path);
  if (info.size > cache_.max_file_bytes()) {  // kept open in the cache, when it may be
    auto file = std::make_shared<open_file>();
    file->stamp = stamp_of(st);
    file->info = info;
    file->descriptor = f.fd.release();
    std::shared_ptr<const http::cached_file> entry = std::move(file);
    {
      std::lock_guard lock(mutex_);
      cache_.put(path, entry, now.wall, now.mono);  // else it serves this response only
    }
    pending.hit = std::move(entry);
    return info;
  }
  pending.fd = std::move(f.fd);
  pending.size = info.size;
  pending.resolved = info.resolved;
  pending.opened = now;
  return info;
}

// The content of an opened small file, stamped from the descriptor itself (with where a link led);
// stored when admissible.
std::shared_ptr<const http::cached_file> http_disk_files::load(std::string_view path, int fd,
                                                               std::optional<std::string> resolved,
                                                               const clock_reading& now) {
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || static_cast<std::uint64_t>(st.st_size) > cache_.max_file_bytes())
    return nullptr;
  http::cached_file file{stamp_of(st), info_of(st), {}, -1};
  file.info.resolved = std::move(resolved);
  if (!read_whole(fd, file.content, static_cast<std::size_t>(st.st_size))) return nullptr;
  auto shared = std::make_shared<const http::cached_file>(std::move(file));
  std::lock_guard lock(mutex_);
  cache_.put(path, shared, now.wall, now.mono);
  return shared;
}

http_disk_files::body http_disk_files::open_body(std::string_view path) {
  pending_body& pending = http_pending;
  if (pending.owner == this && pending.hit && pending.path == path) {  // the usual case: a cache hit
    body b{std::move(pending.hit), {}};
    release_pending();
    return b;
  }
  pending_body r;
  if (pending.owner == this && pending.path == path) {
    r.owner = this;
    r.fd = std::move(pending.fd);
    r.size = pending.size;
    r.resolved = std::move(pending.resolved);
    r.opened = pending.opened;
  }
  release_pending();
  if (r.owner == nullptr) {  // no stat() before: the checked open now, not cached
    auto f = root_.open(path, body_flags);
    struct stat st {};
    if (!f.fd || ::fstat(f.fd.get(), &st) != 0 || !S_ISREG(st.st_mode) || has_other_names(st)) return {};
    return {nullptr, std::move(f.fd)};
  }
  if (!r.fd) return {};
  if (r.size > cache_.max_file_bytes()) return {nullptr, std::move(r.fd)};
  if (auto loaded = load(path, r.fd.get(), std::move(r.resolved), r.opened)) return {std::move(loaded), {}};
  return {nullptr, std::move(r.fd)};
}

std::optional<std::string> http_disk_files::real_folder(std::string_view path) const {
  auto f = root_.open(path, O_PATH | O_DIRECTORY);
  if (!f.fd) return std::nullopt;
  return f.via_link ? std::move(f.resolved) : std::string(path);
}

}  // namespace netlib::io
