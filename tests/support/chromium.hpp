#pragma once
// Headless Chromium as the judge of an SVG picture: the picture is put in a page with a script
// that measures it (getBoundingClientRect, with the browser's own fonts) and writes one line
// "RESULT <json>" into the page, which --dump-dom prints. Each run gets a new profile folder
// and no network access of its own (background networking, component updates and sync off).
//
//   const auto m = netlab::test::measure_svg(svg_file, dir, R"JS(... result = {...}; )JS");
//
// The script sees `svg` (the <svg> element) and must assign an object to `result`.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "support/process.hpp"

namespace netlab::test {

inline nlohmann::json measure_svg(const std::filesystem::path& svg, const std::filesystem::path& dir,
                                  const std::string& script) {
  std::ifstream in(svg, std::ios::binary);
  const std::string picture{std::istreambuf_iterator<char>(in), {}};
  const auto page = dir / (svg.stem().string() + "-measure.html");
  std::ofstream(page)
      << "<!doctype html><html><body style=\"margin:0\">" << picture
      << "<pre id=\"result\"></pre><script>\nconst svg = document.querySelector('svg');\nlet result = {};\n"
      << script
      << "\ndocument.getElementById('result').textContent = 'RESULT ' + JSON.stringify(result);\n"
         "</script></body></html>";
  const auto profile = dir / ("chromium-profile-" + svg.stem().string());
  const auto r =
      run({"/usr/bin/chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
           "--disable-component-update", "--disable-sync", "--no-first-run", "--user-data-dir=" + profile.string(),
           "--window-size=1200,900", "--dump-dom", "file://" + page.string()},
          {}, std::chrono::seconds(90));
  const std::string marker = "<pre id=\"result\">RESULT ";
  const auto at = r.out.find(marker);
  if (r.exit_code != 0 || at == std::string::npos) {
    ADD_FAILURE() << "chromium exit " << r.exit_code << ": " << r.err.substr(0, 400);
    return nlohmann::json::object();
  }
  const auto end = r.out.find("</pre>", at);
  return nlohmann::json::parse(r.out.substr(at + marker.size(), end - at - marker.size()), nullptr, false);
}

}  // namespace netlab::test
