#pragma once
// Flow completion times in lab-dc run: what each TCP flow took on the rate-limited links beside
// what max-min fair sharing predicts for the same flows, paths and frame bytes on the same scaled
// capacities (netlib::dc's completion_times), as text and JSON.
#include <nlohmann/json.hpp>

#include <span>
#include <string>
#include <vector>

#include "netlib/dc/ecmp.hpp"
#include "netlib/dc/fair_share.hpp"
#include "netlib/dc/topology.hpp"

namespace netlab::lab_dc {

struct fct_comparison {
  std::vector<double> model_s;         // per flow
  std::vector<double> measured_s;      // per flow; NaN when it did not finish
  std::vector<std::uint32_t> sharing;  // per flow: the most flows on one arc of its path (itself included)
  std::size_t finished = 0;
  double median_ratio = 0;  // of measured / model over finished flows
  double min_ratio = 0, max_ratio = 0;
  double model_last_s = 0, measured_last_s = 0;  // the last flow's completion
  double tolerance = 0;                          // allowed |measured_last / model_last - 1|
  bool within = false;
};

// model: the fair-share completion times of `flows` (bytes: `wire_bytes`, all starting at 0)
// over `paths` on the fabric's capacities × scale; measured: `finish_s`.
fct_comparison compare_fct(const netlib::dc::topology& t, double scale, const netlib::dc::path_list& paths,
                           std::span<const double> wire_bytes, std::span<const double> finish_s, double tolerance);

// The comparison: up to `rows` flows (the slowest by the model first), then the summary lines.
std::string fct_text(const netlib::dc::topology& t, std::span<const netlib::dc::flow> flows, const fct_comparison& c,
                     std::size_t rows, const std::string& indent);
nlohmann::json fct_json(const fct_comparison& c);

}  // namespace netlab::lab_dc
