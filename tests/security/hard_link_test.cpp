// Issue 31, item 14: hard links. A hard link is the file itself under a second name: nothing in
// it says where its other names are, so a link in the public part of the root to a file in the
// protected folder served it without credentials, and one to a file outside the root served
// that. The file servers (lab-http serve, lab-ftp serve) refuse a regular file that has more than
// one name (docs/security.md, "Paths, links and the disk root"); an ordinary file is served.
#include <unistd.h>

#include <cstdio>

#include "security/raw_client.hpp"
#include "security/security_env.hpp"

namespace hard_link_test {

using namespace security_test;
using namespace std::chrono_literals;

struct linked_tree {
  temp_dir dir{"netlab-sec-hardlink"};
  fs::path root = dir.path / "root";
  linked_tree() {
    write_file(root / "private/secret.txt", "SECRET-hardlink-7c1\n");
    write_file(dir.path / "outside.txt", "OUTSIDE-hardlink-2b8\n");
    write_file(root / "pub/plain.txt", "plain\n");
    fs::create_hard_link(root / "private/secret.txt", root / "pub/alias.txt");
    fs::create_hard_link(dir.path / "outside.txt", root / "pub/outside.txt");
    write_file(dir.path / "users.txt", "alice:secret\n");
  }
};

std::string get(int port, const std::string& path) {
  raw_client c(port);
  c.send("GET " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  return c.until_closed(10s);
}

TEST(HardLinks, HttpRefusesFilesWithSeveralNames) {
  linked_tree t;
  netlab::test::process server({netlab::test::bin_path("lab-http"), "serve", "--root", t.root.string(), "--auth-dir",
                                "private", "--auth-users", (t.dir.path / "users.txt").string(), "--listen",
                                "127.0.0.1:0"});
  const int port = netlab::test::process::port_of(server.wait_listening());
  for (int round = 0; round < 2; ++round) {  // the second round may come from the file cache
    for (const std::string path : {"/pub/alias.txt", "/pub/outside.txt"}) {
      const std::string r = get(port, path);
      std::printf("hard link %s: %s\n", path.c_str(), r.substr(0, r.find("\r\n")).c_str());
      EXPECT_NE(r.substr(0, 12), "HTTP/1.1 200") << r;
      EXPECT_EQ(r.find("SECRET-hardlink"), std::string::npos);
      EXPECT_EQ(r.find("OUTSIDE-hardlink"), std::string::npos);
    }
    EXPECT_EQ(get(port, "/pub/plain.txt").substr(0, 12), "HTTP/1.1 200");
  }
}

TEST(HardLinks, FtpRefusesFilesWithSeveralNames) {
  linked_tree t;
  netlab::test::process server({netlab::test::bin_path("lab-ftp"), "serve", "--root", t.root.string(), "--users",
                                (t.dir.path / "users.txt").string(), "--write", "--listen", "127.0.0.1:0"});
  const int port = netlab::test::process::port_of(server.wait_listening());
  const auto r = netlab::test::run({"/usr/bin/python3", netlab::test::source_path("tests/security/ftp_rights_probe.py"),
                                    "ops", std::to_string(port), "alice", "secret", "RETR:pub/alias.txt",
                                    "RETR:pub/outside.txt", "APPE:pub/outside.txt:appended", "RETR:pub/plain.txt"},
                                   {}, std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_TRUE(doc.is_array() && doc.size() == 4) << r.out;
  for (std::size_t i = 0; i < 3; ++i) {
    const std::string reply = doc[i].value("reply", std::string());
    std::printf("FTP %s: %s\n", doc[i].value("op", std::string()).c_str(), reply.c_str());
    EXPECT_EQ(reply.substr(0, 1), "5") << doc[i].dump();
    EXPECT_EQ(doc[i].dump().find("hardlink"), std::string::npos) << doc[i].dump();
  }
  EXPECT_EQ(doc[3].value("reply", std::string()).substr(0, 3), "226") << doc[3].dump();
  std::ifstream outside(t.dir.path / "outside.txt");
  std::string text((std::istreambuf_iterator<char>(outside)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, "OUTSIDE-hardlink-2b8\n") << "the file outside the root was changed";
}

}  // namespace hard_link_test
