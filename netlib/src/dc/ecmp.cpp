// Theory of operation: the constructor settles, per switch, the seed, the fields and (Toeplitz)
// the key table, so route() only hashes and indexes. When every switch computes the same value
// (one seed, one field set), the hash is computed once per flow and reused at every hop, as the
// hardware's result would be.
#include "netlib/dc/ecmp.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

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
  if (name == "crc16")
    c.algorithm = hash_algorithm::crc16;
  else if (name == "crc32")
    c.algorithm = hash_algorithm::crc32;
  else if (name == "xor")
    c.algorithm = hash_algorithm::xor16;
  else if (name == "toeplitz")
    c.algorithm = hash_algorithm::toeplitz;
  else if (name == "linux")
    c.algorithm = hash_algorithm::linux_hash;
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
    case hash_algorithm::crc16:
      return "crc16";
    case hash_algorithm::crc32:
      return "crc32";
    case hash_algorithm::xor16:
      return "xor";
    case hash_algorithm::toeplitz:
      return "toeplitz";
    case hash_algorithm::linux_hash:
      return "linux";
  }
  return "?";
}

std::string fields_name(field_set f) {
  return fmt::format("{}-tuple", static_cast<int>(f));
}

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

group_hashing grouping_of(const hash_config& c) noexcept {
  if (c.grouping) return *c.grouping;
  return c.algorithm == hash_algorithm::linux_hash ? group_hashing::threshold : group_hashing::modulo;
}

unsigned hash_bits(hash_algorithm a) noexcept {
  switch (a) {
    case hash_algorithm::linux_hash:
      return 31;
    case hash_algorithm::crc16:
    case hash_algorithm::xor16:
      return 16;
    case hash_algorithm::crc32:
    case hash_algorithm::toeplitz:
      return 32;
  }
  return 32;
}

std::vector<std::uint32_t> capacity_weights(const topology& t, std::span<const arc_id> hops) {
  std::vector<std::uint64_t> mbps;
  for (arc_id a : hops)
    mbps.push_back(std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::llround(t.capacity(a) / 1e6))));
  std::uint64_t g = 0;
  for (auto m : mbps) g = std::gcd(g, m);
  std::uint64_t top = 0;
  for (auto& m : mbps) {
    m /= g;
    top = std::max(top, m);
  }
  std::vector<std::uint32_t> out;
  for (auto m : mbps) {
    const auto w =
        top > 256 ? std::llround(256.0 * static_cast<double>(m) / static_cast<double>(top)) : static_cast<long long>(m);
    out.push_back(static_cast<std::uint32_t>(std::max<long long>(1, w)));
  }
  return out;
}

ecmp_model::ecmp_model(const topology& t, const routes& r, hash_config config, const ecmp_model& before)
    : ecmp_model(t, r, std::move(config)) {
  if (grouping_ == group_hashing::resilient) build_resilient(&before);
}

ecmp_model::ecmp_model(const topology& t, const routes& r, hash_config config, const ecmp_model& before,
                       std::span<const flow> flows_before)
    : ecmp_model(t, r, std::move(config)) {
  if (grouping_ == group_hashing::resilient) build_resilient(&before, flows_before, true);
}

void ecmp_model::build_resilient(const ecmp_model* before, std::span<const flow> flows_before, bool know_flows) {
  const std::size_t n = routes_.node_count();
  // The buckets the flows before the change used, per (destination, switch) of `before`.
  std::vector<std::vector<bool>> used;
  if (before && know_flows && !before->group_.empty()) {
    used.assign(before->tables_res_.size(), {});
    std::vector<arc_id> path(before->max_path());
    for (const auto& f : flows_before) {
      const std::size_t len = before->route(f, path);
      const node_id to = topo_.attachment(f.dst);
      for (std::size_t k = 0; k < len; ++k) {
        const node_id v = topo_.arc_from(path[k]);
        if (topo_.is_host(v) || v == to) continue;
        const auto i = before->group_[before->routes_.destination_index(to) * n + v];
        if (i < 0) continue;
        const auto& table = before->tables_res_[static_cast<std::size_t>(i)];
        auto& marks = used[static_cast<std::size_t>(i)];
        if (marks.empty()) marks.assign(table.buckets().size(), false);
        marks[table.bucket_of(before->hash(f.key, v))] = true;
      }
    }
  }
  group_.assign(routes_.destination_count() * n, -1);
  tables_res_.clear();
  for (node_id d : topo_.edge_switches()) {
    if (!routes_.has_destination(d)) continue;
    for (node_id v = 0; v < n; ++v) {
      if (topo_.is_host(v)) continue;
      const auto hops = routes_.next_hops(v, d);
      if (hops.size() < 2) continue;
      const std::vector<std::uint32_t> members(hops.begin(), hops.end());
      std::vector<std::uint32_t> weights;
      if (config_.weighted) weights = capacity_weights(topo_, hops);
      const resilient_table* old = before ? before->resilient_group(v, d) : nullptr;
      group_[routes_.destination_index(d) * n + v] = static_cast<std::int32_t>(tables_res_.size());
      if (old) {
        tables_res_.push_back(*old);
        std::vector<bool> idle_list;
        if (know_flows) {
          const auto oi = static_cast<std::size_t>(before->group_[before->routes_.destination_index(d) * n + v]);
          const auto& marks = used[oi];
          idle_list.assign(old->buckets().size(), true);
          for (std::size_t b = 0; b < marks.size(); ++b) idle_list[b] = !marks[b];
        }
        std::unique_ptr<bool[]> idle(new bool[idle_list.size()]);
        for (std::size_t b = 0; b < idle_list.size(); ++b) idle[b] = idle_list[b];
        tables_res_.back().replace(members, weights, std::span<const bool>(idle.get(), idle_list.size()));
      } else {
        tables_res_.emplace_back(config_.buckets, members, weights);
      }
    }
  }
}

const resilient_table* ecmp_model::resilient_group(node_id sw, node_id to) const noexcept {
  if (group_.empty() || !routes_.has_destination(to)) return nullptr;
  const auto i = group_[routes_.destination_index(to) * routes_.node_count() + sw];
  return i < 0 ? nullptr : &tables_res_[static_cast<std::size_t>(i)];
}

std::size_t ecmp_model::pick(node_id sw, node_id to, std::span<const arc_id> hops, std::uint32_t h) const {
  if (hops.size() <= 1) return 0;
  if (plain_) return select(h, hops.size());
  if (grouping_ == group_hashing::resilient) {
    const auto* table = resilient_group(sw, to);
    if (!table)
      throw topology_error(
          fmt::format("{} has no resilient group toward {}", topo_.nodes()[sw].name, topo_.nodes()[to].name));
    const arc_id a = table->select(h);
    const auto it = std::find(hops.begin(), hops.end(), a);
    return static_cast<std::size_t>(it - hops.begin());
  }
  std::vector<std::uint32_t> weights =
      config_.weighted ? capacity_weights(topo_, hops) : std::vector<std::uint32_t>(hops.size(), 1);
  if (grouping_ == group_hashing::threshold) return threshold_select(h, hash_bits(config_.algorithm), weights);
  return modulo_select(h, weights);
}

ecmp_model::ecmp_model(const topology& t, const routes& r, hash_config config)
    : topo_(t), routes_(r), config_(std::move(config)) {
  grouping_ = grouping_of(config_);
  plain_ = !config_.weighted && !config_.grouping;
  if (config_.grouping &&
      *config_.grouping ==
          (config_.algorithm == hash_algorithm::linux_hash ? group_hashing::threshold : group_hashing::modulo)) {
    plain_ = !config_.weighted;
  }
  if (grouping_ == group_hashing::resilient) {
    if (config_.buckets == 0 || config_.buckets > resilient_table::max_buckets) {
      throw std::invalid_argument("a resilient group has 1 to 65535 buckets");
    }
    build_resilient(nullptr);
  }
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
          case hash_algorithm::crc16:
            with_seed = crc16_ccitt(z, static_cast<std::uint16_t>(0xFFFF ^ (seeds_[v] & 0xFFFF)));
            break;
          case hash_algorithm::crc32:
            with_seed = crc32(z, 0xFFFFFFFFu ^ seeds_[v]);
            break;
          default:
            with_seed = static_cast<std::uint16_t>(xor_fold16(z) ^ (seeds_[v] & 0xFFFF));
            break;
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
      if (!owned_tables_.empty() && (uniform_ || config_.seeds == seed_mode::same))
        shared = owned_tables_.front().get();
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
    case hash_algorithm::crc16:
      return crc16_ccitt(key, 0xFFFF);
    case hash_algorithm::crc32:
      return crc32(key, 0xFFFFFFFFu);
    case hash_algorithm::xor16:
      return xor_fold16(key);
    default:
      return 0;
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
    case hash_algorithm::crc16:
      return crc16_ccitt(data, static_cast<std::uint16_t>(0xFFFF ^ (seed & 0xFFFF)));
    case hash_algorithm::crc32:
      return crc32(data, 0xFFFFFFFFu ^ seed);
    case hash_algorithm::xor16:
      return static_cast<std::uint16_t>(xor_fold16(data) ^ (seed & 0xFFFF));
    case hash_algorithm::toeplitz:
      return (*tables_[sw])(data);
    case hash_algorithm::linux_hash:
      break;
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
    if (hops.empty())
      throw topology_error(fmt::format("no route from {} to {}", topo_.nodes()[v].name, topo_.nodes()[dst_sw].name));
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
      next = hops[pick(v, dst_sw, hops, h)];
    }
    out[n++] = next;
    v = topo_.arc_to(next);
  }
  out[n++] = up_[f.dst] ^ 1u;
  return n;
}

}  // namespace netlib::dc
