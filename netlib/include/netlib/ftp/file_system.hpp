#pragma once
// The file store an FTP server session works on, injected (docs/architecture.md, "Protocol cores never do I/O"): the
// session core calls it for metadata; the data-connection driver opens readers and writers. Paths are virtual:
// absolute, normalized by ftp::normalize_path ("/", "/dir/file"), never containing "..".
// netlib::ftp::memory_file_system serves tests; netlib::io::ftp_disk_file_system serves a real
// directory.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "netlib/core/bytes.hpp"

namespace netlib::ftp {

enum class fs_status { ok, not_found, not_a_directory, is_a_directory, exists, not_empty, denied, io_error };
std::string_view describe(fs_status s);

// What an upload may do to a file of the same name (anonymous uploads may not replace one).
enum class existing_file { replace, keep };

struct file_info {
  std::string name;  // last path component ("" for the root)
  bool is_directory = false;
  std::uint64_t size = 0;
  std::chrono::sys_seconds modified{};
};

// Reads one file from an offset. read() returns 0 at the end; a negative count means an I/O error.
class file_reader {
 public:
  virtual ~file_reader() = default;
  virtual std::ptrdiff_t read(std::span<std::byte> buffer) = 0;
  // The open file's descriptor, positioned where read() would go on, so that a driver can send
  // the rest with sendfile(2) instead of reading it; -1 when there is none (a file in memory).
  [[nodiscard]] virtual int descriptor() const noexcept { return -1; }
};

// Writes an upload so that it appears whole or not at all: bytes go to a temporary place and
// commit() moves them into place; destroying an uncommitted writer discards them.
class file_writer {
 public:
  virtual ~file_writer() = default;
  virtual bool write(byte_view data) = 0;
  virtual bool commit() = 0;
};

class file_system {
 public:
  virtual ~file_system() = default;
  virtual fs_status stat(const std::string& path, file_info& out) = 0;
  virtual fs_status list(const std::string& dir, std::vector<file_info>& out) = 0;  // sorted by name
  virtual fs_status make_directory(const std::string& path) = 0;
  virtual fs_status remove_directory(const std::string& path) = 0;
  virtual fs_status remove_file(const std::string& path) = 0;
  virtual fs_status rename(const std::string& from, const std::string& to) = 0;
  virtual std::unique_ptr<file_reader> open_read(const std::string& path, std::uint64_t offset, fs_status& status) = 0;
  // append: keep the existing content and add to it (APPE); offset > 0: keep that many existing
  // bytes and write from there (REST + STOR, RFC 3659 §5). existing_file::keep: the upload may
  // only create a new file; its commit() fails when the name is taken by then (checked by the
  // store at the moment of the commit, so a racing upload cannot be overwritten either).
  virtual std::unique_ptr<file_writer> open_write(const std::string& path, bool append, std::uint64_t offset,
                                                  existing_file existing, fs_status& status) = 0;
};

// Joins a virtual directory path and a name: ("/", "a") -> "/a", ("/a", "b") -> "/a/b".
std::string join_path(std::string_view dir, std::string_view name);
// The parent of a virtual path ("/a/b" -> "/a", "/a" -> "/") and its last component.
std::string parent_path(std::string_view path);
std::string base_name(std::string_view path);
// Resolves an FTP path argument against the current directory into a virtual path: "." and ".."
// are applied lexically and ".." at the root stays at the root, so nothing escapes the root.
// nullopt-like empty string for arguments with NUL (never valid).
std::string normalize_path(std::string_view cwd, std::string_view argument);

}  // namespace netlib::ftp
