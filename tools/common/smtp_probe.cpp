// Reading SMTP replies on a tcp_probe.
#include "smtp_probe.hpp"

namespace netlab::grade {

std::optional<netlib::smtp::reply> smtp_probe::read_reply() {
  for (int round = 0; round < 10000; ++round) {
    auto r = parser_.next(buffer().data());
    buffer().consume(r.consumed);
    if (r.status == netlib::smtp::reply_status::reply) return r.value;
    if (r.status == netlib::smtp::reply_status::malformed) {
      set_error("the reply is not an SMTP reply (three digits, then a space or a hyphen)");
      return std::nullopt;
    }
    if (!read_more()) return std::nullopt;
  }
  set_error("the reply never ended");
  return std::nullopt;
}

}  // namespace netlab::grade
