#include <gtest/gtest.h>

#include "session_pair.hpp"

using namespace ftp_test;

TEST(ServerTransfer, PasvRetrBinary) {
  session_pair p;
  p.login();
  EXPECT_EQ(p.cmd("TYPE", "I").code, 200);
  EXPECT_EQ(p.cmd("PASV").code, 227);
  EXPECT_EQ(p.replies.back().text(), "Entering Passive Mode (127,0,0,1,195,80).");
  EXPECT_EQ(p.cmd("RETR", "readme.txt").code, 226);
  ASSERT_EQ(p.transfers.size(), 1u);
  const auto& t = p.transfers[0];
  EXPECT_EQ(t.kind, transfer_kind::send_file);
  EXPECT_EQ(t.path, "/readme.txt");
  EXPECT_TRUE(t.passive);
  EXPECT_FALSE(t.ascii);
  EXPECT_EQ(t.expected_peer, "127.0.0.1");
  EXPECT_EQ(p.downloaded, "line one\nline two\n");
  EXPECT_EQ(p.replies[p.replies.size() - 2].code, 150);
  // The channel is used up: the next transfer needs a new PASV/PORT.
  EXPECT_EQ(p.cmd("RETR", "readme.txt").code, 425);
}

TEST(ServerTransfer, EpsvAndAsciiFlag) {
  session_pair p;
  p.login();
  EXPECT_EQ(p.cmd("EPSV").code, 229);
  EXPECT_EQ(p.replies.back().text(), "Entering Extended Passive Mode (|||50001|)");
  EXPECT_EQ(p.cmd("RETR", "readme.txt").code, 226);
  EXPECT_TRUE(p.transfers[0].ascii);  // TYPE A is the default
  EXPECT_EQ(p.cmd("EPSV", "2").code, 522);
  EXPECT_EQ(p.cmd("EPSV", "x").code, 501);
  EXPECT_EQ(p.cmd("EPSV", "1").code, 229);
}

TEST(ServerTransfer, PortAndEprtToClientsOwnAddress) {
  session_pair p;
  p.login();
  EXPECT_EQ(p.cmd("PORT", "127,0,0,1,200,10").code, 200);
  EXPECT_EQ(p.cmd("LIST").code, 226);
  ASSERT_EQ(p.transfers.size(), 1u);
  EXPECT_FALSE(p.transfers[0].passive);
  EXPECT_EQ(p.transfers[0].active_target, (data_address{1, "127.0.0.1", 200 * 256 + 10}));
  EXPECT_EQ(p.downloaded.substr(0, 10), "drwxr-xr-x");
  EXPECT_EQ(p.cmd("EPRT", "|1|127.0.0.1|40000|").code, 200);
  EXPECT_EQ(p.cmd("NLST").code, 226);
  EXPECT_EQ(p.downloaded, "pub\r\nreadme.txt\r\n");
  EXPECT_EQ(p.transfers[1].active_target.port, 40000);
}

TEST(ServerTransfer, BounceAndPrivilegedPortsRefused) {
  session_pair p;
  p.login();
  EXPECT_EQ(p.cmd("PORT", "127,0,0,2,200,10").code, 504);  // another host: FTP bounce
  EXPECT_EQ(p.cmd("PORT", "127,0,0,1,0,25").code, 504);    // SMTP port
  EXPECT_EQ(p.cmd("EPRT", "|1|10.0.0.1|4000|").code, 504);
  EXPECT_EQ(p.cmd("EPRT", "|1|127.0.0.1|25|").code, 504);
  EXPECT_EQ(p.cmd("EPRT", "|2|::1|4000|").code, 522);
  EXPECT_EQ(p.cmd("PORT", "1,2,3").code, 501);
  EXPECT_EQ(p.cmd("EPRT", "garbage").code, 501);
  EXPECT_EQ(p.cmd("RETR", "readme.txt").code, 425);  // nothing was accepted
  EXPECT_TRUE(p.transfers.empty());
}

TEST(ServerTransfer, EpsvAllRefusesOtherSetups) {
  session_pair p;
  p.login();
  EXPECT_EQ(p.cmd("EPSV", "ALL").code, 200);
  EXPECT_EQ(p.cmd("PASV").code, 500);
  EXPECT_EQ(p.cmd("PORT", "127,0,0,1,200,10").code, 500);
  EXPECT_EQ(p.cmd("EPSV").code, 229);
}

TEST(ServerTransfer, StorAppeRest) {
  session_pair p;
  p.login();
  p.upload = "new data";
  p.cmd("PASV");
  EXPECT_EQ(p.cmd("STOR", "pub/up.bin").code, 226);
  EXPECT_EQ(p.fs.content("/pub/up.bin"), "new data");
  p.upload = "+tail";
  p.cmd("PASV");
  EXPECT_EQ(p.cmd("APPE", "pub/up.bin").code, 226);
  EXPECT_EQ(p.fs.content("/pub/up.bin"), "new data+tail");
  EXPECT_EQ(p.cmd("REST", "3").code, 350);
  p.cmd("PASV");  // REST is cleared by any command other than a transfer
  p.upload = "XYZ";
  EXPECT_EQ(p.cmd("STOR", "pub/up.bin").code, 226);
  EXPECT_EQ(p.fs.content("/pub/up.bin"), "XYZ");
  p.cmd("PASV");
  EXPECT_EQ(p.cmd("REST", "1").code, 350);
  EXPECT_EQ(p.cmd("STOR", "pub/up.bin").code, 226);
  EXPECT_EQ(p.fs.content("/pub/up.bin"), "XXYZ");
  p.cmd("PASV");
  EXPECT_EQ(p.cmd("REST", "5").code, 350);
  EXPECT_EQ(p.cmd("RETR", "readme.txt").code, 226);
  EXPECT_EQ(p.downloaded, "one\nline two\n");
  EXPECT_EQ(p.cmd("REST", "x").code, 501);
}

TEST(ServerTransfer, PathErrorsComeBeforeTheDataChannel) {
  session_pair p;
  p.login();
  EXPECT_EQ(p.cmd("RETR", "missing").code, 550);
  EXPECT_EQ(p.cmd("RETR", "pub").code, 550);
  EXPECT_EQ(p.cmd("RETR").code, 501);
  EXPECT_EQ(p.cmd("LIST", "missing").code, 550);
  EXPECT_EQ(p.cmd("STOR", "missing/x").code, 550);
  EXPECT_EQ(p.cmd("STOR", "pub").code, 550);
  EXPECT_EQ(p.cmd("LIST").code, 425);
  EXPECT_TRUE(p.transfers.empty());
}

TEST(ServerTransfer, ListOptionsAndSingleFile) {
  session_pair p;
  p.login();
  p.cmd("PASV");
  EXPECT_EQ(p.cmd("LIST", "-la").code, 226);
  EXPECT_NE(p.downloaded.find("readme.txt"), std::string::npos);
  p.cmd("PASV");
  EXPECT_EQ(p.cmd("LIST", "readme.txt").code, 226);
  EXPECT_EQ(p.downloaded.find("pub"), std::string::npos);
}

TEST(ServerTransfer, FailedTransfersGiveTheirReplies) {
  const std::pair<transfer_outcome, int> cases[] = {{transfer_outcome::connect_failed, 425},
                                                    {transfer_outcome::connection_lost, 426},
                                                    {transfer_outcome::local_error, 451},
                                                    {transfer_outcome::storage_error, 552},
                                                    {transfer_outcome::tls_not_resumed, 522}};
  for (auto [outcome, code] : cases) {
    session_pair p;
    p.login();
    p.outcome = outcome;
    p.cmd("PASV");
    EXPECT_EQ(p.cmd("RETR", "readme.txt").code, code);
    EXPECT_EQ(p.server.state(), server_state::ready);
  }
}

TEST(ServerTransfer, AborDuringTransfer426Then226) {
  session_pair p;
  p.login();
  p.hold_transfers = true;
  p.cmd("PASV");
  EXPECT_EQ(p.cmd("RETR", "readme.txt").code, 0);  // only the 150 so far
  EXPECT_EQ(p.server.state(), server_state::transferring);
  auto r = p.raw(
      "\xff\xf4\xff\xf2"
      "ABOR\r\n");
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].code, 426);
  EXPECT_EQ(r[1].code, 226);
  EXPECT_EQ(p.server.state(), server_state::ready);
  EXPECT_EQ(p.raw("ABOR\r\n")[0].code, 226);  // nothing to abort
}

TEST(ServerTransfer, CommandsWaitWhileTransferringExceptStatNoop) {
  session_pair p;
  p.login();
  p.hold_transfers = true;
  p.cmd("PASV");
  p.cmd("RETR", "readme.txt");
  auto r = p.raw("STAT\r\nNOOP\r\nPWD\r\nQUIT\r\n");
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].code, 211);
  EXPECT_EQ(r[1].code, 200);
  EXPECT_EQ(p.pending_input(), "PWD\r\nQUIT\r\n");
  p.deliver(p.server.transfer_finished(transfer_outcome::completed, 18));
  p.feed();
  ASSERT_GE(p.replies.size(), 3u);
  EXPECT_EQ(p.replies[p.replies.size() - 3].code, 226);
  EXPECT_EQ(p.replies[p.replies.size() - 2].code, 257);
  EXPECT_EQ(p.replies.back().code, 221);
}

TEST(ServerTransfer, PassiveFailureAndEofDuringTransfer) {
  session_pair p;
  p.login();
  p.raw("PASV\r\n");
  // The harness answered passive_opened already; simulate a failing listener instead.
  session_pair q;
  q.login();
  const std::string pasv_noop = "PASV\r\nNOOP\r\n";
  auto out = q.server.receive(as_bytes(pasv_noop), q.clock.reading());
  EXPECT_EQ(out.consumed, 6u);
  EXPECT_EQ(q.server.state(), server_state::awaiting_passive);
  q.deliver(q.server.passive_failed());
  EXPECT_EQ(q.replies.back().code, 425);
  q.raw(pasv_noop.substr(out.consumed));
  EXPECT_EQ(q.replies.back().code, 200);
  p.hold_transfers = true;
  p.cmd("RETR", "readme.txt");
  auto eof = p.server.receive_eof();
  ASSERT_EQ(eof.size(), 2u);
  EXPECT_TRUE(std::holds_alternative<abort_transfer>(eof[0]));
  EXPECT_TRUE(std::holds_alternative<close_connection>(eof[1]));
}

TEST(ServerTransfer, ListDatesFollowTheWallTimeInput) {
  session_pair p;
  p.login();
  p.cmd("PASV");
  p.cmd("LIST", "readme.txt");
  EXPECT_NE(p.downloaded.find("Nov 14  2023 readme.txt"), std::string::npos) << p.downloaded;
  p.clock = virtual_clock(p.clock.now(),
                          wall_time(std::chrono::seconds(1700000000 + 3600)));  // an hour after the file's time
  p.cmd("PASV");
  p.cmd("LIST", "readme.txt");
  EXPECT_NE(p.downloaded.find("Nov 14 22:13 readme.txt"), std::string::npos) << p.downloaded;
}
