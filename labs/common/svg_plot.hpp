#pragma once
// A minimal SVG chart: stacked panels of x/y series (lines, markers, or both; error bars), axes
// with ticks, reference lines and a legend under a title and an optional subtitle; no dependency
// beyond fmt. lab-delay's simulation sweep, lab-dc's collective progress and lab-dc's MLU over
// time use it.
#include <functional>
#include <string>
#include <vector>

namespace netlab::labs {

enum class marker_shape { circle, square, diamond, triangle, cross };

struct plot_series {
  std::string name;
  std::string color;
  bool line = false;          // a line through the points, else markers
  std::vector<double> x, y;   // a non-finite y is no value: no marker, and a line breaks there
  std::vector<double> error;  // ± half-widths, drawn with the markers; empty for none
  // The rest keeps its default in most charts.
  bool points = false;                         // with line: a marker on every point too
  marker_shape marker = marker_shape::circle;  // markers' shape, here and in the legend
  std::string dash;                            // the line's stroke-dasharray ("9 4"), empty: solid
  double stroke_width = 2;
  double marker_radius = 3.5;
  std::vector<std::string> hover;  // per point, shown when the pointer is on its marker; empty: none
};

// A dashed horizontal line across the plot at y (e.g. 100 % of capacity), drawn when y is on the
// axis; label is its hover text.
struct plot_reference {
  double y = 0;
  std::string label;
};

// The labels of an axis's ticks (`step` apart, in order), one per value: all at once, so that a
// format can pick one unit for the whole axis.
using tick_format = std::function<std::vector<std::string>(const std::vector<double>& values, double step)>;

struct plot_panel {
  std::string title;  // empty: none
  std::string x_label, y_label;
  std::vector<plot_series> series;
  double y_max = 0;                // 0: fit to the data
  std::vector<std::string> notes;  // shown under the legend (e.g. "no loss formula: M/D/1")
  double x_max = 0;                // 0: fit to the data (panels that share it compare by eye)
  bool x_from_data = false;        // the x axis starts at the tick at or below the smallest x, not at 0
  tick_format x_ticks, y_ticks;    // empty: each value with as many decimals as the step has
  std::vector<plot_reference> references;
};

// The SVG document for the panels, one above the other, under the title and the subtitle (if any).
std::string render_svg(const std::string& title, const std::vector<plot_panel>& panels,
                       const std::string& subtitle = {});

}  // namespace netlab::labs
