// lab-http serve: access rules decided on the file actually served (issue 17, defect 3), a
// trailing slash after a file name (defect 9), and a connection that never sends a byte closed
// by the request-head deadline rather than the idle timeout (defect 9). Real client: curl.
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>

#include "security/security_env.hpp"
#include "support/peers.hpp"

namespace http_disk_access_test {

using namespace security_test;

struct protected_site {
  temp_dir dir{"netlab-sec-http-auth"};
  fs::path root = dir.path / "root";
  std::unique_ptr<netlab::test::process> server;
  std::string address;
  explicit protected_site(std::vector<std::string> extra = {}) {
    write_file(root / "index.html", "<p>public</p>\n");
    write_file(root / "public/page.txt", "public page\n");
    write_file(root / "private/secret.txt", "SECRET-behind-basic-auth-5d1e\n");
    write_file(root / "private/index.html", "SECRET-behind-basic-auth-5d1e index\n");
    write_file(root / "private/deeper/more.txt", "SECRET-behind-basic-auth-5d1e deeper\n");
    write_file(dir.path / "users.txt", "alice:wonderland\n");
    fs::create_directories(root / "links");
    fs::create_directory_symlink("private", root / "alias");             // relative, to the folder
    fs::create_symlink(root / "private/secret.txt", root / "file.txt");  // absolute, to a file in it
    fs::create_symlink("../private/deeper", root / "links/deep");        // climbs, stays inside
    fs::create_symlink("../public/page.txt", root / "links/page.txt");   // to a public file
    std::vector<std::string> argv{netlab::test::bin_path("lab-http"),
                                  "serve",
                                  "--root",
                                  root.string(),
                                  "--auth-dir",
                                  "private",
                                  "--auth-users",
                                  (dir.path / "users.txt").string(),
                                  "--listen",
                                  "127.0.0.1:0"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    server = std::make_unique<netlab::test::process>(argv);
    address = server->wait_listening();
  }
  // curl's status code and body for a path (credentials "user:password" when given).
  std::pair<std::string, std::string> get(const std::string& path, const std::string& credentials = {}) const {
    std::vector<std::string> argv{"curl", "-s", "--path-as-is",   "-o",
                                  "-",    "-w", "\n%{http_code}", "http://" + address + path};
    if (!credentials.empty()) argv.insert(argv.begin() + 1, {"-u", credentials});
    const auto r = netlab::test::run(argv, {}, std::chrono::seconds(20));
    const auto nl = r.out.rfind('\n');
    if (nl == std::string::npos) return {r.out, ""};
    return {r.out.substr(nl + 1), r.out.substr(0, nl)};
  }
};

TEST(HttpDiskAccess, BasicAuthAppliesToTheResolvedFile) {
  NETLAB_REQUIRE_PEER("curl");
  protected_site site;
  // The control: the protected folder by its own name.
  EXPECT_EQ(site.get("/private/secret.txt").first, "401");
  EXPECT_EQ(site.get("/private/secret.txt", "alice:wonderland").first, "200");
  // The same files reached through symbolic links inside the root.
  for (const std::string path : {"/alias/secret.txt", "/file.txt", "/alias/", "/alias/index.html",
                                 "/links/deep/more.txt", "/alias/deeper/more.txt"}) {
    SCOPED_TRACE(path);
    const auto [status, body] = site.get(path);
    EXPECT_EQ(status, "401") << body;
    EXPECT_EQ(body.find("SECRET-behind-basic-auth-5d1e"), std::string::npos);
    const auto [ok_status, ok_body] = site.get(path, "alice:wonderland");
    EXPECT_EQ(ok_status, "200") << ok_body;
    EXPECT_NE(ok_body.find("SECRET-behind-basic-auth-5d1e"), std::string::npos);
  }
  // A link into the public part is served without credentials, as before.
  EXPECT_EQ(site.get("/links/page.txt"), (std::pair<std::string, std::string>{"200", "public page\n"}));
  EXPECT_EQ(site.get("/alias").first, "401");  // the folder link itself, without its slash
  EXPECT_EQ(site.get("/alias", "alice:wonderland").first, "301");
}

TEST(HttpDiskAccess, ProtectedFolderThatIsALinkProtectsItsTarget) {
  NETLAB_REQUIRE_PEER("curl");
  temp_dir dir("netlab-sec-http-vault");
  write_file(dir.path / "root/vault/secret.txt", "SECRET-in-the-vault-0b7c\n");
  write_file(dir.path / "users.txt", "alice:wonderland\n");
  fs::create_directory_symlink("vault", dir.path / "root/private");
  netlab::test::process server({netlab::test::bin_path("lab-http"), "serve", "--root", (dir.path / "root").string(),
                                "--auth-dir", "private", "--auth-users", (dir.path / "users.txt").string(), "--listen",
                                "127.0.0.1:0"});
  const std::string base = "http://" + server.wait_listening();
  for (const std::string path : {"/private/secret.txt", "/vault/secret.txt"}) {
    const auto r = netlab::test::run({"curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", base + path}, {},
                                     std::chrono::seconds(20));
    EXPECT_EQ(r.out, "401") << path;
  }
}

TEST(HttpDiskAccess, BasicAuthAppliesToTheResolvedFileFromTheCache) {
  NETLAB_REQUIRE_PEER("curl");
  // The small-file cache must remember where a file really is: settle 0 caches at once.
  protected_site site({"--file-cache-settle", "0"});
  for (int round = 0; round < 3; ++round) {
    SCOPED_TRACE(round);
    EXPECT_EQ(site.get("/file.txt", "alice:wonderland").first, "200");
    EXPECT_EQ(site.get("/file.txt").first, "401");
    EXPECT_EQ(site.get("/alias/secret.txt").first, "401");
  }
}

TEST(HttpDiskAccess, TrailingSlashAfterAFileIsNotFound) {
  NETLAB_REQUIRE_PEER("curl");
  protected_site site;
  EXPECT_EQ(site.get("/public/page.txt").first, "200");
  EXPECT_EQ(site.get("/public/page.txt/").first, "404");
  EXPECT_EQ(site.get("/links/page.txt/").first, "404");
  EXPECT_EQ(site.get("/index.html/").first, "404");
  EXPECT_EQ(site.get("/public/").first, "404");  // a folder without an index page: unchanged
}

// Opens a TCP connection, sends nothing, and returns how long the server took to close it.
double seconds_until_closed(int port, double limit_s) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<std::uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  const auto start = std::chrono::steady_clock::now();
  if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    ::close(fd);
    return -1;
  }
  double elapsed = limit_s;
  while (true) {
    elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (elapsed >= limit_s) break;
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>((limit_s - elapsed) * 1000) + 1) > 0) {
      char byte;
      if (::recv(fd, &byte, 1, 0) <= 0) {  // end of stream or reset: the server closed
        elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        break;
      }
    }
  }
  ::close(fd);
  return elapsed;
}

TEST(HttpDiskAccess, SilentConnectionClosedByTheHeadTimeout) {
  temp_dir dir("netlab-sec-http-silent");
  write_file(dir.path / "index.html", "<p>hi</p>\n");
  netlab::test::process server({netlab::test::bin_path("lab-http"), "serve", "--root", dir.path.string(), "--listen",
                                "127.0.0.1:0", "--head-timeout", "1", "--idle-timeout", "20"});
  const int port = netlab::test::process::port_of(server.wait_listening());
  const double took = seconds_until_closed(port, 15);
  std::printf("silent connection closed after %.2f s (head timeout 1 s, idle timeout 20 s)\n", took);
  EXPECT_GE(took, 0.9);
  EXPECT_LT(took, 3.5) << "a connection that never sends a byte must be closed by the head timeout";
}

}  // namespace http_disk_access_test
