#pragma once
// One JSON document on stdout whose big array is written element by element: the same text as
// netlib::app::print_json (dump with an indent of 2) gives for the whole document, without the
// whole array in memory at once (a capture analyzer's list of thousands of connections would
// take kilobytes of nlohmann::json nodes each).
//
//   nlohmann::json doc{{"capture", path}, {"connections", nlohmann::json::array()}, ...};
//   netlib::app::print_json_with_array(doc, "connections", list.size(),
//                                      [&](std::size_t i) { return to_json(list[i]); });
#include <nlohmann/json.hpp>

#include <cstddef>
#include <functional>
#include <iostream>
#include <string>
#include <string_view>

namespace netlib::app {

// `doc` is an object whose member `key` is an empty array; element(i) gives its i-th element.
inline void print_json_with_array(const nlohmann::json& doc, const std::string& key, std::size_t count,
                                  const std::function<nlohmann::json(std::size_t)>& element,
                                  std::ostream& out = std::cout) {
  const std::string text = doc.dump(2);
  // The member at the top level: two spaces, the quoted key, ": []".
  const std::string member = "\n  " + nlohmann::json(key).dump() + ": []";
  const auto at = text.find(member);
  if (count == 0 || at == std::string::npos) {
    out << text << std::endl;
    return;
  }
  const auto open = at + member.size() - 1;  // the position of "]"
  out << std::string_view(text).substr(0, open);
  for (std::size_t i = 0; i < count; ++i) {
    const std::string item = element(i).dump(2);
    out << "\n    ";
    for (const char c : item) {
      out << c;
      if (c == '\n') out << "    ";  // nested two levels deeper than the element's own dump
    }
    if (i + 1 < count) out << ',';
  }
  out << "\n  " << std::string_view(text).substr(open) << std::endl;
}

}  // namespace netlib::app
