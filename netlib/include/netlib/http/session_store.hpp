#pragma once
// Server-side state for the cookie lab: a visit counter per session id. Unknown and expired ids are
// new visitors; ids come from an injected generator (cores have no random source). The store is
// capped: when full, expired sessions go first, then the least recently seen.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "netlib/core/clock.hpp"

namespace netlib::http {

struct session_visit {
  std::string id;
  bool is_new = false;       // Set-Cookie must be sent
  std::uint64_t visits = 0;  // counted page views, this one included
};

class session_store {
 public:
  session_store(duration ttl, std::size_t max_sessions, std::function<std::string()> new_id);
  // A request with the session cookie `id` (if any) at `now`; `count` says whether it is a visit of
  // the counter page.
  session_visit touch(std::optional<std::string_view> id, time_point now, bool count);
  [[nodiscard]] std::size_t size() const noexcept { return sessions_.size(); }
  [[nodiscard]] duration ttl() const noexcept { return ttl_; }

 private:
  struct entry {
    std::uint64_t visits = 0;
    time_point last_seen;
  };
  void make_room(time_point now);

  duration ttl_;
  std::size_t max_sessions_;
  std::function<std::string()> new_id_;
  std::unordered_map<std::string, entry> sessions_;
};

}  // namespace netlib::http
