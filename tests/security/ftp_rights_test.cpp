// lab-ftp serve: what an anonymous user may change with --write (issue 17, defect 5: vsftpd's
// split), FTPS data connections bound to the control connection's TLS session (defect 6:
// vsftpd's require_ssl_reuse), and a bare CR in a command line (defect 9). Real clients: Python's
// ftplib (tests/security/ftp_rights_probe.py), curl and lftp.
#include <chrono>

#include "netlib/io/tcp_client.hpp"
#include "security/security_env.hpp"
#include "support/peers.hpp"

namespace ftp_rights_test {

using namespace security_test;
using nlohmann::json;

struct ftp_server {
  temp_dir dir{"netlab-sec-ftp-rights"};
  fs::path root = dir.path / "root";
  std::vector<std::string> tls;
  std::unique_ptr<netlab::test::process> server;
  int port = 0;
  explicit ftp_server(std::vector<std::string> flags, bool with_tls = false) {
    write_file(root / "pub/theirs.txt", "uploaded by the owner\n");
    write_file(root / "pub/old/keep.txt", "keep\n");
    fs::create_directories(root / "pub/empty");
    write_file(root / "secret.txt", "SECRET-ftps-data-3e9a\n");
    write_file(dir.path / "users.txt", "owner:owner-pw\n");
    std::vector<std::string> argv{netlab::test::bin_path("lab-ftp"), "serve",    "--root",     root.string(), "--users",
                                  (dir.path / "users.txt").string(), "--listen", "127.0.0.1:0"};
    argv.insert(argv.end(), flags.begin(), flags.end());
    if (with_tls) {
      tls = make_cert(dir.path);
      argv.insert(argv.end(), tls.begin(), tls.end());
    }
    server = std::make_unique<netlab::test::process>(argv);
    port = netlab::test::process::port_of(server->wait_listening());
  }
  // Runs ftp_rights_probe.py ops as USER and returns the reply code of each step (and RETR data).
  std::vector<std::pair<std::string, std::string>> ops(const std::string& user, const std::string& password,
                                                       std::vector<std::string> steps) const {
    std::vector<std::string> argv{"/usr/bin/python3",
                                  netlab::test::source_path("tests/security/ftp_rights_probe.py"),
                                  "ops",
                                  std::to_string(port),
                                  user,
                                  password};
    argv.insert(argv.end(), steps.begin(), steps.end());
    const auto r = netlab::test::run(argv, {}, std::chrono::seconds(60));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    const auto doc = json::parse(r.out, nullptr, false);
    std::vector<std::pair<std::string, std::string>> out;
    if (!doc.is_array()) {
      ADD_FAILURE() << "probe output: " << r.out << r.err;
      return out;
    }
    for (const auto& step : doc) {
      const std::string reply = step.value("reply", std::string());
      out.emplace_back(reply.substr(0, 3), step["data"].is_string() ? step["data"].get<std::string>() : "");
    }
    return out;
  }
};

std::string code(const std::vector<std::pair<std::string, std::string>>& r, std::size_t i) {
  return i < r.size() ? r[i].first : "none";
}

TEST(FtpRights, AnonymousWriteMayOnlyAddNewFilesAndFolders) {
  ftp_server site({"--anonymous", "--write"});
  const auto r = site.ops("anonymous", "guest@example.org",
                          {"STOR:pub/new.txt:fresh upload\n",  // 0: a new file: allowed
                           "MKD:pub/newdir",                   // 1: a new folder: allowed
                           "DELE:pub/theirs.txt",              // 2..: the owner's files: refused
                           "RNFR:pub/theirs.txt:pub/moved.txt", "RMD:pub/empty", "STOR:pub/theirs.txt:overwritten\n",
                           "APPE:pub/theirs.txt:appended\n", "DELE:pub/new.txt",  // not even its own upload
                           "RNFR:pub/new.txt:pub/renamed.txt", "RMD:pub/newdir"});
  ASSERT_EQ(r.size(), 10u);
  EXPECT_EQ(code(r, 0), "226");
  EXPECT_EQ(code(r, 1), "257");
  for (std::size_t i = 2; i < r.size(); ++i) EXPECT_EQ(r[i].first[0], '5') << "step " << i << ": " << r[i].first;
  EXPECT_EQ(netlab::test::run({"cat", (site.root / "pub/theirs.txt").string()}).out, "uploaded by the owner\n");
  EXPECT_TRUE(fs::exists(site.root / "pub/new.txt"));
  EXPECT_TRUE(fs::is_directory(site.root / "pub/newdir"));
  EXPECT_TRUE(fs::is_directory(site.root / "pub/empty"));
  EXPECT_FALSE(fs::exists(site.root / "pub/moved.txt"));
}

TEST(FtpRights, NamedUserWithWriteRightsKeepsFullWriteAccess) {
  ftp_server site({"--anonymous", "--write"});
  const auto r = site.ops(
      "owner", "owner-pw",
      {"STOR:pub/theirs.txt:replaced\n", "RNFR:pub/theirs.txt:pub/moved.txt", "DELE:pub/moved.txt", "RMD:pub/empty"});
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(code(r, 0), "226");
  EXPECT_EQ(code(r, 1), "250");
  EXPECT_EQ(code(r, 2), "250");
  EXPECT_EQ(code(r, 3), "250");
}

TEST(FtpRights, AnonymousFullWriteIsAnExplicitFlag) {
  ftp_server site({"--anonymous", "--write", "--anonymous-full-write"});
  const auto r = site.ops("ftp", "guest@example.org", {"DELE:pub/theirs.txt", "RMD:pub/empty"});
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(code(r, 0), "250");
  EXPECT_EQ(code(r, 1), "250");
}

TEST(FtpRights, FtpsDataConnectionMustResumeTheControlSession) {
  ftp_server site({}, true);
  // The control: a client that resumes the control connection's session (as curl and lftp do).
  const auto ok = site.ops("owner", "owner-pw", {"--tls", "--reuse", "RETR:secret.txt"});
  ASSERT_EQ(ok.size(), 1u);
  EXPECT_EQ(code(ok, 0), "226");
  EXPECT_EQ(ok[0].second, "SECRET-ftps-data-3e9a\n");
  // A fresh handshake on the data connection (ftplib's default): refused, nothing sent.
  const auto fresh = site.ops("owner", "owner-pw", {"--tls", "RETR:secret.txt", "STOR:up.txt:data\n"});
  ASSERT_EQ(fresh.size(), 2u);
  EXPECT_EQ(fresh[0].first[0], '5') << fresh[0].first;
  EXPECT_EQ(fresh[0].second.find("SECRET"), std::string::npos);
  EXPECT_EQ(fresh[1].first[0], '5') << fresh[1].first;
  EXPECT_FALSE(fs::exists(site.root / "up.txt"));
}

TEST(FtpRights, FtpsDataPortTakenByAnotherClientGetsNothing) {
  ftp_server site({}, true);
  const auto r = netlab::test::run({"/usr/bin/python3", netlab::test::source_path("tests/security/ftp_rights_probe.py"),
                                    "hijack", std::to_string(site.port), "owner", "owner-pw", "secret.txt"},
                                   {}, std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = json::parse(r.out, nullptr, false);
  ASSERT_TRUE(doc.is_object()) << r.out;
  std::printf("hijack: victim replies %s, attacker got %zu bytes\n", doc["victim_replies"].dump().c_str(),
              doc.value("attacker_got", std::string()).size());
  EXPECT_EQ(doc.value("attacker_got", std::string()).find("SECRET"), std::string::npos);
}

TEST(FtpRights, FtpsWithCurlAndLftpResumingTheSession) {
  NETLAB_REQUIRE_PEER("curl");
  NETLAB_REQUIRE_PEER("lftp");
  ftp_server site({"--write"}, true);
  const std::string base = "ftp://127.0.0.1:" + std::to_string(site.port) + "/";
  const auto get =
      netlab::test::run({"curl", "-s", "-S", "--ssl-reqd", "-k", "-u", "owner:owner-pw", base + "secret.txt"}, {},
                        std::chrono::seconds(30));
  EXPECT_EQ(get.exit_code, 0) << get.err;
  EXPECT_EQ(get.out, "SECRET-ftps-data-3e9a\n");
  write_file(site.dir.path / "local.txt", "uploaded over FTPS by lftp\n");
  const auto put =
      netlab::test::run({"lftp", "-c",
                         "set ftp:ssl-force true; set ftp:ssl-protect-data true; set ssl:verify-certificate false; "
                         "set net:max-retries 1; set net:timeout 10; open -u owner,owner-pw -p " +
                             std::to_string(site.port) + " 127.0.0.1; put " + (site.dir.path / "local.txt").string() +
                             " -o lftp.txt; cat secret.txt"},
                        {}, std::chrono::seconds(60));
  EXPECT_EQ(put.exit_code, 0) << put.err;
  EXPECT_NE(put.out.find("SECRET-ftps-data-3e9a"), std::string::npos) << put.out << put.err;
  EXPECT_TRUE(fs::exists(site.root / "lftp.txt"));
}

TEST(FtpRights, BareCarriageReturnInANameIsRefused) {
  ftp_server site({"--write"});
  const auto r = site.ops("owner", "owner-pw",
                          {"RAW:MKD evil\\rname", "RAW:MKD evil\\rname\\rtwo", "STOR:bad\rname.txt:x\n",
                           "RAW:RNFR pub/theirs.txt", "RAW:RNTO pub/the\\rirs.txt", "MKD:good"});
  ASSERT_EQ(r.size(), 6u);
  EXPECT_EQ(code(r, 0)[0], '5') << code(r, 0);
  EXPECT_EQ(code(r, 1)[0], '5') << code(r, 1);
  EXPECT_EQ(code(r, 2)[0], '5') << code(r, 2);
  EXPECT_EQ(code(r, 3), "350");
  EXPECT_EQ(code(r, 4)[0], '5') << code(r, 4);
  EXPECT_EQ(code(r, 5), "257");  // the control
  for (const auto& e : fs::recursive_directory_iterator(site.root))
    EXPECT_EQ(e.path().filename().string().find('\r'), std::string::npos) << e.path();
}

}  // namespace ftp_rights_test
