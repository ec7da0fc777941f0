// print_json_with_array: see json_stream.hpp.
#include "netlib/app/json_stream.hpp"

#include <string_view>

#include "netlib/app/program.hpp"

namespace netlib::app {

void print_json_with_array(const nlohmann::json& doc, const std::string& key, std::size_t count,
                           const std::function<nlohmann::json(std::size_t)>& element, std::ostream& out) {
  const std::string text = tidy_numbers(doc).dump(2);
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
    const std::string item = tidy_numbers(element(i)).dump(2);
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
