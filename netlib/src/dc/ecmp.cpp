// Theory of operation: the constructor settles, per switch, the seed, the fields and (Toeplitz)
// the key table, so route() only hashes and indexes. When every switch computes the same value
// (one seed, one field set), the hash is computed once per flow and reused at every hop, as the
// hardware's result would be.
#include "netlib/dc/ecmp.hpp"

#include <fmt/format.h>

namespace netlib::dc {
namespace {

std::uint64_t splitmix64(std::uint64_t& state) noexcept {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

}  // namespace

std::optional<hash_config> parse_hash(std::string_view name) {
  hash_config c;
  if (name == "crc16") c.algorithm = hash_algorithm::crc16;
  else if (name == "crc32") c.algorithm = hash_algorithm::crc32;
  else if (name == "xor") c.algorithm = hash_algorithm::xor16;
  else if (name == "toeplitz") c.algorithm = hash_algorithm::toeplitz;
  else if (name == "linux") c.algorithm = hash_algorithm::linux_hash;
  else if (name == "l3") {
    c.algorithm = hash_algorithm::linux_hash;
    c.fields = field_set::two;
  } else if (name == "l4") {
    c.algorithm = hash_algorithm::linux_hash;
    c.fields = field_set::five;
  } else {
    return std::nullopt;
  }
  return c;
}

std::string hash_name(hash_algorithm a) {
  switch (a) {
    case hash_algorithm::crc16: return "crc16";
    case hash_algorithm::crc32: return "crc32";
    case hash_algorithm::xor16: return "xor";
    case hash_algorithm::toeplitz: return "toeplitz";
    case hash_algorithm::linux_hash: return "linux";
  }
  return "?";
}

std::string fields_name(field_set f) { return fmt::format("{}-tuple", static_cast<int>(f)); }

std::optional<field_set> parse_fields(std::string_view text) {
  if (text.ends_with("-tuple")) text.remove_suffix(6);
  if (text == "2") return field_set::two;
  if (text == "3") return field_set::three;
  if (text == "4") return field_set::four;
  if (text == "5") return field_set::five;
  return std::nullopt;
}

std::uint32_t per_switch_seed(std::uint32_t base, node_id sw) noexcept {
  std::uint64_t state = (std::uint64_t{base} << 32) | (std::uint64_t{sw} + 1);
  const std::uint64_t z = splitmix64(state);
  const auto s = static_cast<std::uint32_t>(z ^ (z >> 32));
  return s == 0 ? 1 : s;
}

toeplitz_key key_from_seed(std::uint32_t seed) {
  if (seed == 0) return microsoft_rss_key();
  toeplitz_key k{};
  std::uint64_t state = seed;
  for (std::size_t i = 0; i < k.size(); i += 8) {
    const std::uint64_t z = splitmix64(state);
    for (std::size_t j = 0; j < 8 && i + j < k.size(); ++j) k[i + j] = static_cast<std::uint8_t>(z >> (8 * j));
  }
  return k;
}

ecmp_model::ecmp_model(const topology& t, const routes& r, hash_config config)
    : topo_(t), routes_(r), config_(std::move(config)) {
  const std::size_t n = t.nodes().size();
  seeds_.assign(n, config_.seed);
  fields_.assign(n, config_.fields);
  tables_.assign(n, nullptr);
  for (node_id v = 0; v < n; ++v) {
    if (t.is_host(v)) continue;
    if (config_.seeds == seed_mode::per_switch) seeds_[v] = per_switch_seed(config_.seed, v);
    const auto tier = static_cast<std::size_t>(t.nodes()[v].tier);
    if (tier < config_.tier_fields.size()) fields_[v] = config_.tier_fields[tier];
  }
  for (node_id v = 0; v < n; ++v) {
    if (t.is_host(v)) continue;
    if (seeds_[v] != config_.seed || fields_[v] != config_.fields) uniform_ = false;
  }
  attach_.assign(n, 0);
  up_.assign(n, 0);
  for (node_id h : t.hosts()) {
    attach_[h] = t.attachment(h);
    up_[h] = t.host_uplink(h);
  }
  if (config_.algorithm == hash_algorithm::crc16 || config_.algorithm == hash_algorithm::crc32 ||
      config_.algorithm == hash_algorithm::xor16) {
    // Affine hashes: H_seed(m) = H_0(m) ^ (H_seed(0^len) ^ H_0(0^len)).
    offset_.assign(n, {});
    const std::array<std::byte, max_key> zeros{};
    for (node_id v = 0; v < n; ++v) {
      if (t.is_host(v)) continue;
      for (std::size_t len = 0; len <= max_key; ++len) {
        const byte_view z(zeros.data(), len);
        std::uint32_t with_seed = 0;
        switch (config_.algorithm) {
          case hash_algorithm::crc16: with_seed = crc16_ccitt(z, static_cast<std::uint16_t>(0xFFFF ^ (seeds_[v] & 0xFFFF))); break;
          case hash_algorithm::crc32: with_seed = crc32(z, 0xFFFFFFFFu ^ seeds_[v]); break;
          default: with_seed = static_cast<std::uint16_t>(xor_fold16(z) ^ (seeds_[v] & 0xFFFF)); break;
        }
        offset_[v][len] = with_seed ^ reference_hash(z);
      }
    }
  }
  if (config_.algorithm == hash_algorithm::toeplitz) {
    for (node_id v = 0; v < n; ++v) {
      if (t.is_host(v)) continue;
      // Switches that share a seed share a table.
      const toeplitz_table* shared = nullptr;
      if (!owned_tables_.empty() && (uniform_ || config_.seeds == seed_mode::same)) shared = owned_tables_.front().get();
      if (!shared) {
        owned_tables_.push_back(std::make_unique<toeplitz_table>(key_from_seed(seeds_[v])));
        shared = owned_tables_.back().get();
      }
      tables_[v] = shared;
    }
  }
}

ecmp_model::~ecmp_model() = default;

std::uint32_t ecmp_model::reference_hash(byte_view key) const noexcept {
  switch (config_.algorithm) {
    case hash_algorithm::crc16: return crc16_ccitt(key, 0xFFFF);
    case hash_algorithm::crc32: return crc32(key, 0xFFFFFFFFu);
    case hash_algorithm::xor16: return xor_fold16(key);
    default: return 0;
  }
}

std::uint32_t ecmp_model::hash(const flow_key& key, node_id sw) const {
  const field_set fields = fields_[sw];
  const std::uint32_t seed = seeds_[sw];
  if (config_.algorithm == hash_algorithm::linux_hash) return linux_multipath_hash(key, fields, seed);
  std::array<std::byte, 40> buf;
  const std::size_t len = serialize_key(key, fields, buf);
  const byte_view data(buf.data(), len);
  switch (config_.algorithm) {
    case hash_algorithm::crc16: return crc16_ccitt(data, static_cast<std::uint16_t>(0xFFFF ^ (seed & 0xFFFF)));
    case hash_algorithm::crc32: return crc32(data, 0xFFFFFFFFu ^ seed);
    case hash_algorithm::xor16: return static_cast<std::uint16_t>(xor_fold16(data) ^ (seed & 0xFFFF));
    case hash_algorithm::toeplitz: return (*tables_[sw])(data);
    case hash_algorithm::linux_hash: break;
  }
  return 0;
}

std::size_t ecmp_model::select(std::uint32_t h, std::size_t n) const noexcept {
  if (n <= 1) return 0;
  if (config_.algorithm == hash_algorithm::linux_hash) return linux_select(h, n);
  return h % n;
}

std::size_t ecmp_model::route(const flow& f, std::span<arc_id> out) const {
  if (f.src == f.dst) return 0;
  const node_id dst_sw = attach_[f.dst];
  std::size_t n = 0;
  out[n++] = up_[f.src];
  node_id v = attach_[f.src];
  // Per field set (at most two in a flow's path): the serialized key and its seed-0 hash.
  struct cached {
    field_set fields{};
    bool valid = false;
    std::size_t len = 0;
    std::uint32_t base = 0;
    std::array<std::byte, 40> bytes;
  };
  std::array<cached, 2> cache;
  bool have_uniform = false;
  std::uint32_t uniform_hash = 0;
  const bool affine = !offset_.empty();
  while (v != dst_sw) {
    const auto hops = routes_.next_hops(v, dst_sw);
    if (hops.empty()) throw topology_error(fmt::format("no route from {} to {}", topo_.nodes()[v].name, topo_.nodes()[dst_sw].name));
    arc_id next = hops[0];
    if (hops.size() > 1) {
      std::uint32_t h = 0;
      if (uniform_ && have_uniform) {
        h = uniform_hash;
      } else if (config_.algorithm == hash_algorithm::linux_hash) {
        h = linux_multipath_hash(f.key, fields_[v], seeds_[v]);
      } else {
        cached* c = nullptr;
        for (auto& slot : cache) {
          if (slot.valid && slot.fields == fields_[v]) c = &slot;
        }
        if (!c) {
          c = cache[0].valid ? &cache[1] : &cache[0];
          c->fields = fields_[v];
          c->len = serialize_key(f.key, c->fields, c->bytes);
          if (affine) c->base = reference_hash(byte_view(c->bytes.data(), c->len));
          c->valid = true;
        }
        h = affine ? c->base ^ offset_[v][c->len] : (*tables_[v])(byte_view(c->bytes.data(), c->len));
      }
      uniform_hash = h;
      have_uniform = true;
      next = hops[select(h, hops.size())];
    }
    out[n++] = next;
    v = topo_.arc_to(next);
  }
  out[n++] = up_[f.dst] ^ 1u;
  return n;
}

}  // namespace netlib::dc
