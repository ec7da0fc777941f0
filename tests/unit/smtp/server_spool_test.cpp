// The SMTP core with a message spool (issue 31, item 5): the data goes to the spool in pieces as it
// arrives, split at every offset, never held whole; a message refused or abandoned drops its spool;
// a spool that cannot be made or written gives 452 (disk full) or 451.
#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <memory>
#include <string>
#include <vector>

#include "smtp_harness.hpp"

namespace smtp_spool_test {

using namespace smtp_test;

// Keeps what was appended; counts the spools alive (dropped ones are removed by the real store).
struct memory_spool final : netlib::smtp::message_spool {
  struct message final : netlib::mail::spooled_message {
    memory_spool& owner;
    std::string data;
    explicit message(memory_spool& o) : owner(o) { ++owner.alive; }
    ~message() override { --owner.alive; }
    bool append(std::string_view lines) override {
      owner.largest_append = std::max(owner.largest_append, lines.size());
      if (owner.fail_append) return false;
      data.append(lines);
      return true;
    }
    [[nodiscard]] int error() const noexcept override { return owner.fail_append ? ENOSPC : 0; }
  };
  std::shared_ptr<netlib::mail::spooled_message> begin(const netlib::smtp::deliver_message& envelope,
                                                       int& error) override {
    envelopes.push_back(envelope);
    if (fail_begin != 0) {
      error = fail_begin;
      return nullptr;
    }
    return std::make_shared<message>(*this);
  }
  std::vector<netlib::smtp::deliver_message> envelopes;
  int alive = 0;
  std::size_t largest_append = 0;
  int fail_begin = 0;
  bool fail_append = false;
};

std::string big_message(std::size_t lines) {
  std::string m = "Subject: big\r\n\r\n";
  for (std::size_t i = 0; i < lines; ++i) m += std::string(98, static_cast<char>('a' + i % 26)) + "\r\n";
  return m;
}

// `input` in pieces of `step` bytes.
netlab::test::pieces chunks(const std::string& input, std::size_t step) {
  netlab::test::pieces out;
  for (std::size_t at = 0; at < input.size(); at += step) out.push_back(std::string_view(input).substr(at, step));
  return out;
}

std::string dialogue(const std::string& message) {
  return "EHLO c\r\nMAIL FROM:<s@x.example>\r\nRCPT TO:<alice@example.org>\r\nDATA\r\n" + message + ".\r\nQUIT\r\n";
}

TEST(SmtpSpool, DataGoesToTheSpoolInPiecesAsItArrives) {
  server_fixture f;
  memory_spool spool;
  f.config.spool = &spool;
  const std::string message = big_message(3000) + "..dot-stuffed\r\n";  // 300 KB
  const std::string input = dialogue(message);
  for (const std::size_t step : {std::size_t{1}, std::size_t{7}, std::size_t{4096}, input.size()}) {
    spool.envelopes.clear();
    spool.largest_append = 0;
    const auto t = run_pieces(f, chunks(input, step));
    ASSERT_EQ(t.deliveries.size(), 1u) << step;
    const auto& d = t.deliveries.front();
    ASSERT_TRUE(d.spooled);
    // The Received: field is in the envelope the spool was given, the data in the spool.
    EXPECT_EQ(spool.envelopes.size(), 1u);
    EXPECT_EQ(d.message, spool.envelopes.front().message);
    EXPECT_EQ(d.message.rfind("Received: from c", 0), 0u) << d.message;
    const auto& data = static_cast<const memory_spool::message&>(*d.spooled).data;
    EXPECT_EQ(data, big_message(3000) + ".dot-stuffed\r\n");
    EXPECT_LE(spool.largest_append, 64u * 1024u + 1000u);  // pieces, never the whole message
    EXPECT_EQ(t.codes.back(), 221);
  }
}

TEST(SmtpSpool, RefusedOrAbandonedMessagesDropTheirSpool) {
  server_fixture f;
  memory_spool spool;
  f.config.spool = &spool;
  f.config.max_message_bytes = 100'000;
  auto t = run_pieces(f, {dialogue(big_message(2000))});  // 200 KB: too big
  EXPECT_TRUE(t.deliveries.empty());
  EXPECT_NE(t.sent.find("552 5.3.4"), std::string::npos) << t.sent;
  EXPECT_EQ(spool.alive, 0);
  // The client goes away in the middle of the data.
  t = run_pieces(f, {"EHLO c\r\nMAIL FROM:<s@x.example>\r\nRCPT TO:<alice@example.org>\r\nDATA\r\nhalf a mess"}, false,
                 true);
  EXPECT_TRUE(t.deliveries.empty());
  EXPECT_EQ(spool.alive, 0);
}

TEST(SmtpSpool, NoRoomIs452AndOtherFailures451) {
  server_fixture f;
  memory_spool spool;
  f.config.spool = &spool;
  spool.fail_begin = ENOSPC;
  auto t = run_pieces(f, {"EHLO c\r\nMAIL FROM:<s@x.example>\r\nRCPT TO:<alice@example.org>\r\nDATA\r\n"});
  EXPECT_NE(t.sent.find("452 4.3.1"), std::string::npos) << t.sent;
  spool.fail_begin = EIO;
  t = run_pieces(f, {"EHLO c\r\nMAIL FROM:<s@x.example>\r\nRCPT TO:<alice@example.org>\r\nDATA\r\n"});
  EXPECT_NE(t.sent.find("451 4.3.0"), std::string::npos) << t.sent;
  spool.fail_begin = 0;
  spool.fail_append = true;  // the disk fills up in the middle of the message
  t = run_pieces(f, {dialogue(big_message(2000))});
  EXPECT_TRUE(t.deliveries.empty());
  EXPECT_NE(t.sent.find("452 4.3.1 Insufficient system storage"), std::string::npos) << t.sent;
  EXPECT_EQ(spool.alive, 0);
}

}  // namespace smtp_spool_test
