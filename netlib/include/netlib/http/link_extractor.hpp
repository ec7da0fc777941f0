#pragma once
// The objects an HTML page references, as the textbook's "base HTML file plus N referenced
// objects": src= of img/script/iframe/source/video/audio/embed and href= of <link> (stylesheets,
// icons). A small tolerant scanner, not an HTML parser: attribute values quoted with " or ' or
// unquoted; comments skipped.
#include <string>
#include <string_view>
#include <vector>

namespace netlib::http {

std::vector<std::string> extract_object_links(std::string_view html);

}  // namespace netlib::http
