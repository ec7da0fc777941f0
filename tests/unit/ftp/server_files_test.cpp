#include <gtest/gtest.h>

#include "session_pair.hpp"

using namespace ftp_test;

TEST(ServerFiles, CwdPwdCdupNeverLeaveRoot) {
  session_pair p;
  p.login();
  EXPECT_EQ(p.cmd("PWD").code, 257);
  EXPECT_EQ(p.replies.back().text(), "\"/\" is the current directory.");
  EXPECT_EQ(p.cmd("CWD", "pub").code, 250);
  EXPECT_EQ(p.server.cwd(), "/pub");
  EXPECT_EQ(p.cmd("CWD", "../../../..").code, 250);
  EXPECT_EQ(p.server.cwd(), "/");
  EXPECT_EQ(p.cmd("CDUP").code, 250);
  EXPECT_EQ(p.server.cwd(), "/");
  EXPECT_EQ(p.cmd("CWD", "nope").code, 550);
  EXPECT_EQ(p.cmd("CWD", "readme.txt").code, 550);
  EXPECT_EQ(p.cmd("CWD").code, 501);
  EXPECT_EQ(p.cmd("XPWD").code, 257);
}

TEST(ServerFiles, MkdRmdDele) {
  session_pair p;
  p.login();
  EXPECT_EQ(p.cmd("MKD", "new").code, 257);
  EXPECT_EQ(p.replies.back().text(), "\"/new\" created.");
  EXPECT_EQ(p.cmd("MKD", "new").code, 550);
  EXPECT_EQ(p.cmd("MKD", "a/b").code, 550);
  EXPECT_EQ(p.cmd("RMD", "new").code, 250);
  EXPECT_EQ(p.cmd("RMD", "new").code, 550);
  EXPECT_EQ(p.cmd("RMD", "/").code, 550);
  EXPECT_EQ(p.cmd("DELE", "readme.txt").code, 250);
  EXPECT_FALSE(p.fs.contains("/readme.txt"));
  EXPECT_EQ(p.cmd("DELE", "pub").code, 550);
  EXPECT_EQ(p.cmd("DELE").code, 501);
}

TEST(ServerFiles, RenameNeedsRnfrImmediatelyBefore) {
  session_pair p;
  p.login();
  EXPECT_EQ(p.cmd("RNTO", "x").code, 503);
  EXPECT_EQ(p.cmd("RNFR", "readme.txt").code, 350);
  EXPECT_EQ(p.cmd("NOOP").code, 200);
  EXPECT_EQ(p.cmd("RNTO", "x").code, 503);  // RNFR was not immediately before
  EXPECT_EQ(p.cmd("RNFR", "readme.txt").code, 350);
  EXPECT_EQ(p.cmd("RNTO", "pub/moved.txt").code, 250);
  EXPECT_TRUE(p.fs.contains("/pub/moved.txt"));
  EXPECT_EQ(p.cmd("RNFR", "missing").code, 550);
}

TEST(ServerFiles, ReadOnlyRefusesWrites) {
  auto cfg = default_config();
  cfg.writable = false;
  session_pair p(cfg);
  p.login();
  EXPECT_EQ(p.cmd("MKD", "x").code, 550);
  EXPECT_EQ(p.cmd("RMD", "pub").code, 550);
  EXPECT_EQ(p.cmd("DELE", "readme.txt").code, 550);
  EXPECT_EQ(p.cmd("RNFR", "readme.txt").code, 550);
  EXPECT_EQ(p.cmd("PASV").code, 227);
  EXPECT_EQ(p.cmd("STOR", "x").code, 550);
  EXPECT_EQ(p.cmd("APPE", "readme.txt").code, 550);
  EXPECT_TRUE(p.transfers.empty());
  EXPECT_TRUE(p.fs.contains("/readme.txt"));
}

// --write with anonymous users: they may create (MKD, STOR of a new name) and nothing more, as
// vsftpd's anon_upload_enable without anon_other_write_enable; named users keep every right.
TEST(ServerFiles, AnonymousUsersMayOnlyCreate) {
  session_pair p;
  p.login("anonymous", "guest@");
  EXPECT_EQ(p.cmd("MKD", "new").code, 257);
  EXPECT_EQ(p.cmd("DELE", "readme.txt").code, 550);
  EXPECT_EQ(p.cmd("RMD", "new").code, 550);
  EXPECT_EQ(p.cmd("RNFR", "readme.txt").code, 550);
  EXPECT_EQ(p.cmd("RNTO", "moved.txt").code, 503);  // no RNFR accepted
  p.upload = "fresh";
  p.cmd("PASV");
  EXPECT_EQ(p.cmd("STOR", "pub/new.bin").code, 226);
  ASSERT_FALSE(p.transfers.empty());
  EXPECT_EQ(p.transfers.back().existing, existing_file::keep);  // the store refuses a late replacement too
  EXPECT_EQ(p.fs.content("/pub/new.bin"), "fresh");
  p.cmd("PASV");
  EXPECT_EQ(p.cmd("STOR", "readme.txt").code, 553);
  EXPECT_EQ(p.cmd("APPE", "pub/new.bin").code, 553);
  EXPECT_EQ(p.fs.content("/pub/new.bin"), "fresh");
  EXPECT_TRUE(p.fs.contains("/readme.txt"));

  session_pair named;
  named.login();
  named.cmd("PASV");
  named.upload = "replaced";
  EXPECT_EQ(named.cmd("STOR", "readme.txt").code, 226);
  EXPECT_EQ(named.transfers.back().existing, existing_file::replace);
  EXPECT_EQ(named.cmd("DELE", "readme.txt").code, 250);

  auto cfg = default_config();
  cfg.anonymous_full_write = true;
  session_pair full(cfg);
  full.login("ftp", "x");
  EXPECT_EQ(full.cmd("DELE", "readme.txt").code, 250);
  EXPECT_EQ(full.cmd("RMD", "pub").code, 250);
}

TEST(ServerFiles, SizeMdtm) {
  session_pair p;
  p.login();
  EXPECT_EQ(p.cmd("SIZE", "readme.txt").code, 213);
  EXPECT_EQ(p.replies.back().text(), "18");
  EXPECT_EQ(p.cmd("SIZE", "pub").code, 550);
  EXPECT_EQ(p.cmd("SIZE", "none").code, 550);
  EXPECT_EQ(p.cmd("MDTM", "readme.txt").code, 213);
  EXPECT_EQ(p.replies.back().text(), "20231114221320");
  EXPECT_EQ(p.cmd("MDTM").code, 501);
}

TEST(ServerFiles, TypeModeStru) {
  session_pair p;
  p.login();
  EXPECT_EQ(p.cmd("TYPE", "I").code, 200);
  EXPECT_EQ(p.cmd("TYPE", "a").code, 200);
  EXPECT_EQ(p.cmd("TYPE", "L 8").code, 200);
  EXPECT_EQ(p.cmd("TYPE", "E").code, 504);
  EXPECT_EQ(p.cmd("TYPE", "A T").code, 504);
  EXPECT_EQ(p.cmd("TYPE", "Q").code, 501);
  EXPECT_EQ(p.cmd("MODE", "S").code, 200);
  EXPECT_EQ(p.cmd("MODE", "B").code, 504);
  EXPECT_EQ(p.cmd("MODE", "Z").code, 501);
  EXPECT_EQ(p.cmd("STRU", "F").code, 200);
  EXPECT_EQ(p.cmd("STRU", "R").code, 504);
  EXPECT_EQ(p.cmd("STRU").code, 501);
}

TEST(ServerFiles, FeatHelpStatSystOpts) {
  session_pair p;
  auto feat = p.cmd("FEAT");
  EXPECT_EQ(feat.code, 211);
  EXPECT_NE(std::find(feat.lines.begin(), feat.lines.end(), " EPSV"), feat.lines.end());
  EXPECT_NE(std::find(feat.lines.begin(), feat.lines.end(), " REST STREAM"), feat.lines.end());
  EXPECT_EQ(std::find(feat.lines.begin(), feat.lines.end(), " AUTH TLS"), feat.lines.end());
  EXPECT_EQ(p.cmd("HELP").code, 214);
  EXPECT_EQ(p.cmd("OPTS", "UTF8 ON").code, 200);
  EXPECT_EQ(p.cmd("OPTS", "MLST type").code, 501);
  EXPECT_EQ(p.cmd("AUTH", "TLS").code, 502);
  p.login();
  EXPECT_EQ(p.cmd("STAT").code, 211);
  auto st = p.cmd("STAT", "/");
  EXPECT_EQ(st.code, 213);
  ASSERT_EQ(st.lines.size(), 4u);
  EXPECT_NE(st.lines[1].find("pub"), std::string::npos);
  EXPECT_EQ(p.cmd("ALLO", "100").code, 202);
}

TEST(ServerFiles, AuthTlsWhenAvailable) {
  auto cfg = default_config();
  cfg.tls_available = true;
  session_pair p(cfg);
  EXPECT_EQ(p.cmd("PBSZ", "0").code, 503);
  EXPECT_EQ(p.cmd("AUTH", "KERBEROS").code, 504);
  EXPECT_EQ(p.cmd("AUTH", "TLS").code, 234);
  EXPECT_TRUE(p.tls_started());
  EXPECT_EQ(p.server.state(), server_state::awaiting_tls);
  p.deliver(p.server.tls_established(true));
  EXPECT_EQ(p.cmd("PROT", "P").code, 503);
  EXPECT_EQ(p.cmd("PBSZ", "0").code, 200);
  EXPECT_EQ(p.cmd("PROT", "S").code, 536);
  EXPECT_EQ(p.cmd("PROT", "P").code, 200);
  p.login();
  p.cmd("PASV");
  EXPECT_EQ(p.cmd("RETR", "readme.txt").code, 226);
  ASSERT_EQ(p.transfers.size(), 1u);
  EXPECT_TRUE(p.transfers[0].tls);
}
