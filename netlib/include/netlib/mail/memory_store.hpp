#pragma once
// An in-memory mail store for tests and simulations: deliveries land in per-user vectors with
// UIDs "m1", "m2", ... that never change; open() locks a user's maildrop until the mailbox dies.
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "netlib/mail/mail_store.hpp"

namespace netlib::mail {

class memory_store : public mail_store {
 public:
  struct stored {
    std::string uid;
    std::string bytes;
  };
  struct relayed {
    std::string sender;
    std::vector<std::string> recipients;
    std::string bytes;
  };

  bool deliver(std::string_view user, std::string_view message) override;
  bool queue_relay(std::string_view sender, std::span<const std::string> recipients, std::string_view message) override;
  open_result open(std::string_view user) override;

  // Test controls and inspection.
  void add_user(const std::string& user) { (void)state_->boxes[user]; }
  void fail_deliveries(bool fail) { state_->fail_deliveries = fail; }
  [[nodiscard]] const std::vector<stored>& messages_of(const std::string& user) const;
  [[nodiscard]] const std::vector<relayed>& relay_queue() const { return state_->relay; }
  [[nodiscard]] bool is_locked(const std::string& user) const { return state_->locked.count(user) > 0; }

  struct state_type {
    std::map<std::string, std::vector<stored>> boxes;
    std::vector<relayed> relay;
    std::set<std::string> locked;
    std::size_t next_uid = 1;
    bool fail_deliveries = false;
  };

 private:
  std::shared_ptr<state_type> state_ = std::make_shared<state_type>();
};

}  // namespace netlib::mail
