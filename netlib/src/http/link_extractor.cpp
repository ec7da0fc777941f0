// Theory of operation: walk the text tag by tag ('<' to '>'), skipping comments; for each tag
// take its name and attributes; keep src of embedding elements and href of <link>. Duplicates are
// kept once, in first-seen order (a browser fetches an object once).
#include "netlib/http/link_extractor.hpp"

#include <algorithm>

#include "netlib/http/fields.hpp"

namespace netlib::http {
namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

// Reads attributes of one tag body ("img src=a.png alt='x'"): calls f(name, value).
template <class F>
void for_each_attribute(std::string_view tag, F f) {
  std::size_t i = 0;
  while (i < tag.size() && !is_space(tag[i])) ++i;  // the tag name
  while (i < tag.size()) {
    while (i < tag.size() && (is_space(tag[i]) || tag[i] == '/')) ++i;
    const std::size_t name_start = i;
    while (i < tag.size() && !is_space(tag[i]) && tag[i] != '=' && tag[i] != '/') ++i;
    const std::string_view name = tag.substr(name_start, i - name_start);
    while (i < tag.size() && is_space(tag[i])) ++i;
    std::string_view value;
    if (i < tag.size() && tag[i] == '=') {
      ++i;
      while (i < tag.size() && is_space(tag[i])) ++i;
      if (i < tag.size() && (tag[i] == '"' || tag[i] == '\'')) {
        const char q = tag[i++];
        const std::size_t end = tag.find(q, i);
        value = tag.substr(i, end == std::string_view::npos ? std::string_view::npos : end - i);
        i = end == std::string_view::npos ? tag.size() : end + 1;
      } else {
        const std::size_t start = i;
        while (i < tag.size() && !is_space(tag[i])) ++i;
        value = tag.substr(start, i - start);
      }
    }
    if (name.empty()) break;
    f(name, value);
  }
}

}  // namespace

std::vector<std::string> extract_object_links(std::string_view html) {
  static constexpr std::string_view embedding[] = {"img",   "script", "iframe", "source",
                                                   "video", "audio",  "embed",  "input"};
  std::vector<std::string> out;
  std::size_t pos = 0;
  for (int guard = 0; guard < 1'000'000 && pos < html.size(); ++guard) {
    const std::size_t lt = html.find('<', pos);
    if (lt == std::string_view::npos) break;
    if (html.substr(lt, 4) == "<!--") {
      const std::size_t end = html.find("-->", lt + 4);
      pos = end == std::string_view::npos ? html.size() : end + 3;
      continue;
    }
    const std::size_t gt = html.find('>', lt);
    if (gt == std::string_view::npos) break;
    const std::string_view tag = html.substr(lt + 1, gt - lt - 1);
    pos = gt + 1;
    std::size_t n = 0;
    while (n < tag.size() && !is_space(tag[n]) && tag[n] != '/') ++n;
    const std::string name = to_lower(tag.substr(0, n));
    const bool embeds = std::find(std::begin(embedding), std::end(embedding), name) != std::end(embedding);
    const bool is_link = name == "link";
    if (!embeds && !is_link) continue;
    for_each_attribute(tag, [&](std::string_view attr, std::string_view value) {
      const bool wanted = (embeds && iequals(attr, "src")) || (is_link && iequals(attr, "href"));
      if (wanted && !value.empty() && std::find(out.begin(), out.end(), value) == out.end()) out.emplace_back(value);
    });
  }
  return out;
}

}  // namespace netlib::http
