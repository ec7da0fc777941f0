#pragma once
// A program's peak resident memory, read from the kernel when it exits (wait4's ru_maxrss), for
// the memory tests of tests/load/. Under a sanitizer the figures mean nothing: check
// netlab::test::sanitized and skip.
//
//   const auto p = netlab::test::run_measured({bin_path("netlab-grade"), "questions", file, "--key"});
//   EXPECT_LT(p.rss_kib, 100 * 1024);
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace netlab::test {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool sanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
inline constexpr bool sanitized = true;
#else
inline constexpr bool sanitized = false;
#endif
#else
inline constexpr bool sanitized = false;
#endif

struct peak_memory {
  int exit_code = -1;  // -1: killed at the deadline
  long rss_kib = 0;
};

// Runs argv with stdout and stderr to /dev/null. Its bound is CPU time (120 s, RLIMIT_CPU: killed
// by SIGXCPU, exit code 152), which a loaded machine does not shorten: the million-connection
// ladder takes 15 s of CPU, and 130 s of wall time on two cores shared with other builds. The
// wall-clock watchdog only catches a program that hangs without running (`deadline`, exit code -1).
inline peak_memory run_measured(const std::vector<std::string>& argv,
                                std::chrono::seconds deadline = std::chrono::seconds(280)) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, 1);
    ::dup2(null, 2);
    const rlimit cpu{120, 120};
    ::setrlimit(RLIMIT_CPU, &cpu);
    ::execv(args[0], args.data());
    ::_exit(127);
  }
  std::mutex m;
  std::condition_variable cv;
  bool done = false, killed = false;
  std::thread watchdog([&] {
    std::unique_lock lock(m);
    if (!cv.wait_for(lock, deadline, [&] { return done; })) {
      ::kill(pid, SIGKILL);
      killed = true;
    }
  });
  int status = 0;
  rusage usage{};
  ::wait4(pid, &status, 0, &usage);
  {
    std::lock_guard lock(m);
    done = true;
  }
  cv.notify_all();
  watchdog.join();
  peak_memory p;
  if (killed) return p;
  p.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  p.rss_kib = usage.ru_maxrss;
  return p;
}

}  // namespace netlab::test
