// sd_listen_fds(3) and sd_is_socket(3) for the portable link (cmake/NetlabPortable.cmake).
//
// Debian 12's static libdbus-1.a, which the static libpcap.a needs for its D-Bus capture source,
// calls these two functions of libsystemd (for dbus-daemon's socket activation), and libsystemd has
// no static archive. They are implemented here as their manual pages define them, from the
// socket-activation protocol: the service manager passes LISTEN_FDS descriptors starting at 3 to
// the process whose pid is LISTEN_PID. Nothing in netlab calls them.
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <limits>

namespace {

constexpr int listen_fds_start = 3;  // SD_LISTEN_FDS_START

// Parses a whole decimal number (no sign, no trailing text); false when it is not one.
bool parse_number(const char* text, unsigned long& out) {
  if (text == nullptr || *text < '0' || *text > '9') return false;
  errno = 0;
  char* end = nullptr;
  out = std::strtoul(text, &end, 10);
  return errno == 0 && end != nullptr && *end == '\0';
}

}  // namespace

extern "C" {

// The number of descriptors passed by socket activation (0 when none were passed to this
// process), or a negative errno value. With unset_environment, LISTEN_PID, LISTEN_FDS and
// LISTEN_FDNAMES are removed from the environment. Each passed descriptor gets FD_CLOEXEC.
int sd_listen_fds(int unset_environment) {
  int result = 0;
  unsigned long pid = 0, count = 0;
  const char* pid_text = std::getenv("LISTEN_PID");
  if (pid_text == nullptr) {
    result = 0;
  } else if (!parse_number(pid_text, pid) || pid == 0) {
    result = -EINVAL;
  } else if (pid != static_cast<unsigned long>(::getpid())) {
    result = 0;  // meant for another process
  } else if (std::getenv("LISTEN_FDS") == nullptr) {
    result = 0;
  } else if (!parse_number(std::getenv("LISTEN_FDS"), count) ||
             count > static_cast<unsigned long>(std::numeric_limits<int>::max() - listen_fds_start)) {
    result = -EINVAL;
  } else {
    for (int fd = listen_fds_start; fd < listen_fds_start + static_cast<int>(count); ++fd) {
      const int flags = ::fcntl(fd, F_GETFD);
      if (flags < 0 || (!(flags & FD_CLOEXEC) && ::fcntl(fd, F_SETFD, flags | FD_CLOEXEC) < 0)) {
        result = -errno;
        break;
      }
    }
    if (result == 0) result = static_cast<int>(count);
  }
  if (unset_environment) {
    ::unsetenv("LISTEN_PID");
    ::unsetenv("LISTEN_FDS");
    ::unsetenv("LISTEN_FDNAMES");
  }
  return result;
}

// 1 when fd is a socket of the given family (0: any), type (0: any) and, when listening is 0 or
// 1, in that listening state (a negative value: either); 0 when it is not; a negative errno value
// on error.
int sd_is_socket(int fd, int family, int type, int listening) {
  if (fd < 0 || family < 0) return -EINVAL;
  struct stat st {};
  if (::fstat(fd, &st) < 0) return -errno;
  if (!S_ISSOCK(st.st_mode)) return 0;
  if (type != 0) {
    int actual = 0;
    socklen_t length = sizeof actual;
    if (::getsockopt(fd, SOL_SOCKET, SO_TYPE, &actual, &length) < 0) return -errno;
    if (length != sizeof actual || actual != type) return 0;
  }
  if (listening >= 0) {
    int accepting = 0;
    socklen_t length = sizeof accepting;
    if (::getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &accepting, &length) < 0) return -errno;
    if (length != sizeof accepting || (accepting != 0) != (listening != 0)) return 0;
  }
  if (family != 0) {
    sockaddr_storage address{};
    socklen_t length = sizeof address;
    if (::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) < 0) return -errno;
    if (length < sizeof(sa_family_t) || address.ss_family != family) return 0;
  }
  return 1;
}

}  // extern "C"
