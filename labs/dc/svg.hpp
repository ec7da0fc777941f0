#pragma once
// lab-dc's pictures as standalone SVG documents: the fabric with every link drawn as two lines
// (uplink on the left, downlink on the right), each as wide as its share of the busiest one and
// coloured by its utilisation, unused ones dashed grey; and MLU over time, one line per scheme.
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

struct series {
  std::string name;
  std::vector<double> y;  // NaN: no value
};
std::string series_svg(const std::string& title, const std::string& subtitle, const std::string& y_label,
                       const std::vector<double>& x, const std::vector<series>& lines);

// Side by side: one fabric per configuration, as one document.
std::string fabrics_svg(const std::vector<svg_document>& fabrics, const std::string& title);

}  // namespace netlab::lab_dc
