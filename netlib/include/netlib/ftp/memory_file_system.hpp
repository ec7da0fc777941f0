#pragma once
// An in-memory ftp::file_system for tests and in-memory client/server pairs.
#include <chrono>
#include <cstdint>
#include <map>
#include <string>

#include "netlib/ftp/file_system.hpp"

namespace netlib::ftp {

class memory_file_system final : public file_system {
 public:
  static constexpr std::chrono::sys_seconds default_modified{
      std::chrono::seconds{1700000000}};  // 2023-11-14 22:13:20 UTC
  // Every file and folder has this modification time.
  explicit memory_file_system(std::chrono::sys_seconds modified = default_modified);
  // Test set-up: creates parent directories as needed.
  void add_file(const std::string& path, std::string content);
  void add_directory(const std::string& path);
  [[nodiscard]] bool contains(const std::string& path) const { return entries_.count(path) != 0; }
  // Content of a file, or empty when absent.
  [[nodiscard]] std::string content(const std::string& path) const;
  [[nodiscard]] std::size_t entry_count() const noexcept { return entries_.size(); }

  fs_status stat(const std::string& path, file_info& out) override;
  fs_status list(const std::string& dir, std::vector<file_info>& out) override;
  fs_status make_directory(const std::string& path) override;
  fs_status remove_directory(const std::string& path) override;
  fs_status remove_file(const std::string& path) override;
  fs_status rename(const std::string& from, const std::string& to) override;
  std::unique_ptr<file_reader> open_read(const std::string& path, std::uint64_t offset, fs_status& status) override;
  std::unique_ptr<file_writer> open_write(const std::string& path, bool append, std::uint64_t offset,
                                          existing_file existing, fs_status& status) override;

 private:
  struct entry {
    bool is_directory = false;
    std::string data;
  };
  friend class memory_writer;
  fs_status check_parent(const std::string& path) const;
  std::map<std::string, entry> entries_;
  std::chrono::sys_seconds modified_;
};

}  // namespace netlib::ftp
