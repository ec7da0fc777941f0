// netlib::app::read_input_file: the one reader of whole input files (the limit, the one-line
// errors and their exit-code class, a device never read, a pipe read).
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "netlib/app/input_file.hpp"
#include "netlib/app/program.hpp"

namespace {

namespace fs = std::filesystem;
using netlib::app::read_input_file;

struct temp_folder {
  fs::path path = fs::temp_directory_path() / ("netlab-input-file-" + std::to_string(::getpid()));
  temp_folder() { fs::create_directories(path); }
  ~temp_folder() { fs::remove_all(path); }
  std::string file(const std::string& name, const std::string& text) const {
    std::ofstream(path / name, std::ios::binary) << text;
    return (path / name).string();
  }
};

template <class Error>
std::string error_of(const std::string& path, std::size_t limit = 100) {
  try {
    read_input_file("--in", path, limit);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(InputFile, reads_the_whole_file_up_to_the_limit) {
  temp_folder d;
  const std::string text = std::string(70000, 'x') + "\r\n\0end";  // more than one read, a NUL
  EXPECT_EQ(read_input_file("--in", d.file("a.bin", text), text.size()), text);
  EXPECT_EQ(read_input_file("--in", d.file("empty", ""), 0), "");
}

TEST(InputFile, a_larger_file_is_refused_not_cut) {
  temp_folder d;
  const auto path = d.file("big", std::string(101, 'x'));
  EXPECT_EQ(error_of<netlib::app::failure>(path), "--in: '" + path + "': larger than 100 bytes");
  EXPECT_EQ(read_input_file("--in", path, 101).size(), 101u);
}

TEST(InputFile, what_is_not_a_file_is_a_usage_error_naming_flag_and_path) {
  temp_folder d;
  const auto missing = (d.path / "missing.txt").string();
  EXPECT_EQ(error_of<netlib::app::usage_error>(missing), "--in: '" + missing + "': no such file");
  EXPECT_EQ(error_of<netlib::app::usage_error>(d.path.string()),
            "--in: '" + d.path.string() + "': is a folder, not a file");
  // A device is never opened for reading: /dev/zero would never end.
  EXPECT_EQ(error_of<netlib::app::usage_error>("/dev/zero"),
            "--in: '/dev/zero': not a regular file (a device or socket is never read)");
  EXPECT_NO_THROW(netlib::app::check_input_path("--in", d.file("x", "1")));
  EXPECT_THROW(netlib::app::check_input_path("--in", "/dev/null"), netlib::app::usage_error);
}

TEST(InputFile, an_unreadable_file_is_a_failure) {
  if (::geteuid() == 0) GTEST_SKIP() << "root reads a file whatever its mode";
  temp_folder d;
  const auto path = d.file("secret", "x");
  ::chmod(path.c_str(), 0);
  EXPECT_EQ(error_of<netlib::app::failure>(path), "--in: '" + path + "': Permission denied");
}

TEST(InputFile, a_pipe_is_read_to_its_end_within_the_limit) {
  temp_folder d;
  const auto fifo = (d.path / "fifo").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const pid_t writer = ::fork();
  ASSERT_GE(writer, 0);
  if (writer == 0) {
    std::ofstream(fifo) << "through a pipe\n";
    ::_exit(0);
  }
  EXPECT_EQ(read_input_file("--in", fifo, 100), "through a pipe\n");
  int status = 0;
  ::waitpid(writer, &status, 0);
}

}  // namespace
