// Header field list with case-insensitive names (RFC 9110 §5).
#include "netlib/http/fields.hpp"

#include <algorithm>
#include <utility>

namespace netlib::http {

std::vector<std::string_view> split_list(std::string_view value) {
  std::vector<std::string_view> out;
  while (!value.empty()) {
    const std::size_t comma = value.find(',');
    const std::string_view item = trim_ows(value.substr(0, comma));
    if (!item.empty()) out.push_back(item);
    if (comma == std::string_view::npos) break;
    value.remove_prefix(comma + 1);
  }
  return out;
}

// Built in place: a field made first and moved in costs two string moves per line (a short
// string's move copies its bytes), and a response has a dozen lines.
void fields::add(std::string_view name, std::string_view value) { lines_.emplace_back(name, value); }

void fields::add(std::string_view name, std::string&& value) { lines_.emplace_back(name, std::move(value)); }

void fields::set(std::string_view name, std::string_view value) {
  remove(name);
  add(name, value);
}

void fields::set(std::string_view name, std::string&& value) {
  remove(name);
  add(name, std::move(value));
}

std::size_t fields::remove(std::string_view name) {
  const auto before = lines_.size();
  std::erase_if(lines_, [&](const field& f) { return iequals(f.name, name); });
  return before - lines_.size();
}

std::optional<std::string_view> fields::get(std::string_view name) const {
  for (const auto& f : lines_)
    if (iequals(f.name, name)) return std::string_view(f.value);
  return std::nullopt;
}

std::size_t fields::count(std::string_view name) const {
  return static_cast<std::size_t>(
      std::count_if(lines_.begin(), lines_.end(), [&](const field& f) { return iequals(f.name, name); }));
}

std::optional<std::string> fields::combined(std::string_view name) const {
  std::optional<std::string> out;
  for (const auto& f : lines_) {
    if (!iequals(f.name, name)) continue;
    if (out) *out += ", ";
    else out.emplace();
    *out += f.value;
  }
  return out;
}

bool fields::has_token(std::string_view name, std::string_view token) const {
  for (const auto& f : lines_) {
    if (!iequals(f.name, name)) continue;
    for (auto item : split_list(f.value))
      if (iequals(item, token)) return true;
  }
  return false;
}

}  // namespace netlib::http
