#pragma once
// A minimal SVG chart: stacked panels of x/y series (lines or points with error bars), axes with
// ticks, and a legend; no dependency beyond fmt. lab-delay's simulation sweep and lab-dc's
// collective progress use it.
#include <string>
#include <vector>

namespace netlab::labs {

struct plot_series {
  std::string name;
  std::string color;
  bool line = false;  // a line through the points, else markers
  std::vector<double> x, y;
  std::vector<double> error;  // ± half-widths, empty for none
};

struct plot_panel {
  std::string title;
  std::string x_label, y_label;
  std::vector<plot_series> series;
  double y_max = 0;                // 0: fit to the data
  std::vector<std::string> notes;  // shown under the legend (e.g. "no loss formula: M/D/1")
  double x_max = 0;                // 0: fit to the data (panels that share it compare by eye)
};

// The SVG document for the panels, one above the other.
std::string render_svg(const std::string& title, const std::vector<plot_panel>& panels);

}  // namespace netlab::labs
