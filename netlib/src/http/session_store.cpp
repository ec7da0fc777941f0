// Theory of operation: a map id -> {visits, last_seen}. touch() treats a missing, unknown or
// expired id (last_seen + ttl <= now) as a new visitor and makes a fresh id; it refreshes
// last_seen on every request. The map never exceeds max_sessions: make_room drops expired
// entries first, then the least recently seen one (a linear scan, bounded by the cap).
#include "netlib/http/session_store.hpp"

#include <stdexcept>

namespace netlib::http {

session_store::session_store(duration ttl, std::size_t max_sessions, std::function<std::string()> new_id)
    : ttl_(ttl), max_sessions_(max_sessions), new_id_(std::move(new_id)) {
  if (max_sessions_ == 0 || !new_id_) throw std::logic_error("session_store needs a capacity and an id generator");
}

void session_store::make_room(time_point now) {
  std::erase_if(sessions_, [&](const auto& kv) { return kv.second.last_seen + ttl_ <= now; });
  while (sessions_.size() >= max_sessions_) {
    auto oldest = sessions_.begin();
    for (auto it = sessions_.begin(); it != sessions_.end(); ++it)
      if (it->second.last_seen < oldest->second.last_seen) oldest = it;
    sessions_.erase(oldest);
  }
}

session_visit session_store::touch(std::optional<std::string_view> id, time_point now, bool count) {
  if (id) {
    auto it = sessions_.find(std::string(*id));
    if (it != sessions_.end() && it->second.last_seen + ttl_ > now) {
      it->second.last_seen = now;
      if (count) ++it->second.visits;
      return {it->first, false, it->second.visits};
    }
    if (it != sessions_.end()) sessions_.erase(it);  // expired: a new visitor
  }
  make_room(now);
  std::string fresh = new_id_();
  for (int tries = 0; sessions_.contains(fresh) && tries < 8; ++tries) fresh = new_id_();
  auto& e = sessions_[fresh];
  e.last_seen = now;
  e.visits = count ? 1 : 0;
  return {fresh, true, e.visits};
}

}  // namespace netlib::http
