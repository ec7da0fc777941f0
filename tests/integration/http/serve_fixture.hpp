#pragma once
// A document root in a fresh temporary folder and a running `lab-http serve` on port 0.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "support/peers.hpp"
#include "support/process.hpp"

namespace netlab::test {

inline std::string make_temp_dir() {
  std::string tmpl = (std::filesystem::temp_directory_path() / "netlab-http-XXXXXX").string();
  if (!::mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
  return tmpl;
}

inline void write_file(const std::string& path, const std::string& content) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path, std::ios::binary) << content;
}

inline std::string read_whole(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A pseudo-random but fixed byte pattern of n bytes.
inline std::string pattern(std::size_t n) {
  std::string s(n, '\0');
  std::uint32_t x = 12345;
  for (auto& c : s) {
    x = x * 1103515245u + 12345u;
    c = static_cast<char>(x >> 16);
  }
  return s;
}

struct site_dir {
  std::string dir = make_temp_dir();
  std::string root = dir + "/root";
  site_dir() {
    write_file(root + "/index.html",
               "<html><head><link rel=\"stylesheet\" href=\"style.css\"></head>"
               "<body><img src=\"img/a.png\"><img src=\"/img/b.png\"></body></html>\n");
    write_file(root + "/style.css", "body { color: black; }\n");
    write_file(root + "/img/a.png", pattern(5000));
    write_file(root + "/img/b.png", pattern(7000));
    write_file(root + "/big.bin", pattern(3 * 1024 * 1024 + 17));
    write_file(root + "/private/index.html", "secret page\n");
    write_file(dir + "/users.txt", "alice:wonderland\n");
    write_file(dir + "/outside.txt", "must not be served\n");
    std::filesystem::create_symlink(dir + "/outside.txt", root + "/escape.txt");
  }
  ~site_dir() {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
};

// Starts lab-http serve on 127.0.0.1:0 with the extra flags; `address` is "127.0.0.1:PORT".
struct running_server {
  std::unique_ptr<process> proc;
  std::string address;
  running_server(const site_dir& site, std::vector<std::string> extra = {}) {
    std::vector<std::string> argv{bin_path("lab-http"), "serve", "--root", site.root, "--listen", "127.0.0.1:0"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    proc = std::make_unique<process>(argv);
    address = proc->wait_listening();
  }
  [[nodiscard]] std::string url(const std::string& path) const { return "http://" + address + path; }
};

}  // namespace netlab::test
