// lab-ftp serve against curl and wget: EPSV, PASV (--disable-epsv), EPRT (-P), PORT
// (--disable-eprt), uploads with -T, listings; random binary files byte-identical.
#include "serve_fixture.hpp"

using namespace ftp_it;

namespace serve_curl_test {
struct ServeCurl : ::testing::Test {
  void SetUp() override { NETLAB_REQUIRE_PEER("curl"); }
};

void expect_download(const running_server& s, const served_dir& d, std::vector<std::string> flags, const char* what) {
  const std::string out = d.dir + "/download.bin";
  std::vector<std::string> argv{"curl", "-sS", "--max-time", "60", "-o", out};
  argv.insert(argv.end(), flags.begin(), flags.end());
  argv.push_back(s.url("/big.bin"));
  const auto r = run(argv);
  ASSERT_EQ(r.exit_code, 0) << what << ": " << r.err;
  EXPECT_TRUE(read_whole(out) == read_whole(d.root + "/big.bin")) << what << ": download differs";
  std::filesystem::remove(out);
}
}  // namespace serve_curl_test
using namespace serve_curl_test;

TEST_F(ServeCurl, RetrEpsvPasvEprtPortByteIdentical) {
  served_dir d;
  running_server s(d, {"--anonymous"});
  expect_download(s, d, {}, "EPSV");
  expect_download(s, d, {"--disable-epsv"}, "PASV");
  expect_download(s, d, {"-P", "127.0.0.1"}, "EPRT");
  expect_download(s, d, {"-P", "127.0.0.1", "--disable-eprt"}, "PORT");
}

TEST_F(ServeCurl, UploadsWithTEpsvAndActiveAreStoredWhole) {
  served_dir d;
  running_server s(d, {"--anonymous", "--write", "--users", d.dir + "/users.txt"});
  const std::string src = d.dir + "/upload.bin";
  write_file(src, random_bytes(big_size() / 2 + 5));
  auto r = run({"curl", "-sS", "--max-time", "60", "-T", src, s.url("/pub/up1.bin")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(read_whole(d.root + "/pub/up1.bin") == read_whole(src));
  r = run({"curl", "-sS", "--max-time", "60", "-P", "127.0.0.1", "--disable-eprt", "-T", src, s.url("/pub/up2.bin")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(read_whole(d.root + "/pub/up2.bin") == read_whole(src));
  // Appending (curl --append uses APPE) to an existing file takes a named user: anonymous users
  // may only create new files (tests/security/ftp_rights_test.cpp).
  write_file(d.dir + "/tail.txt", "tail\n");
  r = run({"curl", "-sS", "--append", "-T", d.dir + "/tail.txt", s.url("/pub/up1.bin")});
  EXPECT_NE(r.exit_code, 0) << "anonymous APPE to an existing file was accepted";
  r = run({"curl", "-sS", "-u", "alice:wonderland", "--append", "-T", d.dir + "/tail.txt", s.url("/pub/up1.bin")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_whole(d.root + "/pub/up1.bin"), read_whole(src) + "tail\n");
}

TEST_F(ServeCurl, ListingsAndNames) {
  served_dir d;
  running_server s(d, {"--anonymous"});
  auto r = run({"curl", "-sS", s.url("/")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // curl turns the CRLF of an ASCII listing into local LF.
  EXPECT_NE(r.out.find(" big.bin\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("drwxr-xr-x"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("escape.txt"), std::string::npos) << "symlink listed: " << r.out;
  r = run({"curl", "-sS", "--list-only", s.url("/")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "big.bin\nhello.txt\npub\n");
  r = run({"curl", "-sS", "-P", "127.0.0.1", "--list-only", s.url("/pub/")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");
}

TEST_F(ServeCurl, ReadOnlyRefusesUploadAndTraversalFails) {
  served_dir d;
  running_server s(d, {"--anonymous"});
  write_file(d.dir + "/x.txt", "x");
  auto r = run({"curl", "-sS", "-T", d.dir + "/x.txt", s.url("/x.txt")});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_FALSE(std::filesystem::exists(d.root + "/x.txt"));
  r = run({"curl", "-sS", "-o", "/dev/null", "-w", "%{response_code}", s.url("/%2e%2e/outside.txt")});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_EQ(r.out, "550");
  r = run({"curl", "-sS", "-o", "/dev/null", "-w", "%{response_code}", s.url("/escape.txt")});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_EQ(r.out, "550");
}

TEST(ServeWget, PassiveRetrByteIdentical) {
  NETLAB_REQUIRE_PEER("wget");
  served_dir d;
  running_server s(d, {"--anonymous"});
  const std::string out = d.dir + "/wget.bin";
  const auto r = run({"wget", "-q", "--passive-ftp", "-T", "30", "-O", out, s.url("/big.bin")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(read_whole(out) == read_whole(d.root + "/big.bin"));
}

TEST(ServeIpv6, EpsvAndEprtOverIpv6Loopback) {
  NETLAB_REQUIRE_PEER("curl");
  std::ifstream inet6("/proc/net/if_inet6");
  const std::string table((std::istreambuf_iterator<char>(inet6)), std::istreambuf_iterator<char>());
  if (table.find("00000000000000000000000000000001") == std::string::npos) GTEST_SKIP() << "no IPv6 loopback (::1)";
  served_dir d;
  process proc({bin_path("lab-ftp"), "serve", "--root", d.root, "--listen", "[::1]:0", "--anonymous"});
  const std::string address = proc.wait_listening();
  ASSERT_EQ(address.rfind("[::1]:", 0), 0u) << address;
  auto r = run({"curl", "-sS", "-g", "ftp://" + address + "/hello.txt"});  // EPSV
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "hello\n");
  r = run({"curl", "-sS", "-g", "-P", "-", "ftp://" + address + "/hello.txt"});  // EPRT |2|::1|port|
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "hello\n");
  r = run({bin_path("lab-ftp"), "get", "ftp://" + address + "/hello.txt", "-o", "-", "--active", "--trace"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "hello\n");
  EXPECT_NE(r.err.find("> EPRT |2|::1|"), std::string::npos) << r.err;
}
