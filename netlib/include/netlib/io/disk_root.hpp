#pragma once
// One disk root: a folder that the servers' files are opened beneath, and nothing outside it
// (docs/architecture.md, "One disk root"). lab-http serve (netlib::io::http_disk_files), lab-ftp
// serve (ftp_disk_file_system) and the Maildir store open every file through it.
//
//   disk_root root("/srv/site", {.links = link_policy::inside_root});
//   auto f = root.open("img/a.png", O_RDONLY);     // f.fd, or f.error (errno)
//   if (f.fd && f.via_link) use(f.resolved);       // where the file really is under the root
//
// Paths are relative to the root, '/'-separated, and normalized by the cores (no "." or ".."
// components; leading and doubled slashes are ignored, so FTP's "/pub/a" works as it is).
// Symbolic links, by policy:
//   refuse       a link anywhere in the path is an error (ELOOP), as if absent (FTP);
//   inside_root  a link is followed while what it names stays beneath the root; a link that leads
//                out of it (an absolute target elsewhere, or ".." above the root) is an error
//                (EXDEV). The path the file really has is reported (HTTP's access rules are
//                decided on it; the Maildir store).
// Mechanism: openat2(2) with RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS where the kernel has it (Linux
// 5.6+): one system call for a path without links. A path with a link (ELOOP), or a kernel without
// openat2, takes the portable walk: one openat(O_NOFOLLOW) per component from the root's
// descriptor, each link read with readlinkat(2) and resolved by the walk itself, at most 40 links
// (the kernel's own limit). Either way every component is opened relative to an already checked
// folder descriptor, so a link swapped in between two steps is never followed out of the root.
// Hard links: a regular file with more than one name may have its other names anywhere on the
// file system (outside the root, or in a protected folder), and nothing in the file says where;
// the file servers refuse such files (has_other_names; docs/security.md "Paths, links and the
// disk root").
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/types.h>

#include <string>
#include <string_view>
#include <utility>

#include "netlib/io/unique_fd.hpp"

namespace netlib::io {

enum class link_policy { refuse, inside_root };

class disk_root {
 public:
  struct options {
    link_policy links = link_policy::inside_root;
    bool use_openat2 = true;  // false: always the portable walk (tests cover both)
  };
  // Opens the folder `path` (links in the root's own path are followed). Throws io_error naming it.
  explicit disk_root(const std::string& path, options o);
  explicit disk_root(const std::string& path) : disk_root(path, options{}) {}

  struct opened {
    unique_fd fd;           // valid on success
    int error = 0;          // errno on failure: ENOENT, ENOTDIR, EACCES, ELOOP (a refused link, or
                            // too many), EXDEV (a link out of the root), ENAMETOOLONG, ...
    bool via_link = false;  // a symbolic link was followed on the way
    std::string resolved;   // with via_link: the path the file really has under the root
  };
  // Opens `path` beneath the root with open(2) `flags` (and `mode` with O_CREAT). The root itself
  // is "" (or "/", "."). O_CLOEXEC is always added; O_NOFOLLOW is implied for the last component
  // under link_policy::refuse.
  [[nodiscard]] opened open(std::string_view path, int flags, mode_t mode = 0) const;
  // Opens the folder that holds `path`'s last component (an O_PATH descriptor, good for the
  // *at() calls) and sets `name` to that component ("." for the root itself). The last component
  // itself is not looked at: act on it with *at() calls and AT_SYMLINK_NOFOLLOW / O_NOFOLLOW.
  [[nodiscard]] opened open_parent(std::string_view path, std::string& name) const;

  [[nodiscard]] int fd() const noexcept { return root_.get(); }
  // The root's canonical path (links resolved), without a trailing slash ("/" for the root of the file system).
  [[nodiscard]] const std::string& real_path() const noexcept { return real_; }
  [[nodiscard]] link_policy links() const noexcept { return options_.links; }

 private:
  opened walk(std::string_view path, int flags, mode_t mode) const;
  unique_fd root_;
  std::string real_;
  options options_;
};

// A regular file that has other names (hard links) than the one it was opened by.
inline bool has_other_names(const struct stat& st) noexcept {
  return S_ISREG(st.st_mode) && st.st_nlink > 1;
}

}  // namespace netlib::io
