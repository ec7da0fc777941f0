#pragma once
// A message's header (or trailer) section: field lines in order, names compared without case
// (RFC 9110 §5.1). Repeated fields are kept as separate lines; `combined` joins them with ", "
// (RFC 9110 §5.3).
//
// Two forms, one interface (get, count, contains, combined, has_token, add, set, remove, lines):
//   fields       owns its text: what a program builds, keeps or changes (responses, requests a
//                client sends or a proxy forwards, stored responses). Names and values are kept
//                back to back in one string, the lines as offsets into it: add() is two appends,
//                and clear() keeps the memory, so a list refilled for every response (the static
//                server's) allocates nothing once warm and builds no string per line.
//   field_views  views (std::string_view) into text someone else owns: the request parser's
//                fields, spans of the connection's read buffer (request_parser.hpp).
// lines() gives each line as a field_view {name, value} (valid until the list changes).
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "netlib/core/ascii.hpp"

namespace netlib::http {

struct field_view {
  std::string_view name;
  std::string_view value;
};

// ASCII case-insensitive equality (field names, tokens) and lower case (netlib/core/ascii.hpp).
using ascii::iequals;
using ascii::to_lower;

// Without optional white space (spaces and tabs, RFC 9110 §5.6.3) at either end.
constexpr std::string_view trim_ows(std::string_view s) noexcept {
  return ascii::trim(s, " \t");
}

// The elements of a comma-separated list value, trimmed, empty ones skipped (RFC 9110 §5.6.1),
// one at a time and without allocating:
//   for (list_items items(value); auto item = items.next();) use(*item);
class list_items {
 public:
  explicit constexpr list_items(std::string_view value) noexcept : rest_(value) {}
  constexpr std::optional<std::string_view> next() noexcept {
    while (!done_) {
      const std::size_t comma = rest_.find(',');
      const std::string_view item = trim_ows(rest_.substr(0, comma));
      if (comma == std::string_view::npos)
        done_ = true;
      else
        rest_.remove_prefix(comma + 1);
      if (!item.empty()) return item;
    }
    return std::nullopt;
  }

 private:
  std::string_view rest_;
  bool done_ = false;
};
// The same elements in a vector.
std::vector<std::string_view> split_list(std::string_view value);

// What both forms answer, from their lines().
template <class List>
class field_queries {
 public:
  [[nodiscard]] std::optional<std::string_view> get(std::string_view name) const {  // first line
    for (const field_view f : self().lines())
      if (iequals(f.name, name)) return f.value;
    return std::nullopt;
  }
  [[nodiscard]] std::size_t count(std::string_view name) const {
    std::size_t n = 0;
    for (const field_view f : self().lines()) n += iequals(f.name, name) ? 1 : 0;
    return n;
  }
  [[nodiscard]] bool contains(std::string_view name) const { return get(name).has_value(); }
  [[nodiscard]] std::optional<std::string> combined(std::string_view name) const {
    std::optional<std::string> out;
    for (const field_view f : self().lines()) {
      if (!iequals(f.name, name)) continue;
      if (out)
        *out += ", ";
      else
        out.emplace();
      *out += f.value;
    }
    return out;
  }
  // True when the comma-separated list in `name` holds `token` (case-insensitive), e.g.
  // has_token("Connection", "close").
  [[nodiscard]] bool has_token(std::string_view name, std::string_view token) const {
    for (const field_view f : self().lines()) {
      if (!iequals(f.name, name)) continue;
      for (list_items items(f.value); auto item = items.next();)
        if (iequals(*item, token)) return true;
    }
    return false;
  }

 private:
  const List& self() const noexcept { return static_cast<const List&>(*this); }
};

namespace detail {
// Copies a short run of bytes without a call (field names and values are mostly under 32 bytes,
// and a memcpy call costs more than the copy); longer ones go to memcpy.
inline void copy_bytes(char* to, const char* from, std::size_t n) noexcept {
  if (n >= 16) {
    if (n > 32) {
      std::memcpy(to, from, n);
      return;
    }
    std::memcpy(to, from, 16);  // constant sizes: moves, not calls; the two halves may overlap
    std::memcpy(to + n - 16, from + n - 16, 16);
  } else if (n >= 8) {
    std::memcpy(to, from, 8);
    std::memcpy(to + n - 8, from + n - 8, 8);
  } else if (n >= 4) {
    std::memcpy(to, from, 4);
    std::memcpy(to + n - 4, from + n - 4, 4);
  } else {
    for (std::size_t i = 0; i < n; ++i) to[i] = from[i];
  }
}
}  // namespace detail

class field_views;

class fields : public field_queries<fields> {
 public:
  fields() = default;
  fields(const fields& other);
  fields& operator=(const fields& other);
  fields(fields&& other) noexcept;
  fields& operator=(fields&& other) noexcept;
  ~fields() = default;
  // A copy of another list's lines (a parsed request kept beyond its input).
  explicit fields(const field_views& other);

  void add(std::string_view name, std::string_view value) {
    const std::size_t n = name.size(), v = value.size();
    if (text_size_ + n + v > text_capacity_ || lines_.size() == lines_.capacity()) return add_slow(name, value);
    char* at = text_.get() + text_size_;
    detail::copy_bytes(at, name.data(), n);
    detail::copy_bytes(at + n, value.data(), v);
    lines_.push_back({static_cast<std::uint32_t>(text_size_), static_cast<std::uint32_t>(n),
                      static_cast<std::uint32_t>(text_size_ + n), static_cast<std::uint32_t>(v)});
    text_size_ += n + v;
    live_ += n + v;
  }
  void add(std::string_view name, const char* value) { add(name, std::string_view(value)); }
  // Replaces every line named `name` by one line (appended when absent).
  void set(std::string_view name, std::string_view value) {
    remove(name);
    add(name, value);
  }
  void set(std::string_view name, const char* value) { set(name, std::string_view(value)); }
  // Removes every line named `name`; the order of the others is kept.
  std::size_t remove(std::string_view name);
  [[nodiscard]] std::size_t size() const noexcept { return lines_.size(); }
  [[nodiscard]] bool empty() const noexcept { return lines_.empty(); }
  // The bytes of every line's name and value (a serializer's size, without a pass over the lines).
  [[nodiscard]] std::size_t text_bytes() const noexcept { return live_; }
  // Empties the list; its memory stays for the next add().
  void clear() noexcept {
    lines_.clear();
    text_size_ = 0;
    live_ = 0;
  }
  void reserve(std::size_t lines) { lines_.reserve(lines); }
  // Room for `bytes` of names and values, exactly (when more than the list has now).
  void reserve_text(std::size_t bytes);
  // The sizes of the list's two heap allocations (0 for none): its lines' and its text's (what a
  // memory budget counts: http::response_cache).
  struct heap_sizes {
    std::size_t lines, text;
  };
  [[nodiscard]] heap_sizes heap() const noexcept { return {lines_.capacity() * sizeof(line), text_capacity_}; }

  // The lines as field_views, in order (a random-access range; valid until the list changes).
  class line_range;
  [[nodiscard]] line_range lines() const noexcept;

 private:
  struct line {
    std::uint32_t name_at, name_size, value_at, value_size;
  };
  [[nodiscard]] field_view view(const line& l) const noexcept {
    return {std::string_view(text_.get() + l.name_at, l.name_size),
            std::string_view(text_.get() + l.value_at, l.value_size)};
  }
  void add_slow(std::string_view name, std::string_view value);  // grows (or copies an aliased line) first
  void copy_from(const fields& other);

  std::vector<line> lines_;
  // Every line's name and value, back to back (removed lines' text stays until compact).
  std::unique_ptr<char[]> text_;
  std::size_t text_size_ = 0, text_capacity_ = 0;
  std::size_t live_ = 0;  // the bytes of the lines in lines_
};

class fields::line_range {
 public:
  class iterator {
   public:
    using iterator_category = std::random_access_iterator_tag;
    using value_type = field_view;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = field_view;
    iterator() = default;
    iterator(const fields* f, std::size_t i) : f_(f), i_(i) {}
    field_view operator*() const noexcept { return f_->view(f_->lines_[i_]); }
    field_view operator[](difference_type n) const noexcept { return *(*this + n); }
    iterator& operator++() noexcept { return ++i_, *this; }
    iterator operator++(int) noexcept { return {f_, i_++}; }
    iterator& operator--() noexcept { return --i_, *this; }
    iterator operator--(int) noexcept { return {f_, i_--}; }
    iterator& operator+=(difference_type n) noexcept { return i_ += static_cast<std::size_t>(n), *this; }
    iterator& operator-=(difference_type n) noexcept { return i_ -= static_cast<std::size_t>(n), *this; }
    friend iterator operator+(iterator it, difference_type n) noexcept { return it += n; }
    friend iterator operator+(difference_type n, iterator it) noexcept { return it += n; }
    friend iterator operator-(iterator it, difference_type n) noexcept { return it -= n; }
    friend difference_type operator-(iterator a, iterator b) noexcept {
      return static_cast<difference_type>(a.i_) - static_cast<difference_type>(b.i_);
    }
    friend bool operator==(iterator a, iterator b) noexcept { return a.i_ == b.i_; }
    friend auto operator<=>(iterator a, iterator b) noexcept { return a.i_ <=> b.i_; }

   private:
    const fields* f_ = nullptr;
    std::size_t i_ = 0;
  };
  explicit line_range(const fields* f) noexcept : f_(f) {}
  [[nodiscard]] iterator begin() const noexcept { return {f_, 0}; }
  [[nodiscard]] iterator end() const noexcept { return {f_, f_->lines_.size()}; }
  [[nodiscard]] std::size_t size() const noexcept { return f_->lines_.size(); }
  [[nodiscard]] bool empty() const noexcept { return f_->lines_.empty(); }
  field_view operator[](std::size_t i) const noexcept { return f_->view(f_->lines_[i]); }
  [[nodiscard]] field_view front() const noexcept { return (*this)[0]; }
  [[nodiscard]] field_view back() const noexcept { return (*this)[size() - 1]; }

 private:
  const fields* f_;
};

inline fields::line_range fields::lines() const noexcept {
  return line_range(this);
}

class field_views : public field_queries<field_views> {
 public:
  field_views() = default;
  // Views of an owned list's lines (valid while it is unchanged).
  explicit field_views(const fields& other) {
    lines_.reserve(other.size());
    for (const field_view f : other.lines()) lines_.push_back(f);
  }

  void add(std::string_view name, std::string_view value) { lines_.push_back({name, value}); }
  void set(std::string_view name, std::string_view value) {
    remove(name);
    add(name, value);
  }
  std::size_t remove(std::string_view name) {
    return static_cast<std::size_t>(std::erase_if(lines_, [&](const field_view& f) { return iequals(f.name, name); }));
  }
  [[nodiscard]] std::size_t size() const noexcept { return lines_.size(); }
  [[nodiscard]] bool empty() const noexcept { return lines_.empty(); }
  void clear() noexcept { lines_.clear(); }  // the vector keeps its memory
  void reserve(std::size_t lines) { lines_.reserve(lines); }
  [[nodiscard]] std::span<const field_view> lines() const noexcept { return lines_; }
  [[nodiscard]] std::span<field_view> lines() noexcept { return lines_; }

 private:
  std::vector<field_view> lines_;
};

// The list type of each form: fields for owned text, field_views for views.
template <class Text>
using fields_for = std::conditional_t<std::same_as<Text, std::string>, fields, field_views>;

}  // namespace netlib::http
