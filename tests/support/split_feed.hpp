#pragma once
// Split-feed: run a parser case with its input cut at every offset (docs/architecture.md, "Tests").
//
//   for_each_split(input, [&](std::span<const std::string_view> pieces) { ... feed pieces ... });
//
// calls the body once whole, then once for every split point k into {input[0,k), input[k,n)},
// then for a byte-at-a-time feed. The body feeds the pieces to a fresh core in order and checks
// the outputs are the same as for the whole input.
#include <functional>
#include <string_view>
#include <vector>

namespace netlab::test {

using pieces = std::vector<std::string_view>;

inline void for_each_split(std::string_view input, const std::function<void(const pieces&)>& body) {
  body(pieces{input});
  for (std::size_t k = 1; k < input.size(); ++k) body(pieces{input.substr(0, k), input.substr(k)});
  pieces bytes;
  for (std::size_t i = 0; i < input.size(); ++i) bytes.push_back(input.substr(i, 1));
  if (input.size() > 1) body(bytes);
}

// Every proper prefix of input (the truncations): a parser must answer need_more for each.
inline void for_each_prefix(std::string_view input, const std::function<void(std::string_view)>& body) {
  for (std::size_t k = 0; k < input.size(); ++k) body(input.substr(0, k));
}

}  // namespace netlab::test
