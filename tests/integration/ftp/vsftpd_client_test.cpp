// lab-ftp get/put/ls against a real vsftpd, passive (EPSV) and active (EPRT), byte-identical in both
// directions. vsftpd is started by the test in the foreground (listen=YES, background=NO) with its
// own configuration in a temporary folder: 127.0.0.1, a free port, anonymous users chrooted into a
// temporary anon_root with a writable pub/ folder, passive ports from a range near a free port.
// vsftpd needs root for its chroot and privilege separation: as another user the test skips.
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "serve_fixture.hpp"
#include "support/third_party.hpp"

using namespace ftp_it;

namespace vsftpd_client_test_local {

const char* const vsftpd_bin = "/usr/sbin/vsftpd";

std::string vsftpd_conf(const std::string& dir, int port, int pasv_min) {
  return "listen=YES\nlisten_ipv6=NO\nlisten_address=127.0.0.1\nlisten_port=" + std::to_string(port) +
         "\nbackground=NO\n"
         "anonymous_enable=YES\nlocal_enable=NO\nno_anon_password=YES\nftp_username=ftp\n"
         "anon_root=" +
         dir +
         "/root\n"
         "write_enable=YES\nanon_upload_enable=YES\nanon_mkdir_write_enable=YES\nanon_umask=022\n"
         "secure_chroot_dir=" +
         dir +
         "/empty\n"
         "pasv_enable=YES\npasv_address=127.0.0.1\npasv_min_port=" +
         std::to_string(pasv_min) + "\npasv_max_port=" + std::to_string(pasv_min + 40) +
         "\n"
         "port_enable=YES\nconnect_from_port_20=NO\n"
         "seccomp_sandbox=NO\nisolate=NO\nisolate_network=NO\n"
         "dirmessage_enable=NO\nxferlog_enable=YES\nxferlog_std_format=YES\nxferlog_file=" +
         dir +
         "/xfer.log\n"
         "vsftpd_log_file=" +
         dir +
         "/vsftpd.log\nsyslog_enable=NO\n"
         "max_clients=20\nidle_session_timeout=60\ndata_connection_timeout=30\n";
}

struct vsftpd_server {
  served_dir d;
  std::unique_ptr<process> proc;
  int port = 0;

  vsftpd_server() {
    namespace fs = std::filesystem;
    // The anonymous user (ftp, created by the vsftpd package) reads the root and writes into pub/ only; vsftpd refuses
    // a chroot the user could write to.
    fs::permissions(d.dir, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                               fs::perms::others_read | fs::perms::others_exec);
    fs::permissions(d.root + "/pub", fs::perms::all);
    fs::create_directories(d.dir + "/empty");
    proc = start_daemon(
        [this](int p) {
          const int pasv = std::min(free_tcp_port(), 65535 - 41);
          write_file(d.dir + "/vsftpd.conf", vsftpd_conf(d.dir, p, pasv));
          return std::vector<std::string>{vsftpd_bin, d.dir + "/vsftpd.conf"};
        },
        port);
  }
  [[nodiscard]] std::string url(const std::string& path) const {
    return "ftp://127.0.0.1:" + std::to_string(port) + path;
  }
};

run_result lab(std::vector<std::string> args) {
  args.insert(args.begin(), bin_path("lab-ftp"));
  return run(args, {}, std::chrono::seconds(120));
}

void get_put_ls(const vsftpd_server& s, const std::vector<std::string>& mode, const std::string& data_command) {
  const std::string got = s.d.dir + "/got.bin";
  std::vector<std::string> get{"get", s.url("/big.bin"), "-o", got, "--trace"};
  get.insert(get.end(), mode.begin(), mode.end());
  auto r = lab(get);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("< 220 "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("> " + data_command), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("< 226 "), std::string::npos) << r.err;
  EXPECT_TRUE(read_whole(got) == read_whole(s.d.root + "/big.bin")) << "download differs";

  std::vector<std::string> put{"put", got, s.url("/pub/"), "--json"};
  put.insert(put.end(), mode.begin(), mode.end());
  r = lab(put);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["data_command"], data_command);
  EXPECT_EQ(doc["bytes"], read_whole(got).size());
  EXPECT_TRUE(read_whole(s.d.root + "/pub/got.bin") == read_whole(s.d.root + "/big.bin")) << "upload differs";

  std::vector<std::string> ls{"ls", s.url("/pub/"), "--names"};
  ls.insert(ls.end(), mode.begin(), mode.end());
  r = lab(ls);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("got.bin"), std::string::npos) << r.out;
  // vsftpd's transfer log: the download ("o"utgoing) and the upload ("i"ncoming), complete ("c").
  const std::string xfer = read_whole(s.d.dir + "/xfer.log");
  EXPECT_NE(xfer.find(std::to_string(big_size()) + " /big.bin b _ o a "), std::string::npos) << xfer;
  EXPECT_NE(xfer.find(std::to_string(big_size()) + " /pub/got.bin b _ i a "), std::string::npos) << xfer;
  std::filesystem::remove(s.d.root + "/pub/got.bin");  // vsftpd refuses to overwrite (anon)
  std::filesystem::remove(s.d.dir + "/xfer.log");
}

TEST(ClientVsftpd, PassiveGetPutAndList) {
  NETLAB_REQUIRE_PEER(vsftpd_bin);
  if (::geteuid() != 0) GTEST_SKIP() << "vsftpd needs root for its chroot";
  vsftpd_server s;
  get_put_ls(s, {}, "EPSV");
}

TEST(ClientVsftpd, ActiveGetPutAndList) {
  NETLAB_REQUIRE_PEER(vsftpd_bin);
  if (::geteuid() != 0) GTEST_SKIP() << "vsftpd needs root for its chroot";
  vsftpd_server s;
  get_put_ls(s, {"--active"}, "EPRT");
}

TEST(ClientVsftpd, RefusalsAreOneLineErrors) {
  NETLAB_REQUIRE_PEER(vsftpd_bin);
  if (::geteuid() != 0) GTEST_SKIP() << "vsftpd needs root for its chroot";
  vsftpd_server s;
  auto r = lab({"get", s.url("/missing.bin"), "-o", s.d.dir + "/m.bin"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("550"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_FALSE(std::filesystem::exists(s.d.dir + "/m.bin"));
  // Anonymous uploads outside pub/ are refused: the root belongs to root, not to nobody.
  r = lab({"put", s.d.root + "/hello.txt", s.url("/hello2.txt")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("553"), std::string::npos) << r.err;
}

}  // namespace vsftpd_client_test_local
