// cmake/portable/sd_daemon.cpp: sd_listen_fds(3) and sd_is_socket(3) as their manual pages define
// them (the portable link gives them to the static libdbus-1.a in place of libsystemd).
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cerrno>
#include <cstdlib>
#include <string>

extern "C" int sd_listen_fds(int unset_environment);
extern "C" int sd_is_socket(int fd, int family, int type, int listening);

namespace {

int listening_socket() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  EXPECT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  EXPECT_EQ(::listen(fd, 1), 0);
  return fd;
}

void set_env(const char* pid, const char* fds) {
  ::setenv("LISTEN_PID", pid, 1);
  ::setenv("LISTEN_FDS", fds, 1);
}

TEST(SdDaemon, ListenFdsCountsOnlyDescriptorsPassedToThisProcess) {
  ::unsetenv("LISTEN_PID");
  ::unsetenv("LISTEN_FDS");
  EXPECT_EQ(sd_listen_fds(0), 0);
  const std::string self = std::to_string(::getpid());
  set_env(std::to_string(::getpid() + 1).c_str(), "1");
  EXPECT_EQ(sd_listen_fds(0), 0) << "LISTEN_PID names another process";
  set_env("12x", "1");
  EXPECT_EQ(sd_listen_fds(0), -EINVAL);
  set_env(self.c_str(), "one");
  EXPECT_EQ(sd_listen_fds(0), -EINVAL);

  // One descriptor at 3, as a service manager passes it: counted, marked close-on-exec.
  const int saved = ::fcntl(3, F_DUPFD_CLOEXEC, 10);  // whatever fd 3 was (-1 when closed)
  const int sock = listening_socket();
  ASSERT_EQ(::dup2(sock, 3), 3);
  ASSERT_EQ(::fcntl(3, F_GETFD) & FD_CLOEXEC, 0);
  set_env(self.c_str(), "1");
  ::setenv("LISTEN_FDNAMES", "web", 1);
  EXPECT_EQ(sd_listen_fds(1), 1);
  EXPECT_NE(::fcntl(3, F_GETFD) & FD_CLOEXEC, 0);
  EXPECT_EQ(std::getenv("LISTEN_PID"), nullptr) << "unset_environment removes the variables";
  EXPECT_EQ(std::getenv("LISTEN_FDS"), nullptr);
  EXPECT_EQ(std::getenv("LISTEN_FDNAMES"), nullptr);
  EXPECT_EQ(sd_listen_fds(0), 0) << "nothing is passed any more";
  ::close(3);
  if (saved >= 0) {
    ::dup2(saved, 3);
    ::close(saved);
  }
  ::close(sock);
}

TEST(SdDaemon, IsSocketChecksFamilyTypeAndListeningState) {
  const int sock = listening_socket();
  EXPECT_EQ(sd_is_socket(sock, 0, 0, -1), 1);
  EXPECT_EQ(sd_is_socket(sock, AF_INET, SOCK_STREAM, 1), 1);
  EXPECT_EQ(sd_is_socket(sock, AF_INET, SOCK_STREAM, 0), 0) << "it listens";
  EXPECT_EQ(sd_is_socket(sock, AF_INET6, 0, -1), 0);
  EXPECT_EQ(sd_is_socket(sock, 0, SOCK_DGRAM, -1), 0);
  const int udp = ::socket(AF_INET, SOCK_DGRAM, 0);
  EXPECT_EQ(sd_is_socket(udp, AF_INET, SOCK_DGRAM, 0), 1);
  int pipe_fds[2];
  ASSERT_EQ(::pipe(pipe_fds), 0);
  EXPECT_EQ(sd_is_socket(pipe_fds[0], 0, 0, -1), 0) << "a pipe is not a socket";
  ::close(pipe_fds[0]);
  ::close(pipe_fds[1]);
  EXPECT_EQ(sd_is_socket(pipe_fds[0], 0, 0, -1), -EBADF);
  EXPECT_EQ(sd_is_socket(-1, 0, 0, -1), -EINVAL);
  ::close(udp);
  ::close(sock);
}

}  // namespace
