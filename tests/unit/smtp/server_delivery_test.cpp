// The server core's asynchronous delivery: deliver_message after the end of DATA, the
// `delivering` state, delivery_done(), and commands pipelined behind the message (RFC 2920).
#include <gtest/gtest.h>

#include <optional>

#include "smtp_harness.hpp"

namespace {

using namespace smtp_test;
using netlib::smtp::deliver_message;
using netlib::smtp::delivery_result;
using netlib::smtp::delivery_status;
using netlib::smtp::server_action;
using netlib::smtp::server_session;
using netlib::smtp::server_state;

// A driver whose store answers only when told (held_delivery), as the live group commit does.
struct held_driver {
  server_fixture f;
  server_session s{f.config, {"[127.0.0.1]:40000", "S1"}, f.users};
  netlib::input_buffer buf;
  std::string sent;
  bool closed = false;
  std::optional<deliver_message> held_delivery;

  held_driver() { take(s.start(test_time)); }
  void take(std::vector<server_action> actions) {
    for (auto& a : actions) {
      if (auto* d = std::get_if<deliver_message>(&a)) {
        EXPECT_FALSE(held_delivery.has_value()) << "a second delivery before the first was done";
        held_delivery = std::move(*d);
      } else if (const auto* r = std::get_if<netlib::send_bytes>(&a)) {
        sent += r->bytes;
      } else if (std::holds_alternative<netlib::close_connection>(a)) {
        closed = true;
      }
    }
  }
  // Appends bytes and feeds the buffer; returns what was consumed.
  std::size_t feed(std::string_view bytes) {
    buf.append(netlib::as_bytes(bytes));
    auto step = s.receive(buf.data(), test_time);
    buf.consume(step.consumed);
    take(std::move(step.actions));
    return step.consumed;
  }
  // The store answers; the driver then feeds what waited in the buffer.
  void complete(delivery_result result) {
    held_delivery.reset();
    take(s.delivery_done(result));
    feed("");
  }
};

const std::string envelope_two_users =
    "EHLO client.example\r\nMAIL FROM:<sender@other.org>\r\nRCPT TO:<alice@example.org>\r\n"
    "RCPT TO:<bob@example.org>\r\nRCPT TO:<Alice@Example.org>\r\nDATA\r\n";

TEST(SmtpServerDelivery, EndOfDataEmitsDeliverMessageAndWaits) {
  held_driver d;
  d.feed(envelope_two_users + "Subject: x\r\n\r\n..dot\r\n.\r\n");
  ASSERT_TRUE(d.held_delivery.has_value());
  EXPECT_EQ(d.s.state(), server_state::delivering);
  EXPECT_EQ(d.held_delivery->queue_id, "S1.1");
  EXPECT_EQ(d.held_delivery->sender, "sender@other.org");
  EXPECT_EQ(d.held_delivery->local_users, (std::vector<std::string>{"alice", "bob"}));
  EXPECT_TRUE(d.held_delivery->relay_recipients.empty());
  EXPECT_EQ(d.held_delivery->message.rfind("Received: from client.example ([127.0.0.1]:40000)\r\n", 0), 0U);
  EXPECT_NE(d.held_delivery->message.find("\r\n\r\n.dot\r\n"), std::string::npos);  // dot-unstuffed
  EXPECT_EQ(d.sent.find("queued"), std::string::npos);                              // no 250 before the store answered
  EXPECT_EQ(d.s.messages_accepted(), 0U);
  d.complete({});
  EXPECT_NE(d.sent.find("250 2.0.0 OK: queued as S1.1\r\n"), std::string::npos);
  EXPECT_EQ(d.s.state(), server_state::awaiting_mail);
  EXPECT_EQ(d.s.messages_accepted(), 1U);
}

// RFC 5321 §4.5.1 and §4.1.1.3: postmaster, in any case, with the local domain or none, is
// accepted without a user of that name and delivered once to the configured user; with none
// configured it is refused like any unknown user.
TEST(SmtpServerDelivery, PostmasterGoesToTheConfiguredUser) {
  const std::string dialogue =
      "EHLO c\r\nMAIL FROM:<x@other.org>\r\nRCPT TO:<postmaster@example.org>\r\n"
      "RCPT TO:<POSTMASTER@EXAMPLE.ORG>\r\nRCPT TO:<Postmaster>\r\nRCPT TO:<postmaster@other.org>\r\nDATA\r\n"
      "Subject: x\r\n\r\nhi\r\n.\r\n";
  for (const std::string postmaster : {"bob", ""}) {
    SCOPED_TRACE(postmaster);
    server_fixture f;
    f.config.postmaster = postmaster;
    server_session s(f.config, {"[127.0.0.1]:40000", "S1"}, f.users);
    std::string sent;
    std::optional<deliver_message> delivery;
    auto take = [&](std::vector<server_action> actions) {
      for (auto& a : actions) {
        if (auto* d = std::get_if<deliver_message>(&a)) delivery = std::move(*d);
        if (const auto* r = std::get_if<netlib::send_bytes>(&a)) sent += r->bytes;
      }
    };
    take(s.start(test_time));
    netlib::input_buffer buf;
    buf.append(netlib::as_bytes(dialogue));
    for (int i = 0; i < 20 && !buf.empty(); ++i) {
      auto step = s.receive(buf.data(), test_time);
      buf.consume(step.consumed);
      take(std::move(step.actions));
      if (delivery || step.consumed == 0) break;
    }
    EXPECT_NE(sent.find("554 5.7.1 <postmaster@other.org>: Relay access denied"), std::string::npos) << sent;
    if (postmaster.empty()) {  // none configured: an unknown user like any other
      EXPECT_NE(sent.find("550 5.1.1 <postmaster@example.org>: no such user here"), std::string::npos) << sent;
      EXPECT_FALSE(delivery.has_value());
      continue;
    }
    EXPECT_NE(sent.find("250 2.1.5 Recipient <Postmaster> OK"), std::string::npos) << sent;
    ASSERT_TRUE(delivery.has_value()) << sent;
    EXPECT_EQ(delivery->local_users, (std::vector<std::string>{"bob"}));  // once
  }
}

TEST(SmtpServerDelivery, PipelinedQuitWaitsInTheBufferUntilTheReply) {
  held_driver d;
  const std::string tail = "QUIT\r\n";
  const std::string input = envelope_two_users + "x\r\n.\r\n" + tail;
  EXPECT_EQ(d.feed(input), input.size() - tail.size());  // stops right after the "." line
  EXPECT_EQ(d.buf.size(), tail.size());
  EXPECT_EQ(d.feed(""), 0U);  // nothing consumed while delivering
  EXPECT_FALSE(d.closed);
  d.complete({});
  EXPECT_TRUE(d.closed);
  const auto queued = d.sent.find("250 2.0.0 OK: queued as S1.1\r\n");
  ASSERT_NE(queued, std::string::npos);
  EXPECT_GT(d.sent.find("221 2.0.0"), queued);  // replies in command order
  EXPECT_EQ(d.buf.size(), 0U);
}

TEST(SmtpServerDelivery, FailureIs451AndTheSessionGoesOn) {
  held_driver d;
  d.feed(envelope_two_users + "x\r\n.\r\nMAIL FROM:<a@b.org>\r\n");
  d.complete({delivery_status::failed, "Read-only file system"});
  EXPECT_NE(d.sent.find("451 4.3.0 Local error in processing: the message could not be stored (Read-only file "
                        "system)\r\n250 2.1.0 Sender <a@b.org> OK\r\n"),
            std::string::npos);
  EXPECT_EQ(d.s.messages_accepted(), 0U);
  d.feed("RCPT TO:<bob@example.org>\r\nDATA\r\ny\r\n.\r\n");
  ASSERT_TRUE(d.held_delivery.has_value());
  EXPECT_EQ(d.held_delivery->local_users, std::vector<std::string>{"bob"});
  EXPECT_EQ(d.held_delivery->sender, "a@b.org");
  d.complete({});
  EXPECT_EQ(d.s.messages_accepted(), 1U);
}

TEST(SmtpServerDelivery, NoSpaceIs452) {
  held_driver d;
  d.feed(envelope_two_users + "x\r\n.\r\n");
  d.complete({delivery_status::no_space, "No space left on device"});
  EXPECT_NE(d.sent.find("452 4.3.1 Insufficient system storage: the message was not stored (No space left on "
                        "device)\r\n"),
            std::string::npos);
}

TEST(SmtpServerDelivery, RsetWhileDeliveringComesAfterTheReplyAndCancelsNothing) {
  held_driver d;
  d.feed(envelope_two_users + "x\r\n.\r\nRSET\r\n");
  EXPECT_EQ(d.sent.find("250 2.0.0 OK\r\n"), std::string::npos);  // RSET not answered yet
  d.complete({});
  EXPECT_NE(d.sent.find("250 2.0.0 OK: queued as S1.1\r\n250 2.0.0 OK\r\n"), std::string::npos);
  EXPECT_EQ(d.s.messages_accepted(), 1U);
}

TEST(SmtpServerDelivery, EofWhileDeliveringClosesAndTheLateResultIsIgnored) {
  held_driver d;
  d.feed(envelope_two_users + "x\r\n.\r\n");
  d.take(d.s.receive_eof());
  EXPECT_TRUE(d.closed);
  EXPECT_EQ(d.s.state(), server_state::closed);
  const std::string before = d.sent;
  EXPECT_TRUE(d.s.delivery_done({}).empty());
  EXPECT_EQ(d.sent, before);
}

TEST(SmtpServerDelivery, DeliveryDoneWithoutADeliveryDoesNothing) {
  held_driver d;
  d.feed("EHLO c\r\n");
  EXPECT_TRUE(d.s.delivery_done({}).empty());
  EXPECT_EQ(d.s.state(), server_state::awaiting_mail);
}

TEST(SmtpServerDelivery, RefusedMessagesAreNeverHandedToTheStore) {
  for (const std::string& body : {std::string("bare\nLF\r\n.\r\n"), std::string(1001, 'a') + "\r\n.\r\n"}) {
    server_fixture f;
    const auto t = run_server(f, envelope_two_users + body);
    EXPECT_TRUE(t.deliveries.empty());
    EXPECT_TRUE(t.codes.back() == 550 || t.codes.back() == 500) << t.sent;
  }
}

TEST(SmtpServerDelivery, RelayRecipientsAndSenderGoWithTheMessage) {
  server_fixture f;
  f.config.tls_available = true;
  const auto t = run_pieces(f,
                            {"EHLO c\r\nSTARTTLS\r\n",
                             "EHLO c\r\nAUTH PLAIN AGFsaWNlAHNlY3JldA==\r\n"
                             "MAIL FROM:<alice@example.org>\r\nRCPT TO:<friend@elsewhere.net>\r\n"
                             "RCPT TO:<bob@example.org>\r\nDATA\r\nhi\r\n.\r\n"},
                            true);
  ASSERT_EQ(t.deliveries.size(), 1U) << t.sent;
  EXPECT_EQ(t.deliveries[0].relay_recipients, std::vector<std::string>{"friend@elsewhere.net"});
  EXPECT_EQ(t.deliveries[0].local_users, std::vector<std::string>{"bob"});
  EXPECT_EQ(t.deliveries[0].sender, "alice@example.org");
  EXPECT_EQ(t.codes.back(), 250);
}

// Any split of a dialogue with two pipelined transactions and QUIT, the store answering only after
// the last piece arrived, gives the replies of the immediate store fed whole.
TEST(SmtpServerDelivery, AnySplitWithAHeldDeliveryGivesTheSameReplies) {
  const std::string one = "MAIL FROM:<a@b.org>\r\nRCPT TO:<alice@example.org>\r\nDATA\r\nline\r\n.\r\n";
  const std::string input = "EHLO client.example\r\n" + one + one + "QUIT\r\n";
  server_fixture whole;
  const auto expected = run_server(whole, input);
  ASSERT_EQ(expected.deliveries.size(), 2U);
  netlab::test::for_each_split(input, [&](const netlab::test::pieces& p) {
    held_driver d;
    for (const auto piece : p) d.feed(piece);
    for (int i = 0; i < 3 && d.held_delivery; ++i) d.complete({});
    ASSERT_FALSE(d.held_delivery.has_value());
    ASSERT_EQ(d.sent, expected.sent);
    ASSERT_TRUE(d.closed);
  });
}

}  // namespace
