// Theory of operation: see smtp_delivery_queue.hpp. One committer thread waits for work, takes
// everything queued (at most max_batch messages) as one batch, turns each message into its files
// (one per local user with its Return-Path and Delivered-To, smtp::local_copy; one relay copy;
// one group, so stored all or none), stores them with
// maildir_store::write_batch, and calls
// every message's completion with the first error among its files: ENOSPC or EDQUOT give
// no_space (452), any other error failed (451), none stored (250). Messages submitted while a
// batch is being written form the next batch, so batches grow with the load and no delivery
// waits for a timer. deliver_async wraps submit for coroutines: the completion posts the result
// to the coroutine's associated executor, holding outstanding work on it until then.
#include "netlib/io/smtp_delivery_queue.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "netlib/mail/message_text.hpp"
#include "netlib/smtp/store_delivery.hpp"

namespace netlib::io {
namespace {

smtp::delivery_result result_of_errno(int err) {
  if (err == 0) return {};
  const auto status = err == ENOSPC || err == EDQUOT ? smtp::delivery_status::no_space : smtp::delivery_status::failed;
  return {status, std::strerror(err)};
}

}  // namespace

smtp_delivery_queue::smtp_delivery_queue(maildir_store& store, std::string local_domain, std::size_t max_batch)
    : store_(store),
      local_domain_(std::move(local_domain)),
      max_batch_(std::max<std::size_t>(1, max_batch)),
      committer_([this] { run(); }) {}

smtp_delivery_queue::~smtp_delivery_queue() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  committer_.join();
}

void smtp_delivery_queue::submit(smtp::deliver_message message, completion done) {
  {
    std::lock_guard lock(mutex_);
    queue_.push_back({std::move(message), std::move(done)});
  }
  wake_.notify_one();
}

void smtp_delivery_queue::run() {
  for (;;) {  // ends when stopping and the queue is empty (what was queued is still stored)
    std::deque<pending> batch;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;
      const std::size_t n = std::min(queue_.size(), max_batch_);
      std::move(queue_.begin(), queue_.begin() + static_cast<std::ptrdiff_t>(n), std::back_inserter(batch));
      queue_.erase(queue_.begin(), queue_.begin() + static_cast<std::ptrdiff_t>(n));
    }
    commit(batch);
  }
}

void smtp_delivery_queue::commit(std::deque<pending>& batch) {
  std::deque<std::string> copies;  // owns the files' bytes (deque: they never move)
  std::vector<maildir_store::batch_file> files;
  std::vector<std::size_t> first_file;  // index in files of each message's first file
  for (const auto& p : batch) {         // the copies of one message form one group: all or none
    const std::size_t group = first_file.size();
    first_file.push_back(files.size());
    // A spooled message: each copy is its own header, then the spool's shared part (the
    // Received: field and the data); the spool's own mailbox gets the spool file itself.
    const auto* spool = dynamic_cast<const maildir_store::spool*>(p.message.spooled.get());
    if (p.message.spooled && spool == nullptr) {    // not one of this store's: cannot happen
      files.push_back({std::string(), {}, group});  // no such mailbox: the message fails (EINVAL)
      continue;
    }
    const std::string_view text = spool ? std::string_view() : std::string_view(p.message.message);
    for (const auto& user : p.message.local_users) {
      copies.push_back(spool && spool->mailbox() == user
                           ? std::string()
                           : mail::final_delivery_copy(p.message.sender, user + "@" + local_domain_, text));
      files.push_back({user, copies.back(), group, 0, spool});
    }
    if (p.message.relay_recipients.empty()) continue;
    copies.push_back(maildir_store::relay_file(p.message.sender, p.message.relay_recipients, text));
    files.push_back({std::string(maildir_store::relay_mailbox), copies.back(), group, 0, spool});
  }
  first_file.push_back(files.size());
  int internal = 0;
  try {
    store_.write_batch(files);
  } catch (const std::exception&) {  // out of memory in the middle: promise nothing
    internal = EIO;
  }
  std::vector<int> errors(batch.size(), internal);
  for (std::size_t i = 0; i < batch.size(); ++i)
    for (std::size_t f = first_file[i]; f < first_file[i + 1] && errors[i] == 0; ++f) errors[i] = files[f].error;
  {
    std::lock_guard lock(mutex_);
    messages_ += static_cast<std::uint64_t>(std::count(errors.begin(), errors.end(), 0));
    ++batches_;
    largest_ = std::max(largest_, batch.size());
  }
  for (std::size_t i = 0; i < batch.size(); ++i) batch[i].done(result_of_errno(errors[i]));
}

std::shared_ptr<mail::spooled_message> smtp_delivery_queue::begin(const smtp::deliver_message& envelope, int& error) {
  if (!envelope.local_users.empty()) {
    const std::string& user = envelope.local_users.front();
    return store_.begin_spool(user, mail::final_delivery_copy(envelope.sender, user + "@" + local_domain_, ""),
                              envelope.message, error);
  }
  return store_.begin_spool(std::string(maildir_store::relay_mailbox),
                            maildir_store::relay_file(envelope.sender, envelope.relay_recipients, ""), envelope.message,
                            error);
}

std::uint64_t smtp_delivery_queue::messages_stored() const {
  std::lock_guard lock(mutex_);
  return messages_;
}

std::uint64_t smtp_delivery_queue::batches() const {
  std::lock_guard lock(mutex_);
  return batches_;
}

std::size_t smtp_delivery_queue::largest_batch() const {
  std::lock_guard lock(mutex_);
  return largest_;
}

awaitable<smtp::delivery_result> deliver_async(smtp_delivery_queue& queue, smtp::deliver_message message) {
  const auto initiate = [&queue](auto handler, smtp::deliver_message m) {
    const auto ex = asio::get_associated_executor(handler);
    // Outstanding work keeps the executor's io_context running until the result is posted.
    auto tracked = std::make_shared<asio::any_io_executor>(asio::prefer(ex, asio::execution::outstanding_work.tracked));
    auto shared = std::make_shared<decltype(handler)>(std::move(handler));
    queue.submit(std::move(m), [tracked, shared](smtp::delivery_result r) {
      asio::post(*tracked, [tracked, shared, r = std::move(r)]() mutable { std::move (*shared)(std::move(r)); });
    });
  };
  co_return co_await asio::async_initiate<decltype(use_awaitable), void(smtp::delivery_result)>(initiate, use_awaitable,
                                                                                                std::move(message));
}

}  // namespace netlib::io
