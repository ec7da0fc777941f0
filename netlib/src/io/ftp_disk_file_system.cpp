// Theory of operation: every operation walks the virtual path from root_fd_ with
// openat(O_DIRECTORY|O_NOFOLLOW) per directory component and acts on the last component with the
// *at() calls and AT_SYMLINK_NOFOLLOW/O_NOFOLLOW, so neither ".." (already removed by the
// session) nor a symbolic link anywhere in the path can lead outside the root. Symbolic links are
// reported as not found and left out of listings. Uploads: open_write() creates
// ".netlab-upload.<pid>.<n>" next to the target (copying the kept prefix for APPE/REST), commit()
// renames it over the target (atomic on one file system), and the destructor of an uncommitted
// writer unlinks it.
#include "netlib/io/ftp_disk_file_system.hpp"

#include <dirent.h>
#include <fcntl.h>
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
    case ENOENT: return fs_status::not_found;
    case ELOOP: return fs_status::not_found;  // a symbolic link: refused as if absent
    case ENOTDIR: return fs_status::not_a_directory;
    case EISDIR: return fs_status::is_a_directory;
    case EEXIST: return fs_status::exists;
    case ENOTEMPTY: return fs_status::not_empty;
    case EACCES: case EPERM: case EROFS: return fs_status::denied;
    default: return fs_status::io_error;
  }
}

struct fd_guard {
  int fd;
  ~fd_guard() { if (fd >= 0) ::close(fd); }
};

ftp::file_info info_of(const std::string& name, const struct stat& st) {
  return ftp::file_info{name, S_ISDIR(st.st_mode), S_ISDIR(st.st_mode) ? 0 : static_cast<std::uint64_t>(st.st_size),
                        static_cast<std::int64_t>(st.st_mtim.tv_sec)};
}

fs_status stat_at(int dir, const std::string& name, struct stat& st) {
  if (::fstatat(dir, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) return from_errno(errno);
  if (S_ISLNK(st.st_mode) || !(S_ISDIR(st.st_mode) || S_ISREG(st.st_mode))) return fs_status::not_found;
  return fs_status::ok;
}

class disk_reader final : public ftp::file_reader {
 public:
  explicit disk_reader(int fd) : fd_(fd) {}
  ~disk_reader() override { ::close(fd_); }
  std::ptrdiff_t read(std::span<std::byte> buffer) override {
    ssize_t n;
    do n = ::read(fd_, buffer.data(), buffer.size()); while (n < 0 && errno == EINTR);
    return n;
  }

 private:
  int fd_;
};

class disk_writer final : public ftp::file_writer {
 public:
  disk_writer(int dir, int fd, std::string temp, std::string target)
      : dir_(dir), fd_(fd), temp_(std::move(temp)), target_(std::move(target)) {}
  ~disk_writer() override {
    if (fd_ >= 0) ::close(fd_);
    if (!committed_) ::unlinkat(dir_, temp_.c_str(), 0);  // not stored at all
    ::close(dir_);
  }
  bool write(byte_view data) override {
    while (!data.empty()) {
      const ssize_t n = ::write(fd_, data.data(), data.size());
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return false;
      data = data.subspan(static_cast<std::size_t>(n));
    }
    return true;
  }
  bool commit() override {
    if (::fsync(fd_) != 0 || ::close(fd_) != 0) return (fd_ = -1, false);
    fd_ = -1;
    if (::renameat(dir_, temp_.c_str(), dir_, target_.c_str()) != 0) return false;
    committed_ = true;
    return true;
  }

 private:
  int dir_;
  int fd_;
  std::string temp_;
  std::string target_;
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

ftp_disk_file_system::ftp_disk_file_system(const std::string& root) {
  root_fd_ = ::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (root_fd_ < 0) throw io_error("cannot open FTP root '" + root + "': " + std::strerror(errno));
}

ftp_disk_file_system::~ftp_disk_file_system() { ::close(root_fd_); }

int ftp_disk_file_system::open_parent(const std::string& path, std::string& name, fs_status& status) const {
  std::vector<std::string> parts;
  for (std::size_t i = 0; i < path.size();) {
    const std::size_t j = std::min(path.find('/', i), path.size());
    if (j > i) parts.push_back(path.substr(i, j - i));
    i = j + 1;
  }
  name = parts.empty() ? "." : parts.back();
  if (!parts.empty()) parts.pop_back();
  int fd = ::dup(root_fd_);
  for (const auto& p : parts) {
    const int next = ::openat(fd, p.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    const int e = errno;
    ::close(fd);
    if (next < 0) {
      status = from_errno(e);
      return -1;
    }
    fd = next;
  }
  status = fs_status::ok;
  return fd;
}

fs_status ftp_disk_file_system::stat(const std::string& path, ftp::file_info& out) {
  std::string name;
  fs_status s;
  fd_guard dir{open_parent(path, name, s)};
  if (dir.fd < 0) return s;
  struct stat st {};
  if ((s = stat_at(dir.fd, name, st)) != fs_status::ok) return s;
  out = info_of(name == "." ? "" : name, st);
  return fs_status::ok;
}

fs_status ftp_disk_file_system::list(const std::string& path, std::vector<ftp::file_info>& out) {
  std::string name;
  fs_status s;
  fd_guard parent{open_parent(path, name, s)};
  if (parent.fd < 0) return s;
  const int fd = ::openat(parent.fd, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return from_errno(errno);
  DIR* d = ::fdopendir(fd);
  if (d == nullptr) {
    ::close(fd);
    return fs_status::io_error;
  }
  out.clear();
  while (const dirent* e = ::readdir(d)) {
    const std::string n = e->d_name;
    if (n == "." || n == ".." || n.starts_with(temp_prefix)) continue;
    struct stat st {};
    if (stat_at(::dirfd(d), n, st) == fs_status::ok) out.push_back(info_of(n, st));  // no symlinks
  }
  ::closedir(d);
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return fs_status::ok;
}

fs_status ftp_disk_file_system::make_directory(const std::string& path) {
  std::string name;
  fs_status s;
  fd_guard dir{open_parent(path, name, s)};
  if (dir.fd < 0) return s;
  return ::mkdirat(dir.fd, name.c_str(), 0755) == 0 ? fs_status::ok : from_errno(errno);
}

fs_status ftp_disk_file_system::remove_directory(const std::string& path) {
  std::string name;
  fs_status s;
  fd_guard dir{open_parent(path, name, s)};
  if (dir.fd < 0) return s;
  if (name == ".") return fs_status::denied;
  struct stat st {};
  if ((s = stat_at(dir.fd, name, st)) != fs_status::ok) return s;
  if (!S_ISDIR(st.st_mode)) return fs_status::not_a_directory;
  return ::unlinkat(dir.fd, name.c_str(), AT_REMOVEDIR) == 0 ? fs_status::ok : from_errno(errno);
}

fs_status ftp_disk_file_system::remove_file(const std::string& path) {
  std::string name;
  fs_status s;
  fd_guard dir{open_parent(path, name, s)};
  if (dir.fd < 0) return s;
  struct stat st {};
  if ((s = stat_at(dir.fd, name, st)) != fs_status::ok) return s;
  if (S_ISDIR(st.st_mode)) return fs_status::is_a_directory;
  return ::unlinkat(dir.fd, name.c_str(), 0) == 0 ? fs_status::ok : from_errno(errno);
}

fs_status ftp_disk_file_system::rename(const std::string& from, const std::string& to) {
  std::string from_name, to_name;
  fs_status s;
  fd_guard a{open_parent(from, from_name, s)};
  if (a.fd < 0) return s;
  fd_guard b{open_parent(to, to_name, s)};
  if (b.fd < 0) return s;
  struct stat st {};
  if ((s = stat_at(a.fd, from_name, st)) != fs_status::ok) return s;
  if (from_name == "." || to_name == ".") return fs_status::denied;
  if (::fstatat(b.fd, to_name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0) return fs_status::exists;
  return ::renameat(a.fd, from_name.c_str(), b.fd, to_name.c_str()) == 0 ? fs_status::ok : from_errno(errno);
}

std::unique_ptr<ftp::file_reader> ftp_disk_file_system::open_read(const std::string& path, std::uint64_t offset,
                                                                  fs_status& status) {
  std::string name;
  fd_guard dir{open_parent(path, name, status)};
  if (dir.fd < 0) return nullptr;
  const int fd = ::openat(dir.fd, name.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    status = from_errno(errno);
    return nullptr;
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    status = S_ISDIR(st.st_mode) ? fs_status::is_a_directory : fs_status::not_found;
    ::close(fd);
    return nullptr;
  }
  if (offset > 0 && ::lseek(fd, static_cast<off_t>(offset), SEEK_SET) < 0) {
    status = fs_status::io_error;
    ::close(fd);
    return nullptr;
  }
  return std::make_unique<disk_reader>(fd);
}

std::unique_ptr<ftp::file_writer> ftp_disk_file_system::open_write(const std::string& path, bool append,
                                                                   std::uint64_t offset, fs_status& status) {
  static std::atomic<unsigned long> counter{0};
  std::string name;
  const int dir = open_parent(path, name, status);
  if (dir < 0) return nullptr;
  struct stat st {};
  const fs_status existing = stat_at(dir, name, st);
  if (name == "." || (existing == fs_status::ok && S_ISDIR(st.st_mode))) {
    status = fs_status::is_a_directory;
    ::close(dir);
    return nullptr;
  }
  const std::string temp = std::string(temp_prefix) + std::to_string(::getpid()) + "." + std::to_string(++counter);
  const int fd = ::openat(dir, temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) {
    status = from_errno(errno);
    ::close(dir);
    return nullptr;
  }
  auto writer = std::make_unique<disk_writer>(dir, fd, temp, name);
  if (existing == fs_status::ok && (append || offset > 0)) {  // keep the prefix (APPE, REST+STOR)
    fd_guard old{::openat(dir, name.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC)};
    if (old.fd < 0 || !copy_prefix(old.fd, fd, append ? UINT64_MAX : offset)) {
      status = fs_status::io_error;
      return nullptr;  // the writer's destructor removes the temporary file
    }
  }
  status = fs_status::ok;
  return writer;
}

}  // namespace netlib::io
