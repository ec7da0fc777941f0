#pragma once
// lab-dc's fabric pictures as standalone SVG documents: every link drawn as two lines (uplink on
// the left, downlink on the right), each as wide as its share of the busiest one and coloured by
// its utilisation, unused ones dashed grey. lab-dc's charts (MLU over time in te_command.cpp, the
// collectives' progress in collective_report.cpp) are drawn by the labs' shared renderer,
// labs/common/svg_plot.hpp.
#include <span>
#include <string>
#include <vector>

#include "netlib/dc/loads.hpp"
#include "netlib/dc/topology.hpp"

namespace netlab::lab_dc {

struct svg_document {
  std::string text;
  double width = 0;
  double height = 0;
};

svg_document fabric_svg(const netlib::dc::topology& t, std::span<const double> arc_bytes,
                        const netlib::dc::load_summary& s, const std::string& title, const std::string& subtitle);

// One fabric per configuration, one above the other, as one document.
std::string fabrics_svg(const std::vector<svg_document>& fabrics, const std::string& title);

}  // namespace netlab::lab_dc
