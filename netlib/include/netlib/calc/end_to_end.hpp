#pragma once
// End-to-end delay over N store-and-forward links (textbook §1.3.1, §1.4.3, problems P10, P31):
// each link has its own rate, length, speed and the processing delay of the node feeding it.
// P packets leave back to back; a node forwards a packet only once it has all of it.
//   equal links, no propagation:  d = (N + P - 1) · L/R
//   general case (recurrence):    start(k,i) = max(arrive(k,i-1) + proc_i, finish(k-1,i))
//                                 finish(k,i) = start(k,i) + L/R_i, arrive(k,i) = finish(k,i) + d_i/s_i
// which equals Σ_i (proc_i + L/R_i + d_i/s_i) + (P-1) · max_i L/R_i.
#include <string>
#include <vector>

namespace netlib::calc {

struct link_spec {
  double rate_bps = 0;
  double distance_m = 0;
  double speed_mps = 2e8;
  double processing_s = 0;  // at the node that transmits onto this link
};

struct end_to_end_result {
  double total_s = 0;                // until the last bit of the last packet arrives
  double first_packet_s = 0;         // until the last bit of the first packet arrives
  std::vector<double> per_packet_s;  // arrival of each packet's last bit (at most 1000 kept)
  std::string explanation;
};

// P packets of `length_bits` each over `links`.
end_to_end_result end_to_end_delay(const std::vector<link_spec>& links, double length_bits, long long packets);

// Segmentation (problem P31): a message of `message_bits` sent whole, or cut into packets carrying
// at most `payload_bits` each plus `header_bits` of header.
struct segmentation_result {
  double whole_message_s = 0;
  double segmented_s = 0;
  long long packets = 0;
  std::string explanation;
};
segmentation_result segmentation(const std::vector<link_spec>& links, double message_bits, double payload_bits,
                                 double header_bits = 0);

}  // namespace netlib::calc
