// Theory of operation: a shared state (so mailboxes outlive nothing they point into) holds each
// user's messages in delivery order. open() takes a snapshot of the list and marks the user locked;
// the mailbox's destructor unlocks. remove() erases by UID so deliveries made during the session
// (not in its snapshot) are kept.
#include "netlib/mail/memory_store.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "netlib/mail/message_text.hpp"

namespace netlib::mail {
namespace {

class memory_mailbox : public mailbox {
 public:
  memory_mailbox(std::shared_ptr<memory_store::state_type> state, std::string user)
      : state_(std::move(state)), user_(std::move(user)) {
    for (const auto& m : state_->boxes[user_]) {
      infos_.push_back({m.uid, crlf_size(m.bytes)});
      bytes_.push_back(m.bytes);
    }
  }
  ~memory_mailbox() override { state_->locked.erase(user_); }
  memory_mailbox(const memory_mailbox&) = delete;
  memory_mailbox& operator=(const memory_mailbox&) = delete;

  [[nodiscard]] const std::vector<message_info>& messages() const override { return infos_; }
  [[nodiscard]] std::optional<std::string> read(std::size_t index) override {
    if (index >= bytes_.size()) return std::nullopt;
    return bytes_[index];
  }
  std::size_t remove(std::span<const std::size_t> indices) override {
    auto& box = state_->boxes[user_];
    std::size_t failed = 0;
    for (std::size_t i : indices) {
      if (i >= infos_.size()) {
        ++failed;
        continue;
      }
      const auto it = std::find_if(box.begin(), box.end(), [&](const auto& m) { return m.uid == infos_[i].uid; });
      if (it == box.end())
        ++failed;
      else
        box.erase(it);
    }
    return failed;
  }

 private:
  std::shared_ptr<memory_store::state_type> state_;
  std::string user_;
  std::vector<message_info> infos_;
  std::vector<std::string> bytes_;
};

}  // namespace

bool memory_store::deliver(std::string_view user, std::string_view message) {
  if (state_->fail_deliveries) return false;
  auto& box = state_->boxes[std::string(user)];
  box.push_back({fmt::format("m{}", state_->next_uid++), std::string(message)});
  return true;
}

bool memory_store::queue_relay(std::string_view sender, std::span<const std::string> recipients,
                               std::string_view message) {
  if (state_->fail_deliveries) return false;
  state_->relay.push_back({std::string(sender), {recipients.begin(), recipients.end()}, std::string(message)});
  return true;
}

open_result memory_store::open(std::string_view user) {
  const std::string name(user);
  if (state_->boxes.find(name) == state_->boxes.end()) return {open_status::no_such_user, nullptr};
  if (state_->locked.count(name) > 0) return {open_status::locked, nullptr};
  state_->locked.insert(name);
  return {open_status::opened, std::make_unique<memory_mailbox>(state_, name)};
}

const std::vector<memory_store::stored>& memory_store::messages_of(const std::string& user) const {
  static const std::vector<stored> none;
  const auto it = state_->boxes.find(user);
  return it == state_->boxes.end() ? none : it->second;
}

}  // namespace netlib::mail
