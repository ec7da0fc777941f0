// Theory of operation: the model's times come from netlib::dc::completion_times on the scaled
// capacities; rows are sorted by the model's time, longest first, so that a shared link's flows
// (which the model says take longest) come first; the verdict is on the last completion, which
// a work-conserving link keeps whatever the order flows are served in.
#include "fct_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "netlib/core/units.hpp"

namespace netlab::lab_dc {

namespace dc = netlib::dc;
using netlib::units::format_seconds;

fct_comparison compare_fct(const dc::topology& t, double scale, const dc::path_list& paths,
                           std::span<const double> wire_bytes, std::span<const double> finish_s, double tolerance) {
  fct_comparison c;
  c.tolerance = tolerance;
  std::vector<dc::sized_flow> sized;
  for (double b : wire_bytes) sized.push_back({b, 0, 0});
  c.model_s = dc::completion_times(dc::arc_capacities(t, scale), paths, sized);
  c.measured_s.assign(finish_s.begin(), finish_s.end());
  std::vector<std::uint32_t> on(t.arc_count(), 0);
  for (std::size_t f = 0; f < paths.size(); ++f) {
    for (dc::arc_id a : paths[f]) ++on[a];
  }
  std::vector<double> ratios;
  for (std::size_t f = 0; f < paths.size(); ++f) {
    std::uint32_t most = 1;
    for (dc::arc_id a : paths[f]) most = std::max(most, on[a]);
    c.sharing.push_back(most);
    c.model_last_s = std::max(c.model_last_s, c.model_s[f]);
    if (f < c.measured_s.size() && std::isfinite(c.measured_s[f])) {
      ++c.finished;
      c.measured_last_s = std::max(c.measured_last_s, c.measured_s[f]);
      if (c.model_s[f] > 0) ratios.push_back(c.measured_s[f] / c.model_s[f]);
    }
  }
  if (!ratios.empty()) {
    std::sort(ratios.begin(), ratios.end());
    c.median_ratio = ratios[ratios.size() / 2];
    c.min_ratio = ratios.front();
    c.max_ratio = ratios.back();
  }
  c.within =
      c.finished == paths.size() && c.model_last_s > 0 && std::abs(c.measured_last_s / c.model_last_s - 1) <= tolerance;
  return c;
}

std::string fct_text(const dc::topology& t, std::span<const dc::flow> flows, const fct_comparison& c, std::size_t rows,
                     const std::string& indent) {
  std::vector<std::size_t> order(c.model_s.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return c.model_s[a] > c.model_s[b]; });
  std::string out = fmt::format("{}{:>5}  {:<16} {:>7}  {:>10} {:>10} {:>7}\n", indent, "flow", "hosts", "sharing",
                                "model FCT", "measured", "ratio");
  for (std::size_t i = 0; i < order.size() && i < rows; ++i) {
    const std::size_t f = order[i];
    const bool done = std::isfinite(c.measured_s[f]);
    out += fmt::format("{}{:>5}  {:<16} {:>7}  {:>10} {:>10} {:>7}\n", indent, f,
                       t.nodes()[flows[f].src].name + "->" + t.nodes()[flows[f].dst].name, c.sharing[f],
                       format_seconds(c.model_s[f]), done ? format_seconds(c.measured_s[f]) : "-",
                       done && c.model_s[f] > 0 ? fmt::format("{:.2f}", c.measured_s[f] / c.model_s[f]) : "-");
  }
  if (order.size() > rows)
    out += fmt::format("{}  ... ({} more; --json lists every flow)\n", indent, order.size() - rows);
  out += fmt::format(
      "{}sharing: the most flows on one link direction of the flow's path. {} of {} flows finished; measured/model "
      "per flow: median {:.2f}, from {:.2f} to {:.2f}\n",
      indent, c.finished, c.model_s.size(), c.median_ratio, c.min_ratio, c.max_ratio);
  out += fmt::format("{}last completion: model {}, measured {} (error {:+.1f}%, tolerance ±{:g}%: {})\n", indent,
                     format_seconds(c.model_last_s), format_seconds(c.measured_last_s),
                     c.model_last_s > 0 ? 100 * (c.measured_last_s / c.model_last_s - 1) : 0.0, 100 * c.tolerance,
                     c.within ? "within" : "NOT within");
  return out;
}

nlohmann::json fct_json(const fct_comparison& c) {
  auto flows = nlohmann::json::array();
  for (std::size_t f = 0; f < c.model_s.size(); ++f) {
    flows.push_back(
        {{"flow", f},
         {"model_s", c.model_s[f]},
         {"measured_s", std::isfinite(c.measured_s[f]) ? nlohmann::json(c.measured_s[f]) : nlohmann::json()},
         {"sharing", c.sharing[f]}});
  }
  return {{"flows", flows},
          {"finished", c.finished},
          {"median_ratio", c.median_ratio},
          {"min_ratio", c.min_ratio},
          {"max_ratio", c.max_ratio},
          {"model_last_s", c.model_last_s},
          {"measured_last_s", c.measured_last_s},
          {"tolerance", c.tolerance},
          {"within_tolerance", c.within}};
}

}  // namespace netlab::lab_dc
