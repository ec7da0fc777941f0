#pragma once
// How a switch turns a flow's hash into one member of its next-hop group (docs/architecture.md,
// "Data-centre core"), and what happens to the flows when a member goes away:
//
//   modulo      member = hash mod n (weights: each member appears weight times in the table, as
//               hardware WCMP groups replicate members). n changes, so almost every flow moves.
//   threshold   hash-threshold (RFC 2992), Linux's multipath routes and nexthop groups
//               (fib_rebalance): member i owns the hashes up to round(W_i * 2^bits / W) - 1,
//               W_i the weights up to and including i. A removal shifts every boundary: about
//               half the flows move.
//   resilient   Linux's resilient nexthop groups (`ip nexthop add id N group A/B/C type resilient
//               buckets B`, Linux 5.13 and later): a table of B buckets, bucket = hash mod B, each
//               bucket holding one member. Only the buckets of a member that leaves are given to
//               others, so only its flows move.
//
// The resilient table follows the kernel's net/ipv4/nexthop.c (nh_res_group_rebalance,
// nh_res_table_upkeep, nh_res_bucket_migrate):
//   - member i wants round(B * W_i / W) - round(B * W_{i-1} / W) buckets;
//   - a member holding fewer than it wants is underweight; the underweight members are kept in a
//     list that each rebalance builds by pushing to its front, so its head is the LAST
//     underweight member in group order;
//   - upkeep walks the buckets in index order: an empty bucket (a new table, or its member left)
//     is given at once to the list's head; a bucket of an overweight member moves to the head only
//     when it is idle (no packet through it for idle_timer, 120 s by default, or none since it was
//     assigned: a new or reassigned bucket counts as idle until a packet uses it; a lookup such as
//     `ip route get` uses it too) or the group has been unbalanced for longer than
//     unbalanced_timer (not modelled); a member that reaches its share leaves the list.
// A member's removal moves exactly the buckets it held and nothing else (the others are all
// underweight then). When a member is added, which buckets are idle decides; the caller says.
// Checked against the kernel's own table (`ip nexthop bucket show`) and its choices (`ip route
// get`) by tests/integration/dc/nexthop_test.cpp, an addition with busy and idle buckets included.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace netlib::dc {

enum class group_hashing : std::uint8_t { modulo, threshold, resilient };

// "modulo", "threshold", "resilient"; nullopt for anything else.
std::optional<group_hashing> parse_group_hashing(std::string_view name);
std::string group_hashing_name(group_hashing g);

// Hash-threshold among members with these weights (all at least 1) for a hash of `bits` bits
// (31 for Linux's multipath hash): the first member whose upper bound is at least the hash.
std::size_t threshold_select(std::uint32_t hash, unsigned bits, std::span<const std::uint32_t> weights) noexcept;
// Modulo over the members replicated by weight: hash mod ΣW, then the member whose share of the
// replicated table holds that index.
std::size_t modulo_select(std::uint32_t hash, std::span<const std::uint32_t> weights) noexcept;

class resilient_table {
 public:
  static constexpr std::size_t max_buckets = 65535;  // the kernel's u16
  // A new group (`ip nexthop add ... type resilient buckets B`): every bucket empty, then filled
  // by upkeep. Members are ids (the fabric's arcs; the kernel's nexthop ids), in group order;
  // weights are 1 each when empty. Throws std::invalid_argument on no member, a repeated member,
  // a zero weight, or buckets outside 1 .. max_buckets or fewer than the members.
  resilient_table(std::size_t buckets, std::span<const std::uint32_t> members,
                  std::span<const std::uint32_t> weights = {});

  // The group's members replaced (`ip nexthop replace`, or a member removed when its link goes
  // down): buckets of members that stay keep them; buckets of members that left are given out at
  // once; buckets of members that now hold more than their share move only when `idle` says so
  // (per bucket; empty: no bucket is idle, the fabric is busy).
  void replace(std::span<const std::uint32_t> members, std::span<const std::uint32_t> weights = {},
               std::span<const bool> idle = {});

  [[nodiscard]] std::size_t bucket_of(std::uint32_t hash) const noexcept { return hash % owner_.size(); }
  [[nodiscard]] std::uint32_t select(std::uint32_t hash) const noexcept { return owner_[bucket_of(hash)]; }
  // Each bucket's member, as `ip nexthop bucket show` lists them.
  [[nodiscard]] const std::vector<std::uint32_t>& buckets() const noexcept { return owner_; }
  [[nodiscard]] const std::vector<std::uint32_t>& members() const noexcept { return members_; }
  // Buckets each member wants, in member order.
  [[nodiscard]] const std::vector<std::size_t>& wants() const noexcept { return wants_; }

 private:
  static constexpr std::uint32_t empty = 0xFFFFFFFFu;
  void rebalance(std::span<const std::uint32_t> weights);
  void upkeep(std::span<const bool> idle);
  [[nodiscard]] std::size_t position(std::uint32_t member) const noexcept;  // members_.size() when absent

  std::vector<std::uint32_t> owner_;      // per bucket: a member id, or empty
  std::vector<std::uint32_t> members_;    // in group order
  std::vector<std::size_t> wants_;        // per member
  std::vector<std::size_t> count_;        // per member: buckets held
  std::vector<std::size_t> underweight_;  // member positions, head first
};

}  // namespace netlib::dc
