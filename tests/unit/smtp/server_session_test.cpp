#include <gtest/gtest.h>

#include "smtp_harness.hpp"

namespace {

using namespace smtp_test;
using codes = std::vector<int>;

const std::string received_for_alice =
    "Received: from client.example ([127.0.0.1]:40000)\r\n\tby mx.example.org (netlab lab-smtp) with ESMTP id S1.1"
    "\r\n\tfor <alice@example.org>; Mon, 30 Nov 2026 08:55:04 +0000\r\n";

TEST(SmtpServer, GreetsWith220) {
  server_fixture f;
  const auto t = run_server(f, "");
  EXPECT_EQ(t.sent, "220 mx.example.org ESMTP netlab lab-smtp ready\r\n");
}

TEST(SmtpServer, EhloAdvertisesExtensions) {
  server_fixture f;
  EXPECT_EQ(run_server(f, "EHLO client.example\r\n").sent.substr(48),
            "250-mx.example.org greets client.example\r\n250-PIPELINING\r\n250-SIZE 10485760\r\n250-8BITMIME\r\n"
            "250-ENHANCEDSTATUSCODES\r\n250 HELP\r\n");
  f.config.tls_available = true;
  const auto t = run_server(f, "EHLO c\r\n");
  EXPECT_NE(t.sent.find("250-STARTTLS\r\n"), std::string::npos);
  EXPECT_EQ(t.sent.find("AUTH"), std::string::npos);  // AUTH only over TLS
  const auto after = run_pieces(f, {"EHLO c\r\nSTARTTLS\r\n", "EHLO c\r\n"}, true);
  EXPECT_EQ(after.sent.find("STARTTLS\r\n", after.sent.find("220 2.0.0")), std::string::npos);
  EXPECT_NE(after.sent.find("250-AUTH PLAIN LOGIN\r\n"), std::string::npos);
}

const std::string dialogue =
    "EHLO client.example\r\nMAIL FROM:<sender@other.org> SIZE=50 BODY=8BITMIME\r\nRCPT TO:<alice@example.org>\r\n"
    "DATA\r\nSubject: hi\r\n\r\n..leading dot\r\nbody\r\n.\r\nQUIT\r\n";

TEST(SmtpServer, DeliversWithReceivedHeaderAndDotUnstuffing) {
  server_fixture f;
  const auto t = run_server(f, dialogue);
  EXPECT_EQ(t.codes, (codes{220, 250, 250, 250, 354, 250, 221}));
  EXPECT_TRUE(t.closed);
  ASSERT_EQ(f.store.messages_of("alice").size(), 1U);
  // The core's message is the Received: header and the data; the final delivery (deliver_to_store)
  // puts Return-Path and Delivered-To before it (RFC 5321 §4.4).
  ASSERT_EQ(t.deliveries.size(), 1U);
  EXPECT_EQ(t.deliveries[0].message, received_for_alice + "Subject: hi\r\n\r\n.leading dot\r\nbody\r\n");
  EXPECT_EQ(f.store.messages_of("alice")[0].bytes,
            "Return-Path: <sender@other.org>\r\nDelivered-To: alice@example.org\r\n" + received_for_alice +
                "Subject: hi\r\n\r\n.leading dot\r\nbody\r\n");
  EXPECT_NE(t.sent.find("250 2.0.0 OK: queued as S1.1\r\n"), std::string::npos);
}

TEST(SmtpServer, AnySplitGivesTheSameDialogue) {
  server_fixture whole;
  const auto expected = run_server(whole, dialogue);
  netlab::test::for_each_split(dialogue, [&](const netlab::test::pieces& p) {
    server_fixture f;
    const auto t = run_pieces(f, p);
    ASSERT_EQ(t.sent, expected.sent);
    ASSERT_EQ(f.store.messages_of("alice").size(), 1U);
    ASSERT_EQ(f.store.messages_of("alice")[0].bytes, whole.store.messages_of("alice")[0].bytes);
  });
}

TEST(SmtpServer, TruncatedDataStoresNothing) {
  const std::string upto_data = dialogue.substr(0, dialogue.find(".\r\nQUIT"));
  netlab::test::for_each_prefix(upto_data, [&](std::string_view prefix) {
    server_fixture f;
    (void)run_server(f, prefix, false, true);
    ASSERT_TRUE(f.store.messages_of("alice").empty()) << prefix;
  });
}

TEST(SmtpServer, BadOrderIs503) {
  server_fixture f;
  EXPECT_EQ(run_server(f, "MAIL FROM:<a@b.org>\r\n").codes, (codes{220, 503}));
  EXPECT_EQ(run_server(f, "EHLO c\r\nRCPT TO:<alice@example.org>\r\n").codes, (codes{220, 250, 503}));
  EXPECT_EQ(run_server(f, "EHLO c\r\nDATA\r\n").codes, (codes{220, 250, 503}));
  EXPECT_EQ(run_server(f, "EHLO c\r\nMAIL FROM:<a@b.org>\r\nDATA\r\n").codes, (codes{220, 250, 250, 503}));
  EXPECT_EQ(run_server(f, "EHLO c\r\nMAIL FROM:<a@b.org>\r\nMAIL FROM:<a@b.org>\r\n").codes,
            (codes{220, 250, 250, 503}));
  EXPECT_EQ(run_server(f, "EHLO c\r\nMAIL FROM:<a@b.org>\r\nRSET\r\nRCPT TO:<alice@example.org>\r\n").codes,
            (codes{220, 250, 250, 250, 503}));
}

TEST(SmtpServer, BadSyntaxIs501Or555) {
  server_fixture f;
  EXPECT_EQ(run_server(f, "EHLO\r\nHELO\r\n").codes, (codes{220, 501, 501}));
  EXPECT_EQ(run_server(f, "EHLO c\r\nMAIL FROM:a@b.org\r\nMAIL TO:<a@b.org>\r\nMAIL FROM:<a@@b>\r\n").codes,
            (codes{220, 250, 501, 501, 501}));
  EXPECT_EQ(run_server(f, "EHLO c\r\nMAIL FROM:<a@b.org> SIZE=x\r\nMAIL FROM:<a@b.org> BODY=9BIT\r\n").codes,
            (codes{220, 250, 501, 501}));
  EXPECT_EQ(run_server(f, "EHLO c\r\nMAIL FROM:<a@b.org> FOO=1\r\n").codes, (codes{220, 250, 555}));
  EXPECT_EQ(
      run_server(f, "EHLO c\r\nMAIL FROM:<>\r\nRCPT TO:<>\r\nRCPT TO:alice\r\nDATA x\r\nRSET x\r\nVRFY\r\n").codes,
      (codes{220, 250, 250, 501, 501, 501, 501, 501}));
}

TEST(SmtpServer, NullSenderSourceRouteAndSpaceAfterColonAccepted) {
  server_fixture f;
  EXPECT_EQ(run_server(f, "EHLO c\r\nMAIL FROM: <>\r\nRCPT TO:<@relay.example:alice@EXAMPLE.ORG>\r\n").codes,
            (codes{220, 250, 250, 250}));
}

TEST(SmtpServer, UnknownLocalUserIs550) {
  server_fixture f;
  const auto t = run_server(f, "EHLO c\r\nMAIL FROM:<a@b.org>\r\nRCPT TO:<mallory@example.org>\r\n");
  EXPECT_EQ(t.codes, (codes{220, 250, 250, 550}));
  EXPECT_NE(t.sent.find("550 5.1.1 <mallory@example.org>: no such user here\r\n"), std::string::npos);
}

TEST(SmtpServer, OpenRelayRefusedWith554) {
  server_fixture f;
  const auto t = run_server(f, "EHLO c\r\nMAIL FROM:<a@b.org>\r\nRCPT TO:<victim@elsewhere.net>\r\nDATA\r\n");
  EXPECT_EQ(t.codes, (codes{220, 250, 250, 554, 503}));
  EXPECT_NE(t.sent.find("554 5.7.1 <victim@elsewhere.net>: Relay access denied\r\n"), std::string::npos);
  EXPECT_TRUE(f.store.relay_queue().empty());
}

TEST(SmtpServer, AuthenticatedRelayIsQueued) {
  server_fixture f;
  f.config.tls_available = true;
  const auto t = run_pieces(f,
                            {"EHLO c\r\nSTARTTLS\r\n",
                             "EHLO c\r\nAUTH PLAIN AGFsaWNlAHNlY3JldA==\r\nMAIL FROM:<alice@example.org>\r\n"
                             "RCPT TO:<friend@elsewhere.net>\r\nDATA\r\nhello\r\n.\r\n"},
                            true);
  EXPECT_EQ(t.codes, (codes{220, 250, 220, 250, 235, 250, 250, 354, 250}));
  ASSERT_EQ(f.store.relay_queue().size(), 1U);
  EXPECT_EQ(f.store.relay_queue()[0].recipients, std::vector<std::string>{"friend@elsewhere.net"});
  EXPECT_NE(f.store.relay_queue()[0].bytes.find("with ESMTPSA id"), std::string::npos);
}

TEST(SmtpServer, AuthRules) {
  server_fixture f;
  f.config.tls_available = true;
  EXPECT_EQ(run_server(f, "EHLO c\r\nAUTH PLAIN AGFsaWNlAHNlY3JldA==\r\n").codes, (codes{220, 250, 538}));
  const std::string tls = "EHLO c\r\nSTARTTLS\r\n";
  const auto run_tls = [&](const std::string& pre, const std::string& post) {
    return run_pieces(f, {pre, "EHLO c\r\n" + post}, true);
  };
  EXPECT_EQ(run_tls(tls, "AUTH PLAIN AGFsaWNlAHdyb25n\r\n").codes, (codes{220, 250, 220, 250, 535}));
  EXPECT_EQ(run_tls(tls, "AUTH CRAM-MD5\r\n").codes, (codes{220, 250, 220, 250, 504}));
  EXPECT_EQ(run_tls(tls, "AUTH PLAIN\r\n*\r\n").codes, (codes{220, 250, 220, 250, 334, 501}));
  EXPECT_EQ(run_tls(tls, "AUTH PLAIN\r\n!!!!\r\n").codes, (codes{220, 250, 220, 250, 334, 501}));
  // LOGIN: "Username:" / "Password:" prompts.
  const auto login = run_tls(tls, "AUTH LOGIN\r\nYWxpY2U=\r\nc2VjcmV0\r\nAUTH PLAIN x\r\n");
  EXPECT_EQ(login.codes, (codes{220, 250, 220, 250, 334, 334, 235, 503}));
  EXPECT_NE(login.sent.find("334 VXNlcm5hbWU6\r\n334 UGFzc3dvcmQ6\r\n"), std::string::npos);
  // authzid must match authcid.
  EXPECT_EQ(run_tls(tls, "AUTH PLAIN Ym9iAGFsaWNlAHNlY3JldA==\r\n").codes, (codes{220, 250, 220, 250, 535}));
  EXPECT_EQ(run_tls(tls, "MAIL FROM:<a@b.org>\r\nAUTH PLAIN x\r\n").codes, (codes{220, 250, 220, 250, 250, 503}));
}

TEST(SmtpServer, SizeLimitIs552AndNothingStored) {
  server_fixture f;
  f.config.max_message_bytes = 20;
  EXPECT_EQ(run_server(f, "EHLO c\r\nMAIL FROM:<a@b.org> SIZE=21\r\n").codes, (codes{220, 250, 552}));
  const auto t = run_server(f,
                            "EHLO c\r\nMAIL FROM:<a@b.org>\r\nRCPT TO:<alice@example.org>\r\nDATA\r\n"
                            "0123456789\r\n0123456789\r\n.\r\nNOOP\r\n");
  EXPECT_EQ(t.codes, (codes{220, 250, 250, 250, 354, 552, 250}));
  EXPECT_TRUE(f.store.messages_of("alice").empty());
  // Exactly at the limit: 18 bytes + CRLF = 20.
  (void)run_server(
      f, "EHLO c\r\nMAIL FROM:<a@b.org>\r\nRCPT TO:<alice@example.org>\r\nDATA\r\n012345678901234567\r\n.\r\n");
  EXPECT_EQ(f.store.messages_of("alice").size(), 1U);
}

TEST(SmtpServer, AtLeast100RecipientsThen452) {
  server_fixture f;
  std::string in = "EHLO c\r\nMAIL FROM:<a@b.org>\r\n";
  for (int i = 0; i < 101; ++i) in += "RCPT TO:<alice@example.org>\r\n";
  const auto t = run_server(f, in + "DATA\r\nx\r\n.\r\n");
  EXPECT_EQ(std::count(t.codes.begin(), t.codes.end(), 250), 2 + 100 + 1);
  EXPECT_EQ(t.codes[t.codes.size() - 3], 452);
  ASSERT_EQ(f.store.messages_of("alice").size(), 1U);  // one copy for duplicate recipients
}

TEST(SmtpServer, EveryLocalRecipientGetsACopy) {
  server_fixture f;
  (void)run_server(f,
                   "HELO c\r\nMAIL FROM:<a@b.org>\r\nRCPT TO:<alice@example.org>\r\nRCPT TO:<bob@example.org>\r\n"
                   "DATA\r\nx\r\n.\r\n");
  ASSERT_EQ(f.store.messages_of("alice").size(), 1U);
  ASSERT_EQ(f.store.messages_of("bob").size(), 1U);
  const std::string& m = f.store.messages_of("bob")[0].bytes;
  EXPECT_TRUE(m.starts_with("Return-Path: <a@b.org>\r\nDelivered-To: bob@example.org\r\nReceived: ")) << m;
  EXPECT_TRUE(f.store.messages_of("alice")[0].bytes.starts_with(
      "Return-Path: <a@b.org>\r\nDelivered-To: alice@example.org\r\n"));
  EXPECT_NE(m.find(" with SMTP id "), std::string::npos);
  EXPECT_EQ(m.find("\tfor <"), std::string::npos);  // no "for" with several recipients
}

// SMTP smuggling: a bare LF or bare CR must never end the data, and the smuggled commands after it
// must not run. Each variant is one message followed by a would-be second transaction.
TEST(SmtpServer, SmugglingVariantsAreRefusedWhole) {
  const std::string smuggled = "MAIL FROM:<admin@example.org>\r\nRCPT TO:<bob@example.org>\r\nDATA\r\nforged\r\n";
  for (std::string end : {"\n.\n", "\n.\r\n", "\r\n.\n", "\r.\r\n", "\r\n.\r", "\r.\n", "\n.\r", "\r\n.\r\r\n"}) {
    server_fixture f;
    const std::string in = "EHLO c\r\nMAIL FROM:<a@b.org>\r\nRCPT TO:<alice@example.org>\r\nDATA\r\nhello" + end +
                           smuggled + ".\r\nNOOP\r\n";
    const auto t = run_server(f, in);
    EXPECT_EQ(t.codes, (codes{220, 250, 250, 250, 354, 550, 250})) << testing::PrintToString(end);
    EXPECT_TRUE(f.store.messages_of("alice").empty());
    EXPECT_TRUE(f.store.messages_of("bob").empty());
    EXPECT_NE(t.sent.find("550 5.6.11"), std::string::npos);
  }
}

TEST(SmtpServer, BareLineEndsInCommandsAreRejected) {
  server_fixture f;
  EXPECT_EQ(run_server(f, "EHLO c\nNOOP\r\nNO\rOP\r\n").codes, (codes{220, 500, 250, 500}));
}

TEST(SmtpServer, LineLimits512And1000) {
  server_fixture f;
  const std::string ok_cmd = "NOOP " + std::string(512 - 7, 'x') + "\r\n";
  const std::string long_cmd = "NOOP " + std::string(512 - 6, 'x') + "\r\n";
  EXPECT_EQ(run_server(f, ok_cmd + long_cmd + "NOOP\r\n").codes, (codes{220, 250, 500, 250}));
  const std::string head = "EHLO c\r\nMAIL FROM:<a@b.org>\r\nRCPT TO:<alice@example.org>\r\nDATA\r\n";
  const auto ok = run_server(f, head + std::string(998, 'y') + "\r\n.\r\n");
  EXPECT_EQ(ok.codes.back(), 250);
  const auto bad = run_server(f, head + std::string(999, 'y') + "\r\n.\r\nNOOP\r\n");
  EXPECT_EQ(bad.codes, (codes{220, 250, 250, 250, 354, 500, 250}));
  EXPECT_EQ(f.store.messages_of("alice").size(), 1U);
}

TEST(SmtpServer, StartTlsRepliesOnlyOnceAndDiscardsPipelinedPlaintext) {
  server_fixture f;
  f.config.tls_available = true;
  const auto t = run_server(f, "EHLO c\r\nSTARTTLS\r\nMAIL FROM:<a@b.org>\r\nRCPT TO:<alice@example.org>\r\n");
  EXPECT_EQ(t.codes, (codes{220, 250, 220}));
  EXPECT_TRUE(t.tls_started);
  EXPECT_EQ(t.unconsumed, 0U);  // the driver dropped the plaintext
  // After the handshake the session starts over: MAIL without a new EHLO is out of order.
  const auto after =
      run_pieces(f, {"EHLO c\r\nMAIL FROM:<a@b.org>\r\nSTARTTLS\r\n", "MAIL FROM:<a@b.org>\r\nSTARTTLS\r\n"}, true);
  EXPECT_EQ(after.codes, (codes{220, 250, 250, 220, 503, 503}));
}

TEST(SmtpServer, StartTlsUnavailableOrWithArgument) {
  server_fixture f;
  EXPECT_EQ(run_server(f, "EHLO c\r\nSTARTTLS\r\n").codes, (codes{220, 250, 502}));
  f.config.tls_available = true;
  EXPECT_EQ(run_server(f, "EHLO c\r\nSTARTTLS now\r\n").codes, (codes{220, 250, 501}));
}

TEST(SmtpServer, RequireTlsRefusesMailBeforeStartTls) {
  server_fixture f;
  f.config.tls_available = true;
  f.config.require_tls = true;
  EXPECT_EQ(run_server(f, "EHLO c\r\nMAIL FROM:<a@b.org>\r\nNOOP\r\n").codes, (codes{220, 250, 530, 250}));
  EXPECT_EQ(run_pieces(f, {"EHLO c\r\nSTARTTLS\r\n", "EHLO c\r\nMAIL FROM:<a@b.org>\r\n"}, true).codes,
            (codes{220, 250, 220, 250, 250}));
}

TEST(SmtpServer, SimpleCommands) {
  server_fixture f;
  const auto t = run_server(f, "NOOP\r\nVRFY alice\r\nHELP\r\nRSET\r\nFOO\r\nQUIT\r\nNOOP\r\n");
  EXPECT_EQ(t.codes, (codes{220, 250, 252, 214, 250, 500, 221}));
  EXPECT_TRUE(t.closed);
  EXPECT_EQ(t.unconsumed, 6U);  // nothing after QUIT is read
}

TEST(SmtpServer, TooManyErrorsCloseWith421) {
  server_fixture f;
  f.config.max_errors = 3;
  const auto t = run_server(f, "X\r\nY\r\nZ\r\nNOOP\r\n");
  EXPECT_EQ(t.codes, (codes{220, 500, 500, 500, 421}));
  EXPECT_TRUE(t.closed);
}

TEST(SmtpServer, StoreFailureIs451) {
  server_fixture f;
  f.store.fail_deliveries(true);
  const auto t = run_server(f, "EHLO c\r\nMAIL FROM:<a@b.org>\r\nRCPT TO:<alice@example.org>\r\nDATA\r\nx\r\n.\r\n");
  EXPECT_EQ(t.codes.back(), 451);
}

TEST(SmtpServer, SecondTransactionOnSameConnection) {
  server_fixture f;
  const std::string one = "MAIL FROM:<a@b.org>\r\nRCPT TO:<alice@example.org>\r\nDATA\r\nx\r\n.\r\n";
  const auto t = run_server(f, "EHLO client.example\r\n" + one + one);
  EXPECT_EQ(t.codes, (codes{220, 250, 250, 250, 354, 250, 250, 250, 354, 250}));
  ASSERT_EQ(f.store.messages_of("alice").size(), 2U);
  EXPECT_NE(f.store.messages_of("alice")[1].bytes.find("id S1.2"), std::string::npos);
}

}  // namespace
