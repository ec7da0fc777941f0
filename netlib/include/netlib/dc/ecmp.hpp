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
};

// "crc16", "crc32", "xor", "toeplitz", "linux", and the presets "l3", "l4" (which also set the
// fields); nullopt for anything else.
std::optional<hash_config> parse_hash(std::string_view name);
std::string hash_name(hash_algorithm a);
std::string fields_name(field_set f);  // "2-tuple" .. "5-tuple"
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
  ~ecmp_model();
  ecmp_model(const ecmp_model&) = delete;
  ecmp_model& operator=(const ecmp_model&) = delete;

  // The hash switch `sw` computes for a flow (from the definition, byte by byte), and the next
  // hop it picks among n.
  [[nodiscard]] std::uint32_t hash(const flow_key& key, node_id sw) const;
  [[nodiscard]] std::size_t select(std::uint32_t hash, std::size_t n) const noexcept;
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
  std::vector<std::uint32_t> seeds_;   // per node
  std::vector<field_set> fields_;      // per node
  std::vector<const toeplitz_table*> tables_;  // per node (Toeplitz only)
  std::vector<std::unique_ptr<toeplitz_table>> owned_tables_;
  bool uniform_ = true;                // every switch computes the same hash: compute it once per flow
  static constexpr std::size_t max_key = 40;
  std::vector<std::array<std::uint32_t, max_key + 1>> offset_;  // per node and key length: CRC/XOR seed offsets
  std::vector<node_id> attach_;        // per node: a host's switch
  std::vector<arc_id> up_;             // per node: a host's uplink
  // The hash with seed 0 (CRC, XOR): what every switch's offset is relative to.
  [[nodiscard]] std::uint32_t reference_hash(byte_view key) const noexcept;
};

// A Toeplitz key drawn from a seed (seed 0: Microsoft's key).
toeplitz_key key_from_seed(std::uint32_t seed);

}  // namespace netlib::dc
