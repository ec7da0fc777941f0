#pragma once
// A served folder in a fresh temporary directory and a running `lab-ftp serve` on port 0.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "support/peers.hpp"
#include "support/process.hpp"

namespace ftp_it {

using namespace netlab::test;

inline std::string make_temp_dir() {
  std::string tmpl = (std::filesystem::temp_directory_path() / "netlab-ftp-XXXXXX").string();
  if (!::mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
  return tmpl;
}

inline void write_file(const std::string& path, const std::string& content) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path, std::ios::binary) << content;
}

inline std::string read_whole(const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return {};
  std::string s(static_cast<std::size_t>(in.tellg()), '\0');
  in.seekg(0);
  in.read(s.data(), static_cast<std::streamsize>(s.size()));
  return s;
}

// Random bytes (seeded per run from random_device, so no test depends on a fixed pattern).
inline std::string random_bytes(std::size_t n) {
  std::mt19937_64 gen(std::random_device{}());
  std::string s(n, '\0');
  for (std::size_t i = 0; i < n; i += 8) {
    const std::uint64_t v = gen();
    for (std::size_t k = 0; k < 8 && i + k < n; ++k) s[i + k] = static_cast<char>(v >> (8 * k));
  }
  return s;
}

// NETLAB_FTP_BIG_MB overrides the size of big.bin (default 20 MB; up to 100 MB for the full check).
inline std::size_t big_size() {
  const char* env = std::getenv("NETLAB_FTP_BIG_MB");
  const std::size_t mb = env ? std::strtoul(env, nullptr, 10) : 20;
  return (mb ? mb : 20) * 1000 * 1000 + 13;
}

struct served_dir {
  std::string dir = make_temp_dir();
  std::string root = dir + "/root";
  served_dir() {
    write_file(root + "/big.bin", random_bytes(big_size()));
    write_file(root + "/hello.txt", "hello\n");
    std::filesystem::create_directories(root + "/pub");
    write_file(dir + "/outside.txt", "must not be served\n");
    write_file(dir + "/users.txt", "# test users\nalice:wonderland\n");
    std::filesystem::create_symlink(dir + "/outside.txt", root + "/escape.txt");
  }
  ~served_dir() {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
};

struct running_server {
  std::unique_ptr<process> proc;
  std::string address;
  int port = 0;
  running_server(const served_dir& d, std::vector<std::string> extra) {
    std::vector<std::string> argv{bin_path("lab-ftp"), "serve", "--root", d.root, "--listen", "127.0.0.1:0"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    proc = std::make_unique<process>(argv);
    address = proc->wait_listening();
    port = process::port_of(address);
  }
  [[nodiscard]] std::string url(const std::string& path) const { return "ftp://" + address + path; }
};

inline run_result python_check(const std::string& check, const running_server& s, const served_dir& d,
                               std::vector<std::string> extra = {}) {
  std::vector<std::string> argv{"/usr/bin/python3", source_path("tests/integration/ftp/ftp_checks.py"), check,
                                std::to_string(s.port), d.root};
  argv.insert(argv.end(), extra.begin(), extra.end());
  return run(argv, {}, std::chrono::seconds(180));
}

}  // namespace ftp_it
