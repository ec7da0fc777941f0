#pragma once
// One hop's delay (textbook §1.4.1): d_nodal = d_proc + d_queue + d_trans + d_prop with
// d_trans = L/R and d_prop = d/s; plus the bandwidth-delay product R·d_prop, the width of a bit
// on the wire s/R, and where the packet's first bit is at t = L/R (textbook problem P6).
#include <string>

namespace netlib::calc {

struct nodal_input {
  double length_bits = 0;   // L
  double rate_bps = 0;      // R
  double distance_m = 0;    // d
  double speed_mps = 2e8;   // s
  double processing_s = 0;  // d_proc
  double queueing_s = 0;    // d_queue
};

struct nodal_result {
  double transmission_s = 0;
  double propagation_s = 0;
  double processing_s = 0;
  double queueing_s = 0;
  double total_s = 0;
  double bandwidth_delay_bits = 0;  // R · d_prop: bits "in flight" on the link
  double bit_width_m = 0;           // s / R
  double first_bit_position_m = 0;  // distance of the first bit from the sender at t = L/R
  bool first_bit_arrived = false;   // d_prop <= d_trans: the first bit reached the far end
  std::string explanation;          // each formula with the numbers substituted
};

nodal_result nodal_delay(const nodal_input& in);

}  // namespace netlib::calc
