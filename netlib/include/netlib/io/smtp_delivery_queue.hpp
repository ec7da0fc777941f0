#pragma once
// Group commit for the SMTP server: connections hand their deliver_message actions to one
// committer thread, which stores everything that queued up while it was busy as one batch
// (maildir_store::write_batch: one data flush and one folder flush for the batch) and then
// completes every delivery of the batch. 20 sessions waiting for the disk share one flush instead
// of queueing for 40; the server's I/O threads never block on the disk.
//
//   netlib::io::smtp_delivery_queue queue(store, "example.org");  // starts the committer thread
//   auto result = co_await netlib::io::deliver_async(queue, std::move(message));
//   // resumes on the coroutine's own executor (strand) with stored / no_space / failed
//
// Lifetime: the destructor stores what is queued, then joins. Declare the queue before the
// tcp_server that uses it: a pending deliver_async keeps its io_context's run() from returning,
// so the server's run() ends only after every delivery was completed.
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include "netlib/io/asio.hpp"
#include "netlib/io/maildir_store.hpp"
#include "netlib/smtp/server_session.hpp"

namespace netlib::io {

// It is also the SMTP server's message spool (smtp::message_spool): a message is written as it
// arrives into tmp/ of the mailbox of its first copy (maildir_store::begin_spool), and its batch
// delivers that file and copies the others from it.
class smtp_delivery_queue final : public smtp::message_spool {
 public:
  // Called once per message, on the committer thread, after its batch was stored (or failed).
  using completion = std::function<void(smtp::delivery_result)>;

  // `local_domain` names the local mailboxes in the Delivered-To field of each copy.
  smtp_delivery_queue(maildir_store& store, std::string local_domain, std::size_t max_batch = 256);
  ~smtp_delivery_queue() override;
  smtp_delivery_queue(const smtp_delivery_queue&) = delete;
  smtp_delivery_queue& operator=(const smtp_delivery_queue&) = delete;

  // Thread-safe. Queues one message: a copy for each local user (smtp::local_copy: the final
  // delivery adds Return-Path and Delivered-To), one for the relay queue.
  void submit(smtp::deliver_message message, completion done);

  // smtp::message_spool (thread-safe): a spooled message for `envelope`, in tmp/ of its first
  // local user's mailbox (else of the relay queue), that copy's Return-Path and Delivered-To (or
  // the relay envelope) first, then envelope.message (the Received: field).
  std::shared_ptr<mail::spooled_message> begin(const smtp::deliver_message& envelope, int& error) override;

  // Counters (thread-safe): messages stored, batches written, the largest batch (in messages).
  [[nodiscard]] std::uint64_t messages_stored() const;
  [[nodiscard]] std::uint64_t batches() const;
  [[nodiscard]] std::size_t largest_batch() const;

 private:
  struct pending {
    smtp::deliver_message message;
    completion done;
  };
  void run();
  void commit(std::deque<pending>& batch);

  maildir_store& store_;
  std::string local_domain_;
  std::size_t max_batch_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<pending> queue_;
  bool stopping_ = false;
  std::uint64_t messages_ = 0;
  std::uint64_t batches_ = 0;
  std::size_t largest_ = 0;
  std::thread committer_;  // last: started when everything above exists
};

// Submits `message` and suspends the calling coroutine until its batch is durable (or failed);
// resumes on the coroutine's executor. The pending delivery counts as work of that executor.
awaitable<smtp::delivery_result> deliver_async(smtp_delivery_queue& queue, smtp::deliver_message message);

}  // namespace netlib::io
