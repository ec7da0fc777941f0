// smtp_delivery_queue: the committer thread of lab-smtp serve, driven directly from several
// threads; every completion called once with the right status, the destructor drains the queue.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>
#include <vector>

#include "netlib/io/smtp_delivery_queue.hpp"

namespace {

namespace fs = std::filesystem;
using netlib::io::maildir_store;
using netlib::io::smtp_delivery_queue;
using netlib::smtp::deliver_message;
using netlib::smtp::delivery_result;
using netlib::smtp::delivery_status;

struct queue_dir {
  fs::path root;
  queue_dir() {
    std::string tmpl = (fs::temp_directory_path() / "netlab-delivery-queue-XXXXXX").string();
    root = mkdtemp(tmpl.data());
  }
  ~queue_dir() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
  queue_dir(const queue_dir&) = delete;
  queue_dir& operator=(const queue_dir&) = delete;
  // The only file in DIR/box/sub ("" when there is not exactly one).
  [[nodiscard]] std::string only_file(const std::string& box, const char* sub) const {
    std::vector<fs::path> found;
    std::error_code ec;
    for (auto it = fs::directory_iterator(root / box / sub, ec); !ec && it != fs::directory_iterator(); ++it)
      found.push_back(it->path());
    if (found.size() != 1) return "";
    std::ifstream in(found.front(), std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }
  [[nodiscard]] std::size_t count(const std::string& box, const char* sub) const {
    std::error_code ec;
    std::size_t n = 0;
    for (auto it = fs::directory_iterator(root / box / sub, ec); !ec && it != fs::directory_iterator(); ++it) ++n;
    return n;
  }
};

// Collects completions; wait() is bounded in time.
struct completions {
  std::mutex mutex;
  std::condition_variable changed;
  std::vector<delivery_result> results;
  smtp_delivery_queue::completion make() {
    return [this](delivery_result r) {
      std::lock_guard lock(mutex);
      results.push_back(std::move(r));
      changed.notify_all();
    };
  }
  bool wait(std::size_t n) {
    std::unique_lock lock(mutex);
    return changed.wait_for(lock, std::chrono::seconds(20), [&] { return results.size() >= n; });
  }
};

deliver_message message_for(std::vector<std::string> users, const std::string& text) {
  return {"q", "sender@other.org", std::move(users), {}, text};
}

TEST(SmtpDeliveryQueue, ManyThreadsSubmitEveryMessageIsStoredOnce) {
  queue_dir d;
  maildir_store store(d.root);
  smtp_delivery_queue queue(store, "example.org");
  completions done;
  std::vector<std::thread> submitters;
  for (int t = 0; t < 5; ++t)
    submitters.emplace_back([&, t] {
      for (int i = 0; i < 10; ++i)
        queue.submit(message_for({t % 2 == 0 ? "alice" : "bob"}, "m " + std::to_string(t * 10 + i) + "\r\n"),
                     done.make());
    });
  for (auto& s : submitters) s.join();
  ASSERT_TRUE(done.wait(50));
  for (const auto& r : done.results) EXPECT_EQ(r.status, delivery_status::stored) << r.detail;
  EXPECT_EQ(done.results.size(), 50U);
  EXPECT_EQ(queue.messages_stored(), 50U);
  EXPECT_GE(queue.batches(), 1U);
  EXPECT_LE(queue.batches(), 50U);
  EXPECT_EQ(d.count("alice", "new"), 30U);
  EXPECT_EQ(d.count("bob", "new"), 20U);
}

TEST(SmtpDeliveryQueue, TheDestructorStoresWhatIsQueued) {
  queue_dir d;
  maildir_store store(d.root);
  completions done;
  {
    smtp_delivery_queue queue(store, "example.org", 3);  // batches of at most 3
    for (int i = 0; i < 10; ++i) queue.submit(message_for({"alice"}, "x\r\n"), done.make());
  }
  EXPECT_EQ(done.results.size(), 10U);
  EXPECT_EQ(d.count("alice", "new"), 10U);
}

TEST(SmtpDeliveryQueue, AFailedCopyFailsTheWholeMessageWithItsReason) {
  queue_dir d;
  maildir_store store(d.root);
  smtp_delivery_queue queue(store, "example.org");
  completions done;
  queue.submit(message_for({"bob", "../bad"}, "both\r\n"), done.make());
  ASSERT_TRUE(done.wait(1));
  EXPECT_EQ(done.results[0].status, delivery_status::failed);
  EXPECT_EQ(done.results[0].detail, "Invalid argument");
  EXPECT_EQ(d.count("bob", "new"), 0U);
  EXPECT_EQ(queue.messages_stored(), 0U);
  // A relay copy goes with the message into DIR/.relay.
  deliver_message relayed = message_for({"bob"}, "relayed\r\n");
  relayed.relay_recipients = {"far@elsewhere.example"};
  queue.submit(std::move(relayed), done.make());
  ASSERT_TRUE(done.wait(2));
  EXPECT_EQ(done.results[1].status, delivery_status::stored) << done.results[1].detail;
  EXPECT_EQ(d.count("bob", "new"), 1U);
  EXPECT_EQ(d.count(".relay", "new"), 1U);
}

// Final delivery (RFC 5321 §4.4): each local copy starts with Return-Path (the envelope sender,
// <> for the null path) and Delivered-To (the local address), and is stored with LF line ends;
// the relay copy is not a final delivery and gets neither.
TEST(SmtpDeliveryQueue, LocalCopiesGetReturnPathAndDeliveredToTheRelayCopyDoesNot) {
  queue_dir d;
  maildir_store store(d.root);
  smtp_delivery_queue queue(store, "example.org");
  completions done;
  deliver_message m = message_for({"alice", "bob"}, "Received: from x\r\n\tby y; z\r\nSubject: hi\r\n\r\nbody\r\n");
  m.relay_recipients = {"far@elsewhere.example"};
  queue.submit(std::move(m), done.make());
  queue.submit({"q2", "", {"bob"}, {}, "Subject: bounce\r\n\r\n"}, done.make());
  ASSERT_TRUE(done.wait(2));
  EXPECT_EQ(d.only_file("alice", "new"),
            "Return-Path: <sender@other.org>\nDelivered-To: alice@example.org\nReceived: from x\n\tby y; z\n"
            "Subject: hi\n\nbody\n");
  EXPECT_EQ(d.only_file(".relay", "new"),
            "X-Netlab-Envelope-From: <sender@other.org>\nX-Netlab-Envelope-To: <far@elsewhere.example>\n"
            "Received: from x\n\tby y; z\nSubject: hi\n\nbody\n");
  EXPECT_EQ(d.count("bob", "new"), 2U);
  const auto opened = store.open("bob");
  ASSERT_EQ(opened.status, netlib::mail::open_status::opened);
  bool bounce_seen = false;
  for (std::size_t i = 0; i < opened.box->messages().size(); ++i)
    bounce_seen =
        bounce_seen || opened.box->read(i) == "Return-Path: <>\nDelivered-To: bob@example.org\nSubject: bounce\n\n";
  EXPECT_TRUE(bounce_seen);
}

}  // namespace
