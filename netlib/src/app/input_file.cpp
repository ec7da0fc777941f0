// Theory of operation: the path is first opened with O_PATH, which reads nothing and has no
// device's side effects, and its type checked there; then the same inode is reopened for reading
// through /proc/self/fd (whatever the path names by then), and its identity checked again. The
// file is read in 64 KiB steps and refused as soon as it holds more than the limit, so a huge or
// endless input costs at most the limit in memory.
#include "netlib/app/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstring>

#include "netlib/app/program.hpp"
#include "netlib/io/unique_fd.hpp"

namespace netlib::app {
namespace {

// An O_PATH descriptor of an input that is a regular file or a pipe (a usage error otherwise).
io::unique_fd probe_input(const std::string& what, const std::string& path, struct stat& st) {
  io::unique_fd probe(::open(path.c_str(), O_PATH | O_CLOEXEC));
  if (!probe) {
    const int e = errno;
    if (e == ENOENT || e == ENOTDIR) throw usage_error(fmt::format("{}: '{}': no such file", what, path));
    throw usage_error(fmt::format("{}: '{}': {}", what, path, std::strerror(e)));
  }
  if (::fstat(probe.get(), &st) != 0 || S_ISDIR(st.st_mode))
    throw usage_error(fmt::format("{}: '{}': is a folder, not a file", what, path));
  if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode))
    throw usage_error(fmt::format("{}: '{}': not a regular file (a device or socket is never read)", what, path));
  return probe;
}

}  // namespace

void check_input_path(const std::string& what, const std::string& path) {
  struct stat st {};
  probe_input(what, path, st);
}

std::string read_input_file(const std::string& what, const std::string& path, std::size_t max_bytes) {
  struct stat st {};
  const io::unique_fd probe = probe_input(what, path, st);
  io::unique_fd fd(::open(fmt::format("/proc/self/fd/{}", probe.get()).c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY));
  if (!fd && errno == ENOENT) fd.reset(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY));  // no /proc
  if (!fd) throw failure(fmt::format("{}: '{}': {}", what, path, std::strerror(errno)));
  struct stat now {};
  if (::fstat(fd.get(), &now) != 0 || now.st_dev != st.st_dev || now.st_ino != st.st_ino)
    throw failure(fmt::format("{}: '{}': the file changed while it was opened", what, path));
  std::string text;
  char buf[65536];
  for (;;) {
    const auto got = ::read(fd.get(), buf, sizeof buf);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw failure(fmt::format("{}: '{}': {}", what, path, std::strerror(errno)));
    if (got == 0) return text;
    if (text.size() + static_cast<std::size_t>(got) > max_bytes)
      throw failure(fmt::format("{}: '{}': larger than {} bytes", what, path, max_bytes));
    text.append(buf, static_cast<std::size_t>(got));
  }
}

}  // namespace netlib::app
