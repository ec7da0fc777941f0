#include "netlib/l2/switch_config.hpp"

namespace netlib::l2 {

std::string_view to_string(full_table_policy p) noexcept {
  return p == full_table_policy::evict_fair ? "evict-fair" : "stop-learning";
}

std::optional<full_table_policy> parse_full_table_policy(std::string_view text) noexcept {
  if (text == "evict-fair") return full_table_policy::evict_fair;
  if (text == "stop-learning") return full_table_policy::stop_learning;
  return std::nullopt;
}

}  // namespace netlib::l2
