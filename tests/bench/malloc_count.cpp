// libbench_malloc_count.so: counts a process's heap allocations, for tests/bench/run's "heap
// allocations per request" row (lab-http, nginx and h2o alike: a peer cannot be rebuilt with a
// counting allocator, but any dynamically linked program can be started with LD_PRELOAD).
//
//   NETLAB_MALLOC_COUNT=/tmp/counts LD_PRELOAD=.../libbench_malloc_count.so lab-http serve ...
//
// Every malloc, calloc, realloc, memalign, posix_memalign, aligned_alloc, valloc and pvalloc is
// counted as one allocation (C++'s operator new calls malloc), every free of a non-null pointer
// as one release. The two counters live in the file NETLAB_MALLOC_COUNT names (created if needed,
// mapped shared), so the bench reads them while the server runs: before and after a number of
// requests, the difference divided by the requests is the figure. The calls go on to glibc's own
// allocator (__libc_malloc & co.), unchanged.
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>

extern "C" {
void* __libc_malloc(std::size_t size);
void* __libc_calloc(std::size_t n, std::size_t size);
void* __libc_realloc(void* p, std::size_t size);
void __libc_free(void* p);
void* __libc_memalign(std::size_t alignment, std::size_t size);
void* __libc_valloc(std::size_t size);
void* __libc_pvalloc(std::size_t size);
}

namespace {

struct counters {
  std::uint64_t allocations;
  std::uint64_t releases;
};

counters local{};
counters* shared = &local;  // the mapped file once the constructor ran

void count_allocation() {
  __atomic_fetch_add(&shared->allocations, 1, __ATOMIC_RELAXED);
}
void count_release() {
  __atomic_fetch_add(&shared->releases, 1, __ATOMIC_RELAXED);
}

__attribute__((constructor)) void map_counters() {
  const char* path = nullptr;
  for (char** e = ::environ; e && *e; ++e) {  // not getenv: <cstdlib> would declare malloc too
    const char* prefix = "NETLAB_MALLOC_COUNT=";
    const char* s = *e;
    std::size_t i = 0;
    while (prefix[i] != '\0' && s[i] == prefix[i]) ++i;
    if (prefix[i] == '\0') path = s + i;
  }
  if (path == nullptr || *path == '\0') return;
  const int fd = ::open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  if (fd < 0) return;
  if (::ftruncate(fd, static_cast<off_t>(sizeof(counters))) == 0) {
    void* m = ::mmap(nullptr, sizeof(counters), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (m != MAP_FAILED) {
      auto* c = static_cast<counters*>(m);
      __atomic_store_n(&c->allocations, local.allocations, __ATOMIC_RELAXED);
      __atomic_store_n(&c->releases, local.releases, __ATOMIC_RELAXED);
      shared = c;
    }
  }
  ::close(fd);
}

}  // namespace

extern "C" {

void* malloc(std::size_t size) {
  count_allocation();
  return __libc_malloc(size);
}
void* calloc(std::size_t n, std::size_t size) {
  count_allocation();
  return __libc_calloc(n, size);
}
void* realloc(void* p, std::size_t size) {
  count_allocation();
  return __libc_realloc(p, size);
}
void free(void* p) {
  if (p != nullptr) count_release();
  __libc_free(p);
}
void* memalign(std::size_t alignment, std::size_t size) {
  count_allocation();
  return __libc_memalign(alignment, size);
}
void* aligned_alloc(std::size_t alignment, std::size_t size) {
  count_allocation();
  return __libc_memalign(alignment, size);
}
int posix_memalign(void** out, std::size_t alignment, std::size_t size) {
  count_allocation();
  void* p = __libc_memalign(alignment, size);
  if (p == nullptr) return 12;  // ENOMEM
  *out = p;
  return 0;
}
void* valloc(std::size_t size) {
  count_allocation();
  return __libc_valloc(size);
}
void* pvalloc(std::size_t size) {
  count_allocation();
  return __libc_pvalloc(size);
}

}  // extern "C"
