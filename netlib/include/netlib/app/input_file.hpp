#pragma once
// The one way a program reads a whole input file named on its command line (a topology, a users
// file, a VLAN config, an attachment): at most a stated number of bytes, and every problem one line
// that names the flag and the path, "--users: 'x.txt': no such file" (docs/conventions.md):
//   no such file, a folder, a device or a socket    usage_error (exit 2); a device is never read,
//                                                   so /dev/zero or a tty cannot hang the program
//   cannot be read (permissions, I/O), changed      failure (exit 1)
//   while it was opened, larger than max_bytes      "--flag: 'PATH': larger than 4194304 bytes"
// A pipe is read (bash's <(...)), up to the limit.
//
//   const auto text = netlib::app::read_input_file("--matrix", path, 16 << 20);
#include <cstddef>
#include <string>

namespace netlib::app {

std::string read_input_file(const std::string& what, const std::string& path, std::size_t max_bytes);

// Throws usage_error as read_input_file does when `path` is missing, a folder, a device or a
// socket, without reading it (for inputs opened later by another component, e.g. a capture).
void check_input_path(const std::string& what, const std::string& path);

}  // namespace netlib::app
