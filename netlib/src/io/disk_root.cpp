// Theory of operation: see disk_root.hpp. open() first asks openat2(2) for the whole path with
// RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS: a path without links is then opened by one system call,
// and a path with one fails with ELOOP. Under link_policy::refuse that is the answer; under
// inside_root (or when the kernel has no openat2: ENOSYS, remembered) walk() resolves the path
// component by component:
//   - `pending` holds the components still to resolve, `chain` the descriptors of the folders
//     resolved so far below the root and `names` their names (the resolved path);
//   - a folder is opened with openat(O_PATH | O_DIRECTORY | O_NOFOLLOW) from the last one, the
//     last component with the caller's flags and O_NOFOLLOW; ELOOP/ENOTDIR on a component that
//     readlinkat(2) can read means a link: its target's components go in front of `pending` (an
//     absolute target must spell the root's real path or a path beneath it, and restarts the
//     walk at the root); ".." pops `chain` and may never pop past the root (EXDEV).
// Nothing is resolved by a path string alone: every step starts from a descriptor that was itself
// reached this way, so renaming or swapping a link while a walk runs cannot lead outside.
#include "netlib/io/disk_root.hpp"

#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <vector>

#if defined(__linux__) && __has_include(<linux/openat2.h>)
#include <linux/openat2.h>
#define NETLAB_HAVE_OPENAT2 1
#endif

#include "netlib/io/asio.hpp"

namespace netlib::io {

namespace {

constexpr int max_links = 40;  // as the kernel (MAXSYMLINKS)
std::atomic<bool> openat2_missing{false};

std::vector<std::string> components(std::string_view path) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < path.size();) {
    const std::size_t j = std::min(path.find('/', i), path.size());
    if (j > i) out.emplace_back(path.substr(i, j - i));
    i = j + 1;
  }
  return out;
}

std::string joined(const std::vector<std::string>& parts) {
  std::string out;
  for (const auto& p : parts) {
    if (!out.empty()) out += '/';
    out += p;
  }
  return out;
}

// The path without leading slashes; "." for the root itself (openat2 wants a name).
std::string relative(std::string_view path) {
  while (!path.empty() && path.front() == '/') path.remove_prefix(1);
  return path.empty() ? std::string(".") : std::string(path);
}

// A link's target, or false when `name` in `dir` is not a link.
bool read_link(int dir, const std::string& name, std::string& target) {
  char buf[PATH_MAX];
  const ssize_t n = ::readlinkat(dir, name.c_str(), buf, sizeof buf);
  if (n < 0 || static_cast<std::size_t>(n) >= sizeof buf) return false;
  target.assign(buf, static_cast<std::size_t>(n));
  return true;
}

disk_root::opened failure(int error) {
  disk_root::opened r;
  r.error = error != 0 ? error : EIO;
  return r;
}

#ifdef NETLAB_HAVE_OPENAT2
// openat2 with links refused; -1 with errno set (ENOSYS when the kernel lacks it).
int open_beneath(int root, const std::string& path, int flags, mode_t mode) {
  open_how how{};
  how.flags = static_cast<std::uint64_t>(flags) | O_CLOEXEC;
  how.mode = (flags & O_CREAT) != 0 || (flags & O_TMPFILE) == O_TMPFILE ? mode : 0;
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
  long fd;
  do fd = ::syscall(SYS_openat2, root, path.c_str(), &how, sizeof how);
  while (fd < 0 && errno == EINTR);
  return static_cast<int>(fd);
}
#endif

}  // namespace

disk_root::disk_root(const std::string& path, options o) : options_(o) {
  char buf[PATH_MAX];
  if (::realpath(path.c_str(), buf) == nullptr)
    throw io_error("cannot open the folder '" + path + "': " + std::strerror(errno));
  root_.reset(::open(buf, O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (!root_) throw io_error("cannot open the folder '" + path + "': " + std::strerror(errno));
  real_ = buf;
}

disk_root::opened disk_root::open(std::string_view path, int flags, mode_t mode) const {
#ifdef NETLAB_HAVE_OPENAT2
  if (options_.use_openat2 && !openat2_missing.load(std::memory_order_relaxed)) {
    opened r;
    r.fd.reset(open_beneath(root_.get(), relative(path), flags, mode));
    if (r.fd) return r;
    r.error = errno;
    if (r.error == ENOSYS) openat2_missing.store(true, std::memory_order_relaxed);
    // ELOOP: a link on the way, the walk decides; ENOSYS/EPERM/EINVAL/E2BIG: no (usable) openat2
    // here (old kernel, seccomp); EAGAIN: the kernel asks to retry. Anything else is the answer.
    const bool walk_instead = r.error == ENOSYS || r.error == EPERM || r.error == EINVAL || r.error == E2BIG ||
                              r.error == EAGAIN || (r.error == ELOOP && options_.links == link_policy::inside_root);
    if (!walk_instead) return r;
  }
#endif
  return walk(path, flags, mode);
}

disk_root::opened disk_root::open_parent(std::string_view path, std::string& name) const {
  auto parts = components(path);
  name = parts.empty() ? "." : parts.back();
  if (name == "..") return failure(EINVAL);
  if (parts.empty()) {
    opened r;
    r.fd.reset(::fcntl(root_.get(), F_DUPFD_CLOEXEC, 0));
    if (!r.fd) r.error = errno;
    return r;
  }
  parts.pop_back();
  const std::string parent = joined(parts);
  opened r = open(parent, O_PATH | O_DIRECTORY);
  if (r.via_link) r.resolved = r.resolved.empty() ? name : r.resolved + "/" + name;
  return r;
}

disk_root::opened disk_root::walk(std::string_view path, int flags, mode_t mode) const {
  const auto first = components(path);
  std::deque<std::string> pending(first.begin(), first.end());
  std::vector<unique_fd> chain;
  std::vector<std::string> names;
  opened r;
  int links = 0;
  auto here = [&] { return chain.empty() ? root_.get() : chain.back().get(); };
  if (pending.empty()) {  // the root itself
    r.fd.reset(::openat(root_.get(), ".", flags | O_CLOEXEC, mode));
    if (!r.fd) r.error = errno;
    return r;
  }
  while (!pending.empty()) {
    const std::string c = std::move(pending.front());
    pending.pop_front();
    if (c == ".") {
      if (!pending.empty()) continue;
      r.fd.reset(::openat(here(), ".", flags | O_CLOEXEC, mode));  // "a/." : the folder a itself
      if (!r.fd) return failure(errno);
      break;
    }
    if (c == "..") {
      if (chain.empty()) return failure(EXDEV);
      chain.pop_back();
      names.pop_back();
      if (pending.empty()) {
        r.fd.reset(::openat(here(), ".", flags | O_CLOEXEC, mode));
        if (!r.fd) return failure(errno);
      }
      continue;
    }
    const bool last = pending.empty();
    unique_fd fd(last ? ::openat(here(), c.c_str(), flags | O_NOFOLLOW | O_CLOEXEC, mode)
                      : ::openat(here(), c.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    const int error = fd ? 0 : errno;
    bool is_link = false;
    if (fd && last && (flags & O_PATH) != 0) {  // O_PATH | O_NOFOLLOW opens a link itself
      struct stat st {};
      is_link = ::fstat(fd.get(), &st) == 0 && S_ISLNK(st.st_mode);
    }
    if (fd && !is_link) {
      names.push_back(c);
      if (last) {
        r.fd = std::move(fd);
      } else {
        chain.push_back(std::move(fd));
      }
      continue;
    }
    fd.reset();
    std::string target;
    if ((!is_link && error != ELOOP && error != ENOTDIR && error != EMLINK) || !read_link(here(), c, target))
      return failure(error != 0 ? error : ELOOP);
    if (options_.links == link_policy::refuse || ++links > max_links) return failure(ELOOP);
    r.via_link = true;
    std::string_view rest = target;
    if (!rest.empty() && rest.front() == '/') {  // absolute: only the root's own spelling, or beneath
      if (real_ != "/") {
        if (rest.substr(0, real_.size()) != real_ || (rest.size() > real_.size() && rest[real_.size()] != '/'))
          return failure(EXDEV);
        rest.remove_prefix(real_.size());
      }
      chain.clear();
      names.clear();
    }
    const auto parts = components(rest);
    pending.insert(pending.begin(), parts.begin(), parts.end());
    if (pending.empty()) {  // a link to the root itself (or to "/" spelled as the root)
      r.fd.reset(::openat(here(), ".", flags | O_CLOEXEC, mode));
      if (!r.fd) return failure(errno);
    }
  }
  if (r.via_link) r.resolved = joined(names);
  return r;
}

}  // namespace netlib::io
