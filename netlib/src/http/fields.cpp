// Header field lists (RFC 9110 §5). The owned list keeps every name and value in one string and
// the lines as offsets into it. add() appends; remove() drops lines and leaves their text, which
// is squeezed out once it is most of the string (compact), so a list edited many times stays
// bounded by what it holds.
#include "netlib/http/fields.hpp"

#include <algorithm>
#include <functional>
#include <utility>

namespace netlib::http {

std::vector<std::string_view> split_list(std::string_view value) {
  std::vector<std::string_view> out;
  for (list_items items(value); auto item = items.next();) out.push_back(*item);
  return out;
}

fields::fields(const field_views& other) {
  reserve(other.size());
  for (const field_view f : other.lines()) add(f.name, f.value);
}

fields::fields(const fields& other) {
  copy_from(other);
}

fields& fields::operator=(const fields& other) {
  if (this != &other) {
    clear();
    copy_from(other);
  }
  return *this;
}

fields::fields(fields&& other) noexcept
    : lines_(std::move(other.lines_)),
      text_(std::move(other.text_)),
      text_size_(std::exchange(other.text_size_, 0)),
      text_capacity_(std::exchange(other.text_capacity_, 0)),
      live_(std::exchange(other.live_, 0)) {
  other.lines_.clear();
}

fields& fields::operator=(fields&& other) noexcept {
  if (this != &other) {
    lines_ = std::move(other.lines_);
    text_ = std::move(other.text_);
    text_size_ = std::exchange(other.text_size_, 0);
    text_capacity_ = std::exchange(other.text_capacity_, 0);
    live_ = std::exchange(other.live_, 0);
    other.lines_.clear();
  }
  return *this;
}

void fields::copy_from(const fields& other) {  // in allocations of the size needed
  reserve(other.size());
  reserve_text(other.text_bytes());
  for (const field_view f : other.lines()) add(f.name, f.value);
}

namespace {
bool inside(std::string_view part, const char* text, std::size_t size) {
  const std::less<const char*> before;
  return !part.empty() && text != nullptr && !before(part.data(), text) && before(part.data(), text + size);
}
}  // namespace

void fields::add_slow(std::string_view name, std::string_view value) {
  if (inside(name, text_.get(), text_size_) || inside(value, text_.get(), text_size_)) {
    // A line of this very list: copied out first, since growing moves the text.
    const std::string copy = std::string(name) + std::string(value);
    return add_slow(std::string_view(copy).substr(0, name.size()), std::string_view(copy).substr(name.size()));
  }
  const std::size_t need = text_size_ + name.size() + value.size();
  if (need > text_capacity_) reserve_text(std::max<std::size_t>({need, 2 * text_capacity_, 256}));
  if (lines_.size() == lines_.capacity()) lines_.reserve(std::max<std::size_t>(8, 2 * lines_.size()));
  add(name, value);
}

void fields::reserve_text(std::size_t bytes) {
  if (bytes <= text_capacity_) return;
  auto grown = std::make_unique_for_overwrite<char[]>(bytes);
  if (text_size_ > 0) std::memcpy(grown.get(), text_.get(), text_size_);
  text_ = std::move(grown);
  text_capacity_ = bytes;
}

std::size_t fields::remove(std::string_view name) {
  const std::size_t removed =
      static_cast<std::size_t>(std::erase_if(lines_, [&](const line& l) { return iequals(view(l).name, name); }));
  if (removed == 0) return 0;
  live_ = 0;
  for (const line& l : lines_) live_ += l.name_size + l.value_size;
  if (text_size_ > 2 * live_ + 256) {  // compact: most of the text is removed lines'
    auto kept = std::make_unique_for_overwrite<char[]>(text_capacity_);
    std::size_t size = 0;
    for (line& l : lines_) {
      std::memcpy(kept.get() + size, text_.get() + l.name_at, l.name_size);
      l.name_at = static_cast<std::uint32_t>(size);
      size += l.name_size;
      std::memcpy(kept.get() + size, text_.get() + l.value_at, l.value_size);
      l.value_at = static_cast<std::uint32_t>(size);
      size += l.value_size;
    }
    text_ = std::move(kept);
    text_size_ = size;
  }
  return removed;
}

}  // namespace netlib::http
