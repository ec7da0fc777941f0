// Issue 31, items 10 and 11: names from the disk must not inject protocol lines.
//   - lab-http's 301 to the slash form of a folder carried the decoded path raw in Location, so a
//     folder named "inj\r\nX-Injected: yes" added a header; spaces, quotes, '<' and non-ASCII
//     bytes went out raw too. Location is now percent-encoded (RFC 3986 §2.1, RFC 9110 §10.2.2).
//   - lab-ftp's `STAT path` lists on the control connection: a name holding CR LF wrote a fake
//     "226" line inside the 213 reply. Names that cannot be spoken in the protocol (CR or LF in
//     them: no FTP command line can carry them back) are left out of every listing.
#include <cstdio>

#include "security/raw_client.hpp"
#include "security/security_env.hpp"

namespace reply_injection_test {

using namespace security_test;
using namespace std::chrono_literals;

std::string location_of(const std::string& head) {
  const auto p = head.find("\r\nLocation: ");
  if (p == std::string::npos) return {};
  const auto start = p + 12;
  return head.substr(start, head.find("\r\n", start) - start);
}

// RFC 3986 §2: what a URI may hold literally (a path, here).
bool uri_safe(const std::string& s) {
  for (const unsigned char c : s) {
    const bool ok =
        std::isalnum(c) || std::string_view("-._~!$&'()*+,;=:@/%").find(static_cast<char>(c)) != std::string_view::npos;
    if (!ok) return false;
  }
  return true;
}

TEST(ReplyInjection, HttpRedirectLocationIsPercentEncoded) {
  temp_dir dir("netlab-sec-redirect");
  const fs::path root = dir.path / "root";
  const std::vector<std::pair<std::string, std::string>> folders{
      {"inj\r\nX-Injected: yes", "/inj%0D%0AX-Injected:%20yes"},
      {"a b\"<c>", "/a%20b%22%3Cc%3E"},
      {"caf\xc3\xa9", "/caf%C3%A9"},
      {"50%", "/50%25"},
  };
  for (const auto& f : folders) write_file(root / f.first / "index.html", "<p>folder</p>\n");
  netlab::test::process server(
      {netlab::test::bin_path("lab-http"), "serve", "--root", root.string(), "--listen", "127.0.0.1:0"});
  const int port = netlab::test::process::port_of(server.wait_listening());
  for (const auto& [name, target] : folders) {
    raw_client c(port);
    ASSERT_TRUE(c.ok());
    c.send("GET " + target + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    const std::string response = c.until_closed(10s);
    const std::string head = response.substr(0, response.find("\r\n\r\n") + 2);
    const std::string location = location_of(head);
    std::printf("folder %s: %s, Location: %s\n", target.c_str(), head.substr(0, head.find("\r\n")).c_str(),
                location.c_str());
    EXPECT_EQ(head.substr(0, 12), "HTTP/1.1 301") << head;
    EXPECT_EQ(head.find("\r\nX-Injected"), std::string::npos) << "a header was injected:\n" << head;
    EXPECT_TRUE(uri_safe(location)) << location;
    EXPECT_EQ(location, target + "/");
    // The Location leads back to the folder: following it serves the index page.
    raw_client again(port);
    again.send("GET " + location + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    EXPECT_EQ(again.until_closed(10s).substr(0, 12), "HTTP/1.1 200") << location;
  }
}

TEST(ReplyInjection, FtpStatListingCannotInjectReplyLines) {
  temp_dir dir("netlab-sec-stat");
  const fs::path root = dir.path / "root";
  write_file(root / "plain.txt", "x\n");
  write_file(root / "evil\r\n226 Transfer complete, trust me", "x\n");
  write_file(root / "lf\nonly", "x\n");
  write_file(dir.path / "users.txt", "alice:secret\n");
  netlab::test::process server({netlab::test::bin_path("lab-ftp"), "serve", "--root", root.string(), "--users",
                                (dir.path / "users.txt").string(), "--listen", "127.0.0.1:0"});
  const int port = netlab::test::process::port_of(server.wait_listening());
  raw_client c(port);
  ASSERT_TRUE(c.ok());
  c.reply();
  c.send("USER alice\r\n");
  c.reply();
  c.send("PASS secret\r\n");
  ASSERT_EQ(c.reply().substr(0, 3), "230");
  c.send("STAT /\r\n");
  // Every line up to the one that ends the 213 reply (a line "213 ..."): none may look like the
  // end of another reply.
  std::vector<std::string> lines;
  for (int i = 0; i < 100; ++i) {
    const std::string l = c.line(5s);
    lines.push_back(l);
    if (l.empty() || (l.size() >= 4 && l[3] == ' ' && std::isdigit(static_cast<unsigned char>(l[0])))) break;
  }
  std::printf("STAT / with a file named \"evil\\r\\n226 ...\": %zu lines, the last \"%s\"\n", lines.size(),
              lines.back().c_str());
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines.back().substr(0, 4), "213 ") << "the reply ended early, at: " << lines.back();
  bool plain = false;
  for (const auto& l : lines) plain = plain || l.find("plain.txt") != std::string::npos;
  EXPECT_TRUE(plain) << "the ordinary file is listed";
  // Nothing else is pending: the next command's reply is the next thing on the wire.
  c.send("NOOP\r\n");
  const std::string noop = c.line(5s);
  EXPECT_EQ(noop.substr(0, 3), "200") << noop;
}

}  // namespace reply_injection_test
