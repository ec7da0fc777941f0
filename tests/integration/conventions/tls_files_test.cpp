// docs/conventions.md for the files every TLS server and client is given and for --listen: a
// --tls-cert, --tls-key, --cacert or --ca-file that does not exist is a usage error (exit 2, one
// line, "no such file") in every program, not OpenSSL's "asio.ssl error"; one that exists but is
// not PEM, or cannot be read, is a runtime failure (exit 1) that says so. A --listen address that
// is not an IP address is a usage error in every server.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "netlib/io/asio.hpp"
#include "netlib/io/tls.hpp"
#include "support/process.hpp"

namespace tls_files_test {  // named: the area is one unity build with programs_test.cpp
namespace {

namespace fs = std::filesystem;
using netlab::test::bin_path;
using netlab::test::run;

const std::string missing = "/nonexistent-netlab-input/cert.pem";

struct scratch {
  fs::path dir;
  std::string users, text, root;
  scratch() {
    dir = fs::path(::testing::TempDir()) / ("netlab-tls-files-" + std::to_string(::getpid()));
    fs::create_directories(dir / "site");
    users = (dir / "users.txt").string();
    text = (dir / "not-pem.txt").string();
    root = (dir / "site").string();
    std::ofstream(users) << "alice:secret\n";
    std::ofstream(text) << "this is not a certificate\n";
  }
  ~scratch() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  // Every server command that takes --tls-cert/--tls-key, without them.
  [[nodiscard]] std::vector<std::vector<std::string>> servers() const {
    const std::string mail = (dir / "mail").string();
    return {{bin_path("lab-http"), "serve", "--root", root},
            {bin_path("lab-ftp"), "serve", "--root", root},
            {bin_path("lab-smtp"), "serve", "--maildir", mail, "--domain", "example.org", "--users", users},
            {bin_path("lab-pop3"), "serve", "--maildir", mail, "--users", users}};
  }
};

std::size_t lines(const std::string& s) {
  return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n'));
}

std::string joined(const std::vector<std::string>& argv) {
  std::string s;
  for (const auto& a : argv) s += (s.empty() ? "" : " ") + a;
  return s;
}

void expect_exit(std::vector<std::string> argv, const std::vector<std::string>& extra, int code,
                 const std::string& says, const std::string& never_says = "asio.ssl error") {
  argv.insert(argv.end(), extra.begin(), extra.end());
  SCOPED_TRACE(joined(argv));
  const auto r = run(argv, {}, std::chrono::seconds(20));
  EXPECT_EQ(r.exit_code, code) << r.err;
  EXPECT_EQ(lines(r.err), 1U) << r.err;
  EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find(never_says), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
}

TEST(TlsFiles, AMissingCertificateOrKeyIsAUsageErrorInEveryServer) {
  scratch s;
  for (const auto& server : s.servers()) {
    expect_exit(server, {"--tls-cert", missing, "--tls-key", s.text}, 2, "--tls-cert: '" + missing + "': no such file");
    expect_exit(server, {"--tls-cert", s.text, "--tls-key", missing}, 2, "--tls-key: '" + missing + "': no such file");
    expect_exit(server, {"--tls-cert", s.root, "--tls-key", s.text}, 2, "is a folder, not a file");
  }
}

TEST(TlsFiles, AFileThatIsNotPemIsARuntimeFailureThatSaysWhatWasExpected) {
  scratch s;
  for (const auto& server : s.servers())
    expect_exit(server, {"--tls-cert", s.text, "--tls-key", s.text, "--listen", "127.0.0.1:0"}, 1,
                "cannot load TLS certificate '" + s.text + "': no start line (expected a PEM certificate chain");
}

TEST(TlsFiles, AMissingCaFileIsAUsageErrorInEveryClient) {
  scratch s;
  expect_exit({bin_path("lab-http"), "get", "https://127.0.0.1:1/", "--cacert", missing}, {}, 2,
              "--cacert: '" + missing + "': no such file");
  expect_exit({bin_path("lab-smtp"), "send", "--server", "127.0.0.1:1", "--from", "a@example.org", "--to",
               "b@example.org", "--starttls", "--ca-file", missing},
              {}, 2, "--ca-file: '" + missing + "': no such file");
  expect_exit({bin_path("lab-pop3"), "fetch", "--server", "127.0.0.1:1", "--user", "a", "--password", "b", "--out",
               (s.dir / "out").string(), "--stls", "--ca-file", missing},
              {}, 2, "--ca-file: '" + missing + "': no such file");
}

// A CA file or --insecure where no TLS is spoken would be ignored, and --insecure with a CA file
// contradicts it: usage errors (docs/conventions.md).
TEST(TlsFiles, CaOptionsWithoutTlsAreUsageErrors) {
  scratch s;
  const std::vector<std::string> send{bin_path("lab-smtp"), "send", "--server",     "127.0.0.1:1", "--from",
                                      "a@example.org",      "--to", "b@example.org"};
  expect_exit(send, {"--ca-file", s.text}, 2, "--insecure and --ca-file are used only with --starttls");
  expect_exit(send, {"--starttls", "--insecure", "--ca-file", s.text}, 2, "--ca-file would not be used");
  const std::vector<std::string> fetch{
      bin_path("lab-pop3"), "fetch", "--server", "127.0.0.1:1",           "--user", "a",
      "--password",         "b",     "--out",    (s.dir / "out").string()};
  expect_exit(fetch, {"--insecure"}, 2, "--insecure and --ca-file are used only with --stls");
  expect_exit({bin_path("lab-http"), "get", "http://127.0.0.1:1/", "--cacert", s.text}, {}, 2,
              "--cacert and --insecure are used only for an https:// URL");
  expect_exit({bin_path("lab-http"), "get", "https://127.0.0.1:1/", "-k", "--cacert", s.text}, {}, 2,
              "--cacert would not be used");
}

// The check every TLS context makes before OpenSSL reads a file (io::check_tls_file): the errno
// text for a file that exists but cannot be read. /proc/sys/vm/compact_memory is write-only even
// for root (sysctl files keep their mode bits for everyone).
TEST(TlsFiles, AnUnreadableFileGivesTheErrnoText) {
  scratch s;
  const std::string write_only = "/proc/sys/vm/compact_memory";
  if (std::ifstream(write_only).good() || !fs::exists(write_only)) GTEST_SKIP() << write_only << " is readable here";
  try {
    netlib::io::check_tls_file("TLS certificate", write_only);
    ADD_FAILURE() << "no error";
  } catch (const netlib::io::io_error& e) {
    EXPECT_EQ(std::string(e.what()), "cannot read TLS certificate '" + write_only + "': Permission denied");
  }
  try {
    netlib::io::make_client_tls(true, missing);
    ADD_FAILURE() << "no error";
  } catch (const netlib::io::io_error& e) {
    EXPECT_EQ(std::string(e.what()), "CA certificate file '" + missing + "': no such file");
  }
  // A server: the unreadable key after a good certificate is named, exit 1.
  const auto made =
      run({"openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", (s.dir / "key.pem").string(), "-out",
           (s.dir / "cert.pem").string(), "-days", "1", "-subj", "/CN=localhost"});
  ASSERT_EQ(made.exit_code, 0) << made.err;
  expect_exit({bin_path("lab-http"), "serve", "--root", s.root, "--tls-cert", (s.dir / "cert.pem").string(),
               "--tls-key", write_only},
              {}, 1, "cannot read TLS key '" + write_only + "': Permission denied");
}

TEST(Listen, AnAddressThatIsNotAnIpAddressIsAUsageErrorInEveryServer) {
  scratch s;
  auto servers = s.servers();
  servers.push_back({bin_path("lab-http"), "proxy"});
  servers.push_back({bin_path("lab-delay"), "echo"});
  servers.push_back({bin_path("lab-throughput"), "serve"});
  for (const auto& server : servers) {
    expect_exit(server, {"--listen", "nohost"}, 2, "--listen: 'nohost' is not an IP address", "cannot listen");
    expect_exit(server, {"--listen", "nohost:8080"}, 2, "'nohost' is not an IP address", "cannot listen");
  }
}

}  // namespace
}  // namespace tls_files_test
