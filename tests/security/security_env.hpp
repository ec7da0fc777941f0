#pragma once
// Shared pieces of the security suites: a temporary folder, a self-signed certificate, and the
// probe driver (tests/security/security_probe.py) whose JSON report each suite checks and prints
// as "SUITE: N attempts, 0 succeeded".
#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/process.hpp"

namespace security_test {
namespace fs = std::filesystem;

struct temp_dir {
  fs::path path;
  explicit temp_dir(const std::string& stem) {
    std::string tmpl = (fs::temp_directory_path() / (stem + "-XXXXXX")).string();
    if (::mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path = tmpl;
  }
  ~temp_dir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;
};

inline void write_file(const fs::path& path, const std::string& content) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << content;
}

// openssl req -x509 ... into DIR/cert.pem and DIR/key.pem; returns the server's TLS options.
inline std::vector<std::string> make_cert(const fs::path& dir) {
  const auto r =
      netlab::test::run({"openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost", "-days",
                         "1", "-keyout", (dir / "key.pem").string(), "-out", (dir / "cert.pem").string()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return {"--tls-cert", (dir / "cert.pem").string(), "--tls-key", (dir / "key.pem").string()};
}

inline std::string port_of(netlab::test::process& server) {
  return std::to_string(netlab::test::process::port_of(server.wait_listening()));
}

// Runs tests/security/SCRIPT (a Python probe) with `args`, at most `timeout`, and returns the one
// JSON object it prints (an empty object, and a test failure, when it fails or prints none).
inline nlohmann::json run_probe(const std::string& script, const std::vector<std::string>& args,
                                std::chrono::seconds timeout) {
  std::vector<std::string> argv{"/usr/bin/python3", netlab::test::source_path("tests/security/" + script)};
  argv.insert(argv.end(), args.begin(), args.end());
  const auto r = netlab::test::run(argv, {}, timeout);
  EXPECT_EQ(r.exit_code, 0) << r.err << r.out;
  const auto doc = nlohmann::json::parse(r.out, nullptr, false);
  EXPECT_FALSE(doc.is_discarded()) << r.out << r.err;
  return doc.is_discarded() ? nlohmann::json::object() : doc;
}

// Runs one probe suite and checks: at least `min_attempts` attempts, none succeeded, and the
// suite's control (a legitimate request judged by the same detector) succeeded.
inline void expect_no_success(const std::vector<std::string>& args, int min_attempts) {
  std::vector<std::string> argv{"/usr/bin/python3", netlab::test::source_path("tests/security/security_probe.py")};
  argv.insert(argv.end(), args.begin(), args.end());
  const auto r = netlab::test::run(argv, {}, std::chrono::seconds(120));
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  const auto doc = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << r.out;
  const int attempts = doc.value("attempts", 0);
  const int succeeded = doc.value("succeeded", -1);
  std::printf("%s: %d attempts, %d succeeded\n", doc.value("suite", std::string("?")).c_str(), attempts, succeeded);
  EXPECT_GE(attempts, min_attempts);
  EXPECT_TRUE(doc.value("control_ok", false)) << "the legitimate control request was not seen to succeed";
  EXPECT_EQ(succeeded, 0) << doc["successes"].dump(2);
}

}  // namespace security_test
