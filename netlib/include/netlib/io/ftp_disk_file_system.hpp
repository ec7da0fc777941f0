#pragma once
// ftp::file_system over a real directory: a virtual root nothing escapes. Virtual paths are
// already normalized by the session (no ".."); every path is opened through the disk root
// (disk_root.hpp) with link_policy::refuse, so a symbolic link is never followed (it is refused,
// and not listed), and absolute paths are always taken relative to the root. Uploads go to a
// hidden temporary file in the target directory and are renamed over the target on commit() (or,
// for existing_file::keep, only to a name still free); an uncommitted writer removes its
// temporary file (abort, disconnect, failure).
#include <string>

#include "netlib/ftp/file_system.hpp"
#include "netlib/io/disk_root.hpp"

namespace netlib::io {

class ftp_disk_file_system final : public ftp::file_system {
 public:
  // Throws io_error when root is not an accessible directory.
  explicit ftp_disk_file_system(const std::string& root, disk_root::options root_options = {});

  ftp::fs_status stat(const std::string& path, ftp::file_info& out) override;
  ftp::fs_status list(const std::string& dir, std::vector<ftp::file_info>& out) override;
  ftp::fs_status make_directory(const std::string& path) override;
  ftp::fs_status remove_directory(const std::string& path) override;
  ftp::fs_status remove_file(const std::string& path) override;
  ftp::fs_status rename(const std::string& from, const std::string& to) override;
  std::unique_ptr<ftp::file_reader> open_read(const std::string& path, std::uint64_t offset,
                                              ftp::fs_status& status) override;
  std::unique_ptr<ftp::file_writer> open_write(const std::string& path, bool append, std::uint64_t offset,
                                               ftp::existing_file existing, ftp::fs_status& status) override;

  // Names of temporary upload files start with this; they are never listed.
  static constexpr std::string_view temp_prefix = ".netlab-upload.";

 private:
  // The folder holding `path`'s last component (or an invalid fd with status set) and that
  // component in `name` ("." for the root itself).
  unique_fd open_parent(const std::string& path, std::string& name, ftp::fs_status& status) const;
  // open_parent, then the last component's stat without following a link (a file or a folder), or
  // an invalid fd with status set when either fails.
  unique_fd open_parent_and_stat(const std::string& path, std::string& name, struct stat& st,
                                 ftp::fs_status& status) const;
  disk_root root_;
};

}  // namespace netlib::io
