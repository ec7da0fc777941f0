// Theory of operation: threshold and modulo selection are arithmetic on the cumulative weights.
// The resilient table keeps, as the kernel does, each bucket's member, each member's count of
// buckets and wanted count, and the list of underweight members; every change of members is
// rebalance (wanted counts, the list) then upkeep (the buckets walked in index order).
#include "netlib/dc/nexthop_group.hpp"

#include <stdexcept>

namespace netlib::dc {
namespace {

// The kernel's DIV_ROUND_CLOSEST_ULL for unsigned operands.
std::uint64_t div_round_closest(std::uint64_t x, std::uint64_t d) noexcept {
  return (x + d / 2) / d;
}

std::uint32_t weight_at(std::span<const std::uint32_t> weights, std::size_t i) noexcept {
  return weights.empty() ? 1 : weights[i];
}

void check_group(std::span<const std::uint32_t> members, std::span<const std::uint32_t> weights) {
  if (members.empty()) throw std::invalid_argument("a next-hop group needs at least one member");
  if (!weights.empty() && weights.size() != members.size()) {
    throw std::invalid_argument("a next-hop group needs one weight per member");
  }
  for (std::size_t i = 0; i < members.size(); ++i) {
    if (weight_at(weights, i) == 0) throw std::invalid_argument("a next-hop weight is at least 1");
    for (std::size_t j = 0; j < i; ++j) {
      if (members[i] == members[j]) throw std::invalid_argument("a next-hop group lists a member twice");
    }
  }
}

}  // namespace

std::optional<group_hashing> parse_group_hashing(std::string_view name) {
  if (name == "modulo") return group_hashing::modulo;
  if (name == "threshold") return group_hashing::threshold;
  if (name == "resilient") return group_hashing::resilient;
  return std::nullopt;
}

std::string group_hashing_name(group_hashing g) {
  switch (g) {
    case group_hashing::modulo:
      return "modulo";
    case group_hashing::threshold:
      return "threshold";
    case group_hashing::resilient:
      return "resilient";
  }
  return "?";
}

std::size_t threshold_select(std::uint32_t hash, unsigned bits, std::span<const std::uint32_t> weights) noexcept {
  std::uint64_t total = 0;
  for (auto w : weights) total += w;
  if (total == 0) return 0;
  std::uint64_t w = 0;
  for (std::size_t i = 0; i < weights.size(); ++i) {
    w += weights[i];
    // fib_rebalance / nh_hthr_group_rebalance: upper_bound = DIV_ROUND_CLOSEST_ULL(w << 31, total) - 1.
    const std::uint64_t bound = div_round_closest(w << bits, total);  // one past the member's last hash
    if (std::uint64_t{hash} < bound) return i;
  }
  return weights.size() - 1;
}

std::size_t modulo_select(std::uint32_t hash, std::span<const std::uint32_t> weights) noexcept {
  std::uint64_t total = 0;
  for (auto w : weights) total += w;
  if (total == 0) return 0;
  std::uint64_t slot = hash % total;
  for (std::size_t i = 0; i < weights.size(); ++i) {
    if (slot < weights[i]) return i;
    slot -= weights[i];
  }
  return weights.size() - 1;
}

resilient_table::resilient_table(std::size_t buckets, std::span<const std::uint32_t> members,
                                 std::span<const std::uint32_t> weights) {
  check_group(members, weights);
  if (buckets == 0 || buckets > max_buckets) throw std::invalid_argument("a resilient group has 1 to 65535 buckets");
  if (buckets < members.size()) throw std::invalid_argument("a resilient group needs at least one bucket per member");
  owner_.assign(buckets, empty);
  members_.assign(members.begin(), members.end());
  count_.assign(members_.size(), 0);
  rebalance(weights);
  upkeep({});
}

std::size_t resilient_table::position(std::uint32_t member) const noexcept {
  for (std::size_t i = 0; i < members_.size(); ++i) {
    if (members_[i] == member) return i;
  }
  return members_.size();
}

void resilient_table::replace(std::span<const std::uint32_t> members, std::span<const std::uint32_t> weights,
                              std::span<const bool> idle) {
  check_group(members, weights);
  if (owner_.size() < members.size())
    throw std::invalid_argument("a resilient group needs at least one bucket per member");
  // nh_res_table_migrate_buckets: a bucket keeps its member if the new group has it, else empties.
  members_.assign(members.begin(), members.end());
  count_.assign(members_.size(), 0);
  for (auto& o : owner_) {
    if (o == empty) continue;
    const std::size_t p = position(o);
    if (p == members_.size()) {
      o = empty;
    } else {
      ++count_[p];
    }
  }
  rebalance(weights);
  upkeep(idle);
}

void resilient_table::rebalance(std::span<const std::uint32_t> weights) {
  // nh_res_group_rebalance.
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < members_.size(); ++i) total += weight_at(weights, i);
  wants_.assign(members_.size(), 0);
  underweight_.clear();
  std::uint64_t w = 0, previous = 0;
  for (std::size_t i = 0; i < members_.size(); ++i) {
    w += weight_at(weights, i);
    const std::uint64_t upper = div_round_closest(std::uint64_t{owner_.size()} * w, total);
    wants_[i] = static_cast<std::size_t>(upper - previous);
    previous = upper;
    if (count_[i] < wants_[i]) underweight_.insert(underweight_.begin(), i);  // list_add: to the front
  }
}

void resilient_table::upkeep(std::span<const bool> idle) {
  // nh_res_table_upkeep, nh_res_bucket_should_migrate, nh_res_bucket_migrate.
  for (std::size_t b = 0; b < owner_.size(); ++b) {
    if (underweight_.empty()) return;
    std::size_t from = members_.size();
    if (owner_[b] != empty) {
      from = position(owner_[b]);
      const bool overweight = count_[from] > wants_[from];
      const bool is_idle = b < idle.size() && idle[b];
      if (!overweight || !is_idle) continue;
    }
    const std::size_t to = underweight_.front();
    if (from < members_.size()) --count_[from];
    owner_[b] = members_[to];
    ++count_[to];
    if (count_[to] >= wants_[to]) underweight_.erase(underweight_.begin());
  }
}

}  // namespace netlib::dc
