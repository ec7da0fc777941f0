// Theory of operation: every operation opens the folder holding the path's last component
// through the disk root (disk_root::open_parent, link_policy::refuse: openat2 beneath the root
// with no links, or openat(O_DIRECTORY|O_NOFOLLOW) per component where the kernel has no
// openat2) and acts on the last component with the *at() calls and AT_SYMLINK_NOFOLLOW /
// O_NOFOLLOW, so neither ".." (already removed by the session) nor a symbolic link anywhere in
// the path can lead outside the root. Symbolic links are reported as not found and left out of
// listings. Uploads: open_write() creates ".netlab-upload.<pid>.<n>" next to the target (copying
// the kept prefix for APPE/REST), commit() renames it over the target (atomic on one file
// system), or with existing_file::keep renames it only if the name is still free
// (renameat2(RENAME_NOREPLACE), or linkat(2) where the file system lacks it: both fail with
// EEXIST rather than replace), and the destructor of an uncommitted writer unlinks it.
#include "netlib/io/ftp_disk_file_system.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>

#include "netlib/io/asio.hpp"

namespace netlib::io {

using ftp::fs_status;

namespace {
fs_status from_errno(int e) {
  switch (e) {
    case ENOENT:
      return fs_status::not_found;
    case ELOOP:
      return fs_status::not_found;  // a symbolic link: refused as if absent
    case EXDEV:
      return fs_status::not_found;
    case ENOTDIR:
      return fs_status::not_a_directory;
    case EISDIR:
      return fs_status::is_a_directory;
    case EEXIST:
      return fs_status::exists;
    case ENOTEMPTY:
      return fs_status::not_empty;
    case EACCES:
    case EPERM:
    case EROFS:
      return fs_status::denied;
    default:
      return fs_status::io_error;
  }
}

ftp::file_info info_of(const std::string& name, const struct stat& st) {
  return ftp::file_info{name, S_ISDIR(st.st_mode), S_ISDIR(st.st_mode) ? 0 : static_cast<std::uint64_t>(st.st_size),
                        std::chrono::sys_seconds{std::chrono::seconds{st.st_mtim.tv_sec}}};
}

fs_status stat_at(int dir, const std::string& name, struct stat& st) {
  if (::fstatat(dir, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) return from_errno(errno);
  if (S_ISLNK(st.st_mode) || !(S_ISDIR(st.st_mode) || S_ISREG(st.st_mode))) return fs_status::not_found;
  return fs_status::ok;
}

// Renames `from` to `to` in `dir` only when `to` does not exist; 0 or an errno (EEXIST).
int rename_no_replace(int dir, const std::string& from, const std::string& to) {
#ifdef RENAME_NOREPLACE
  if (::renameat2(dir, from.c_str(), dir, to.c_str(), RENAME_NOREPLACE) == 0) return 0;
  if (errno != EINVAL && errno != ENOSYS) return errno;
#endif
  if (::linkat(dir, from.c_str(), dir, to.c_str(), 0) != 0) return errno;
  ::unlinkat(dir, from.c_str(), 0);
  return 0;
}

class disk_reader final : public ftp::file_reader {
 public:
  explicit disk_reader(unique_fd fd) : fd_(std::move(fd)) {}
  std::ptrdiff_t read(std::span<std::byte> buffer) override {
    ssize_t n;
    do n = ::read(fd_.get(), buffer.data(), buffer.size());
    while (n < 0 && errno == EINTR);
    return n;
  }
  [[nodiscard]] int descriptor() const noexcept override { return fd_.get(); }

 private:
  unique_fd fd_;
};

class disk_writer final : public ftp::file_writer {
 public:
  disk_writer(unique_fd dir, unique_fd fd, std::string temp, std::string target, ftp::existing_file existing)
      : dir_(std::move(dir)),
        fd_(std::move(fd)),
        temp_(std::move(temp)),
        target_(std::move(target)),
        existing_(existing) {}
  ~disk_writer() override {
    fd_.reset();
    if (!committed_) ::unlinkat(dir_.get(), temp_.c_str(), 0);  // not stored at all
  }
  disk_writer(const disk_writer&) = delete;
  disk_writer& operator=(const disk_writer&) = delete;
  bool write(byte_view data) override {
    while (!data.empty()) {
      const ssize_t n = ::write(fd_.get(), data.data(), data.size());
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return false;
      data = data.subspan(static_cast<std::size_t>(n));
    }
    return true;
  }
  bool commit() override {
    const bool flushed = ::fsync(fd_.get()) == 0;
    if (::close(fd_.release()) != 0 || !flushed) return false;
    if (existing_ == ftp::existing_file::keep) {
      if (rename_no_replace(dir_.get(), temp_, target_) != 0) return false;
    } else if (::renameat(dir_.get(), temp_.c_str(), dir_.get(), target_.c_str()) != 0) {
      return false;
    }
    committed_ = true;
    return true;
  }

 private:
  unique_fd dir_;
  unique_fd fd_;
  std::string temp_;
  std::string target_;
  ftp::existing_file existing_;
  bool committed_ = false;
};

bool copy_prefix(int from, int to, std::uint64_t limit) {
  std::byte buf[65536];
  while (limit > 0) {
    const ssize_t n = ::read(from, buf, static_cast<std::size_t>(std::min<std::uint64_t>(sizeof buf, limit)));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    if (n == 0) return true;
    for (ssize_t off = 0; off < n;) {
      const ssize_t w = ::write(to, buf + off, static_cast<std::size_t>(n - off));
      if (w <= 0) return false;
      off += w;
    }
    limit -= static_cast<std::uint64_t>(n);
  }
  return true;
}
}  // namespace

ftp_disk_file_system::ftp_disk_file_system(const std::string& root, disk_root::options root_options)
    : root_(root, {.links = link_policy::refuse, .use_openat2 = root_options.use_openat2}) {}

unique_fd ftp_disk_file_system::open_parent(const std::string& path, std::string& name, fs_status& status) const {
  auto r = root_.open_parent(path, name);
  status = r.fd ? fs_status::ok : from_errno(r.error);
  return std::move(r.fd);
}

unique_fd ftp_disk_file_system::open_parent_and_stat(const std::string& path, std::string& name, struct stat& st,
                                                     fs_status& status) const {
  unique_fd dir = open_parent(path, name, status);
  if (dir && (status = stat_at(dir.get(), name, st)) != fs_status::ok) dir.reset();
  return dir;
}

fs_status ftp_disk_file_system::stat(const std::string& path, ftp::file_info& out) {
  std::string name;
  struct stat st {};
  fs_status s;
  if (!open_parent_and_stat(path, name, st, s)) return s;
  if (has_other_names(st)) return fs_status::denied;  // a hard link: not served (disk_root.hpp)
  out = info_of(name == "." ? "" : name, st);
  return fs_status::ok;
}

fs_status ftp_disk_file_system::list(const std::string& path, std::vector<ftp::file_info>& out) {
  std::string name;
  fs_status s;
  const unique_fd parent = open_parent(path, name, s);
  if (!parent) return s;
  unique_fd fd(::openat(parent.get(), name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (!fd) return from_errno(errno);
  DIR* d = ::fdopendir(fd.get());
  if (d == nullptr) return fs_status::io_error;
  fd.release();  // closedir closes it
  out.clear();
  while (const dirent* e = ::readdir(d)) {
    const std::string n = e->d_name;
    if (n == "." || n == ".." || n.starts_with(temp_prefix)) continue;
    struct stat st {};
    if (stat_at(::dirfd(d), n, st) == fs_status::ok && !has_other_names(st))
      out.push_back(info_of(n, st));  // no symbolic links, no hard links
  }
  ::closedir(d);
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return fs_status::ok;
}

fs_status ftp_disk_file_system::make_directory(const std::string& path) {
  std::string name;
  fs_status s;
  const unique_fd dir = open_parent(path, name, s);
  if (!dir) return s;
  return ::mkdirat(dir.get(), name.c_str(), 0755) == 0 ? fs_status::ok : from_errno(errno);
}

fs_status ftp_disk_file_system::remove_directory(const std::string& path) {
  std::string name;
  fs_status s;
  const unique_fd dir = open_parent(path, name, s);
  if (!dir) return s;
  if (name == ".") return fs_status::denied;
  struct stat st {};
  if ((s = stat_at(dir.get(), name, st)) != fs_status::ok) return s;
  if (!S_ISDIR(st.st_mode)) return fs_status::not_a_directory;
  return ::unlinkat(dir.get(), name.c_str(), AT_REMOVEDIR) == 0 ? fs_status::ok : from_errno(errno);
}

fs_status ftp_disk_file_system::remove_file(const std::string& path) {
  std::string name;
  struct stat st {};
  fs_status s;
  const unique_fd dir = open_parent_and_stat(path, name, st, s);
  if (!dir) return s;
  if (S_ISDIR(st.st_mode)) return fs_status::is_a_directory;
  return ::unlinkat(dir.get(), name.c_str(), 0) == 0 ? fs_status::ok : from_errno(errno);
}

fs_status ftp_disk_file_system::rename(const std::string& from, const std::string& to) {
  std::string from_name, to_name;
  fs_status s;
  const unique_fd a = open_parent(from, from_name, s);
  if (!a) return s;
  const unique_fd b = open_parent(to, to_name, s);
  if (!b) return s;
  struct stat st {};
  if ((s = stat_at(a.get(), from_name, st)) != fs_status::ok) return s;
  if (from_name == "." || to_name == ".") return fs_status::denied;
  if (::fstatat(b.get(), to_name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0) return fs_status::exists;
  return ::renameat(a.get(), from_name.c_str(), b.get(), to_name.c_str()) == 0 ? fs_status::ok : from_errno(errno);
}

std::unique_ptr<ftp::file_reader> ftp_disk_file_system::open_read(const std::string& path, std::uint64_t offset,
                                                                  fs_status& status) {
  std::string name;
  const unique_fd dir = open_parent(path, name, status);
  if (!dir) return nullptr;
  unique_fd fd(::openat(dir.get(), name.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
  if (!fd) {
    status = from_errno(errno);
    return nullptr;
  }
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode)) {
    status = S_ISDIR(st.st_mode) ? fs_status::is_a_directory : fs_status::not_found;
    return nullptr;
  }
  if (has_other_names(st)) {  // its other names may be outside the root
    status = fs_status::denied;
    return nullptr;
  }
  if (offset > 0 && ::lseek(fd.get(), static_cast<off_t>(offset), SEEK_SET) < 0) {
    status = fs_status::io_error;
    return nullptr;
  }
  return std::make_unique<disk_reader>(std::move(fd));
}

std::unique_ptr<ftp::file_writer> ftp_disk_file_system::open_write(const std::string& path, bool append,
                                                                   std::uint64_t offset, ftp::existing_file existing,
                                                                   fs_status& status) {
  static std::atomic<unsigned long> counter{0};
  std::string name;
  unique_fd dir = open_parent(path, name, status);
  if (!dir) return nullptr;
  struct stat st {};
  const fs_status found = stat_at(dir.get(), name, st);
  if (name == "." || (found == fs_status::ok && S_ISDIR(st.st_mode))) {
    status = fs_status::is_a_directory;
    return nullptr;
  }
  const std::string temp = std::string(temp_prefix) + std::to_string(::getpid()) + "." + std::to_string(++counter);
  unique_fd fd(::openat(dir.get(), temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644));
  if (!fd) {
    status = from_errno(errno);
    return nullptr;
  }
  const int fd_raw = fd.get();
  const int dir_raw = dir.get();
  auto writer = std::make_unique<disk_writer>(std::move(dir), std::move(fd), temp, name, existing);
  if (found == fs_status::ok && (append || offset > 0)) {  // keep the prefix (APPE, REST+STOR)
    const unique_fd old(::openat(dir_raw, name.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
    struct stat old_st {};
    if (old && (::fstat(old.get(), &old_st) != 0 || has_other_names(old_st))) {
      status = fs_status::denied;  // its content would come from a file whose other names may be anywhere
      return nullptr;
    }
    if (!old || !copy_prefix(old.get(), fd_raw, append ? UINT64_MAX : offset)) {
      status = fs_status::io_error;
      return nullptr;  // the writer's destructor removes the temporary file
    }
  }
  status = fs_status::ok;
  return writer;
}

}  // namespace netlib::io
