// Theory of operation: the framer looks for the first LF in the unconsumed input.
//   - Found at position p: the line is input[0, p) minus a trailing CR. In strict mode a missing CR
//     is a bare LF and a CR elsewhere in the line is a bare CR (SMTP smuggling defence).
//   - Not found: need_more, unless the input already exceeds max_length, in which case the line is
//     too long. The framer then enters `discarding` and swallows bytes up to the next LF, reporting
//     too_long once for the line so the core can answer (500 "line too long") and go on; the
//     bytes it swallows afterwards ride along in `consumed` of the next result.
// Invariant: a result never consumes bytes past the terminator of the line it describes.
#include "netlib/core/line_framer.hpp"

#include <algorithm>

namespace netlib {

line_result line_framer::next(byte_view input) noexcept {
  const std::string_view s = as_chars(input);
  const std::size_t lf = s.find('\n');
  if (discarding_) {
    if (lf == std::string_view::npos) return {line_status::need_more, {}, s.size()};
    // The over-long line ends here; it was reported already, so go on with what follows.
    discarding_ = false;
    line_result r = next(input.subspan(lf + 1));
    r.consumed += lf + 1;
    return r;
  }
  if (lf == std::string_view::npos) {
    if (s.size() >= options_.max_length) {
      discarding_ = true;
      return {line_status::too_long, {}, s.size()};
    }
    return {line_status::need_more, {}, 0};
  }
  if (lf + 1 > options_.max_length) return {line_status::too_long, {}, lf + 1};
  const bool has_cr = lf > 0 && s[lf - 1] == '\r';
  std::string_view text = s.substr(0, has_cr ? lf - 1 : lf);
  if (options_.strict) {
    if (!has_cr) return {line_status::bare_lf, text, lf + 1};
    if (text.find('\r') != std::string_view::npos) return {line_status::bare_cr, text, lf + 1};
  }
  return {line_status::line, text, lf + 1};
}

}  // namespace netlib
