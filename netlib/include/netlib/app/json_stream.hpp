#pragma once
// One JSON document on stdout whose big array is written element by element: the same text as
// netlib::app::print_json gives for the whole document (dump with an indent of 2, every number
// tidied by tidy_numbers: 15 significant digits), without the whole array in memory at once (a
// capture analyzer's list of thousands of connections would take kilobytes of nlohmann::json
// nodes each).
//
//   nlohmann::json doc{{"capture", path}, {"connections", nlohmann::json::array()}, ...};
//   netlib::app::print_json_with_array(doc, "connections", list.size(),
//                                      [&](std::size_t i) { return to_json(list[i]); });
#include <nlohmann/json.hpp>

#include <cstddef>
#include <functional>
#include <iostream>
#include <string>

namespace netlib::app {

// `doc` is an object whose member `key` is an empty array; element(i) gives its i-th element.
void print_json_with_array(const nlohmann::json& doc, const std::string& key, std::size_t count,
                           const std::function<nlohmann::json(std::size_t)>& element, std::ostream& out = std::cout);

}  // namespace netlib::app
