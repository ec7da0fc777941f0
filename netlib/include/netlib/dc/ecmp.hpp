#pragma once
// ECMP placement (docs/architecture.md, "Data-centre core"): every switch on a flow's way hashes
// the flow's fields and takes one of its equal-cost next hops.
//
//   hash        value a switch computes                 next hop among n
//   crc16       CRC-16/CCITT-FALSE, init 0xFFFF ^ seed   hash mod n
//   crc32       CRC-32, init 0xFFFFFFFF ^ seed           hash mod n
//   xor         XOR fold to 16 bits, ^ seed              hash mod n
//   toeplitz    Toeplitz with Microsoft's key (seed 0)    hash mod n
//               or a key drawn from the seed
//   linux       Linux's SipHash flow hash keyed by seed  hash-threshold, as fib_select_multipath
//   presets: l3 = linux over two fields, l4 = linux over five (Linux's fib_multipath_hash_policy 0, 1)
//
// The next-hop group can be told to hash otherwise (hash_config::grouping, nexthop_group.hpp):
// modulo, hash-threshold over the hash's bits (31 for linux, 16 for crc16 and xor, 32 for crc32
// and toeplitz), or Linux's resilient bucket table (bucket = hash mod buckets); and to weigh
// each next hop by its link's capacity (WCMP, capacity_weights). After a failure, a model built
// from the one before it (the constructor with `before`) keeps each resilient group's buckets as
// the kernel does when a member leaves.
//
// Seeds: `same` gives every switch the configured seed; `per_switch` gives each switch its own,
// drawn from the configured seed and the switch's number (per_switch_seed). A CRC or XOR hash is
// affine over GF(2): another seed XORs one constant into every result of the same length, so with
// a power-of-two number of next hops it relabels the choices but does not make two switches'
// choices independent. Toeplitz keys and SipHash seeds do.
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "netlib/dc/hash.hpp"
#include "netlib/dc/nexthop_group.hpp"
#include "netlib/dc/routes.hpp"
#include "netlib/dc/topology.hpp"

namespace netlib::dc {

enum class hash_algorithm : std::uint8_t { crc16, crc32, xor16, toeplitz, linux_hash };
enum class seed_mode : std::uint8_t { same, per_switch };

struct hash_config {
  hash_algorithm algorithm = hash_algorithm::crc16;
  field_set fields = field_set::five;
  seed_mode seeds = seed_mode::same;
  std::uint32_t seed = 0;
  // Per tier (index = switch tier), the fields switches of that tier hash instead of `fields`;
  // missing tiers use `fields`.
  std::vector<field_set> tier_fields;
  // How a switch picks among its next hops; nullopt: the hash's own (threshold for linux, modulo
  // for the others).
  std::optional<group_hashing> grouping;
  std::size_t buckets = 128;  // per resilient group (Linux's default)
  bool weighted = false;      // WCMP: next hops weighted by capacity_weights
};

// The group hashing a configuration uses (its own, or the hash's natural one).
group_hashing grouping_of(const hash_config& c) noexcept;
// The bits of a hash's value: 31 (linux), 16 (crc16, xor), 32 (crc32, toeplitz).
unsigned hash_bits(hash_algorithm a) noexcept;
// WCMP weights of next hops: each link's capacity in whole Mbit/s (at least 1), divided by their
// greatest common divisor, then scaled down to at most 256 (Linux's largest route weight) when
// larger, rounding, each at least 1. Equal links weigh 1 each.
std::vector<std::uint32_t> capacity_weights(const topology& t, std::span<const arc_id> hops);

// "crc16", "crc32", "xor", "toeplitz", "linux", and the presets "l3", "l4" (which also set the
// fields); nullopt for anything else.
std::optional<hash_config> parse_hash(std::string_view name);
std::string hash_name(hash_algorithm a);
std::string fields_name(field_set f);                          // "2-tuple" .. "5-tuple"
std::optional<field_set> parse_fields(std::string_view text);  // "2" .. "5", "2-tuple" .. "5-tuple"

// The seed switch `sw` uses in per-switch mode: a SplitMix64 mix of the base seed and the switch
// number, never 0 (Linux treats a zero fib_multipath_hash_seed as "use the random boot seed").
std::uint32_t per_switch_seed(std::uint32_t base, node_id sw) noexcept;

// A flow: its key, its end hosts, its bytes and when it starts.
struct flow {
  flow_key key;
  node_id src = 0;  // host
  node_id dst = 0;  // host
  double bytes = 0;
  double start_s = 0;
};

class ecmp_model {
 public:
  ecmp_model(const topology& t, const routes& r, hash_config config);
  // The same fabric after its routes changed (a link failed: `r` routes without it): resilient
  // groups start from `before`'s tables with the members that remain (resilient_table::replace,
  // no bucket idle: exact for members that leave; a group that gains a member gives it only the
  // buckets of those that leave); every other choice is computed afresh.
  ecmp_model(const topology& t, const routes& r, hash_config config, const ecmp_model& before);
  // The same, knowing the flows that ran before the change: a bucket none of them used counts as
  // idle (the kernel's buckets are idle until a packet uses them), so a group that gains a member
  // gives it overweight members' unused buckets too, as the kernel does.
  ecmp_model(const topology& t, const routes& r, hash_config config, const ecmp_model& before,
             std::span<const flow> flows_before);
  ~ecmp_model();
  ecmp_model(const ecmp_model&) = delete;
  ecmp_model& operator=(const ecmp_model&) = delete;

  // The hash switch `sw` computes for a flow (from the definition, byte by byte), and the next
  // hop it picks among n.
  [[nodiscard]] std::uint32_t hash(const flow_key& key, node_id sw) const;
  [[nodiscard]] std::size_t select(std::uint32_t hash, std::size_t n) const noexcept;
  // The next hop switch `sw` picks toward destination switch `to` among `hops` (its routes'
  // next hops) for a hash: select() unless the group hashes otherwise or is weighted.
  [[nodiscard]] std::size_t pick(node_id sw, node_id to, std::span<const arc_id> hops, std::uint32_t hash) const;
  // The resilient group of switch `sw` toward `to` (nullptr unless resilient with two or more hops).
  [[nodiscard]] const resilient_table* resilient_group(node_id sw, node_id to) const noexcept;
  [[nodiscard]] std::uint32_t seed_of(node_id sw) const noexcept { return seeds_[sw]; }
  [[nodiscard]] field_set fields_of(node_id sw) const noexcept { return fields_[sw]; }
  // The arcs of a flow's path from its source host to its destination host, written to `out`
  // (max_path() entries are enough); returns how many. 0 when both ends are the same host.
  // Each switch's choice is select(hash(key, switch), n), computed faster: the key's bytes are
  // serialized once per field set, and a CRC or XOR hash once per field set too, since another
  // seed only XORs a constant into it (the hash is affine; the constant is the difference of the
  // two seeds' hashes of as many zero bytes, kept per switch and length).
  std::size_t route(const flow& f, std::span<arc_id> out) const;
  [[nodiscard]] std::size_t max_path() const noexcept { return routes_.diameter() + 2; }
  [[nodiscard]] const topology& fabric() const noexcept { return topo_; }
  [[nodiscard]] const hash_config& config() const noexcept { return config_; }

 private:
  const topology& topo_;
  const routes& routes_;
  hash_config config_;
  std::vector<std::uint32_t> seeds_;           // per node
  std::vector<field_set> fields_;              // per node
  std::vector<const toeplitz_table*> tables_;  // per node (Toeplitz only)
  std::vector<std::unique_ptr<toeplitz_table>> owned_tables_;
  bool uniform_ = true;  // every switch computes the same hash: compute it once per flow
  static constexpr std::size_t max_key = 40;
  std::vector<std::array<std::uint32_t, max_key + 1>> offset_;  // per node and key length: CRC/XOR seed offsets
  std::vector<node_id> attach_;                                 // per node: a host's switch
  std::vector<arc_id> up_;                                      // per node: a host's uplink
  group_hashing grouping_ = group_hashing::modulo;
  bool plain_ = true;                // select(h, n) decides (no weights, the hash's own grouping)
  std::vector<std::int32_t> group_;  // destination * nodes + switch -> resilient table, or -1
  std::vector<resilient_table> tables_res_;
  void build_resilient(const ecmp_model* before, std::span<const flow> flows_before = {}, bool know_flows = false);
  // The hash with seed 0 (CRC, XOR): what every switch's offset is relative to.
  [[nodiscard]] std::uint32_t reference_hash(byte_view key) const noexcept;
};

// A Toeplitz key drawn from a seed (seed 0: Microsoft's key).
toeplitz_key key_from_seed(std::uint32_t seed);

}  // namespace netlib::dc
