#pragma once
// A message's header (or trailer) section: field lines in order, names compared without case
// (RFC 9110 §5.1). Repeated fields are kept as separate lines; `combined` joins them with ", "
// (RFC 9110 §5.3).
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "netlib/core/ascii.hpp"

namespace netlib::http {

struct field {
  field() = default;
  // Constructed in the list's own storage (fields::add): no string is built first and moved.
  field(std::string_view n, std::string_view v) : name(n), value(v) {}
  field(std::string_view n, std::string&& v) : name(n), value(std::move(v)) {}
  std::string name;
  std::string value;
};

// ASCII case-insensitive equality (field names, tokens) and lower case (netlib/core/ascii.hpp).
using ascii::iequals;
using ascii::to_lower;

class fields {
 public:
  void add(std::string_view name, std::string_view value);
  void add(std::string_view name, std::string&& value);  // a built value is moved in, not copied
  void add(std::string_view name, const char* value) { add(name, std::string_view(value)); }
  // Replaces every line named `name` by one line (appended when absent).
  void set(std::string_view name, std::string_view value);
  void set(std::string_view name, std::string&& value);
  void set(std::string_view name, const char* value) { set(name, std::string_view(value)); }
  std::size_t remove(std::string_view name);
  [[nodiscard]] std::optional<std::string_view> get(std::string_view name) const;  // first line
  [[nodiscard]] std::size_t count(std::string_view name) const;
  [[nodiscard]] bool contains(std::string_view name) const { return count(name) > 0; }
  [[nodiscard]] std::optional<std::string> combined(std::string_view name) const;
  // True when the comma-separated list in `name` holds `token` (case-insensitive), e.g.
  // has_token("Connection", "close").
  [[nodiscard]] bool has_token(std::string_view name, std::string_view token) const;
  [[nodiscard]] const std::vector<field>& lines() const noexcept { return lines_; }
  [[nodiscard]] std::size_t size() const noexcept { return lines_.size(); }
  [[nodiscard]] bool empty() const noexcept { return lines_.empty(); }
  void clear() noexcept { lines_.clear(); }
  void reserve(std::size_t lines) { lines_.reserve(lines); }

 private:
  std::vector<field> lines_;
};

// Splits a comma-separated list value into trimmed, non-empty elements (RFC 9110 §5.6.1).
std::vector<std::string_view> split_list(std::string_view value);
// Without optional white space (spaces and tabs, RFC 9110 §5.6.3) at either end.
constexpr std::string_view trim_ows(std::string_view s) noexcept { return ascii::trim(s, " \t"); }

}  // namespace netlib::http
