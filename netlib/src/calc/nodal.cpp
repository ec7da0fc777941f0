// Theory of operation: one hop's four delays (textbook §1.4.1) computed from plain numbers, each
// step written into the explanation with the numbers substituted. No state.
#include "netlib/calc/nodal.hpp"

#include <fmt/format.h>

#include "netlib/calc/input_error.hpp"
#include "netlib/core/units.hpp"

namespace netlib::calc {

nodal_result nodal_delay(const nodal_input& in) {
  require_positive(in.length_bits, "the packet length L");
  require_positive(in.rate_bps, "the link rate R");
  require_non_negative(in.distance_m, "the distance d");
  require_positive(in.speed_mps, "the propagation speed s");
  require_non_negative(in.processing_s, "the processing delay");
  require_non_negative(in.queueing_s, "the queueing delay");

  nodal_result r;
  r.transmission_s = in.length_bits / in.rate_bps;
  r.propagation_s = in.distance_m / in.speed_mps;
  r.processing_s = in.processing_s;
  r.queueing_s = in.queueing_s;
  r.total_s = r.processing_s + r.queueing_s + r.transmission_s + r.propagation_s;
  r.bandwidth_delay_bits = in.rate_bps * r.propagation_s;
  r.bit_width_m = in.speed_mps / in.rate_bps;
  r.first_bit_arrived = r.propagation_s <= r.transmission_s;
  r.first_bit_position_m = r.first_bit_arrived ? in.distance_m : in.speed_mps * r.transmission_s;

  r.explanation = fmt::format(
      "d_trans = L/R = {} b / {} bps = {}\n"
      "d_prop = d/s = {} m / {} m/s = {}\n"
      "d_nodal = d_proc + d_queue + d_trans + d_prop = {} + {} + {} + {} = {}\n"
      "bandwidth-delay product = R·d_prop = {} bps × {} s = {} bits\n"
      "width of a bit = s/R = {} m/s / {} bps = {} m\n"
      "at t = L/R = {} s the first bit is {} m from the sender{}",
      num(in.length_bits), num(in.rate_bps), num_s(r.transmission_s), num(in.distance_m), num(in.speed_mps),
      num_s(r.propagation_s), num(r.processing_s), num(r.queueing_s), num(r.transmission_s), num(r.propagation_s),
      num_s(r.total_s), num(in.rate_bps), num(r.propagation_s), num(r.bandwidth_delay_bits), num(in.speed_mps),
      num(in.rate_bps), num(r.bit_width_m), num(r.transmission_s), num(r.first_bit_position_m),
      r.first_bit_arrived ? " (d_prop <= d_trans: it has already reached the receiver)"
                          : fmt::format(" (s·L/R = {} × {})", num(in.speed_mps), num(r.transmission_s)));
  return r;
}

}  // namespace netlib::calc
