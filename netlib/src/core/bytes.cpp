#include "netlib/core/bytes.hpp"

#include <stdexcept>

namespace netlib {

void input_buffer::consume(std::size_t n) {
  if (n > size()) throw std::logic_error("input_buffer::consume past the end");
  head_ += n;
  // Compact once the consumed prefix dominates, so memory stays bounded by the unconsumed part.
  if (head_ == bytes_.size()) {
    clear();
  } else if (head_ >= 4096 && head_ * 2 >= bytes_.size()) {
    bytes_.erase(bytes_.begin(), bytes_.begin() + static_cast<std::ptrdiff_t>(head_));
    head_ = 0;
  }
}

}  // namespace netlib
