#pragma once
// ftp::file_system over a real directory: a virtual root nothing escapes. Virtual paths are
// already normalized by the session (no ".."); here every component is opened with openat() and
// O_NOFOLLOW from the root's descriptor, so a symbolic link is never followed (it is refused, and
// not listed), and absolute paths are always taken relative to the root. Uploads go to a hidden
// temporary file in the target directory and are renamed over the target on commit(); an
// uncommitted writer removes its temporary file (abort, disconnect, failure).
#include <string>

#include "netlib/ftp/file_system.hpp"

namespace netlib::io {

class ftp_disk_file_system final : public ftp::file_system {
 public:
  // Throws io_error when root is not an accessible directory.
  explicit ftp_disk_file_system(const std::string& root);
  ~ftp_disk_file_system() override;
  ftp_disk_file_system(const ftp_disk_file_system&) = delete;
  ftp_disk_file_system& operator=(const ftp_disk_file_system&) = delete;

  ftp::fs_status stat(const std::string& path, ftp::file_info& out) override;
  ftp::fs_status list(const std::string& dir, std::vector<ftp::file_info>& out) override;
  ftp::fs_status make_directory(const std::string& path) override;
  ftp::fs_status remove_directory(const std::string& path) override;
  ftp::fs_status remove_file(const std::string& path) override;
  ftp::fs_status rename(const std::string& from, const std::string& to) override;
  std::unique_ptr<ftp::file_reader> open_read(const std::string& path, std::uint64_t offset,
                                              ftp::fs_status& status) override;
  std::unique_ptr<ftp::file_writer> open_write(const std::string& path, bool append, std::uint64_t offset,
                                               ftp::fs_status& status) override;

  // Names of temporary upload files start with this; they are never listed.
  static constexpr std::string_view temp_prefix = ".netlab-upload.";

 private:
  // Opens the directory holding `path`'s last component; returns its fd (or -1 with status set)
  // and the last component in `name` ("." for the root itself).
  int open_parent(const std::string& path, std::string& name, ftp::fs_status& status) const;
  int root_fd_ = -1;
};

}  // namespace netlib::io
