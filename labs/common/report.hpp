#pragma once
// Output shared by lab-delay and lab-throughput: a result is a JSON document (for --json), a table
// of human-readable rows, and the calculator's explanation (for --explain). Calculator input
// errors become usage errors (exit 2).
#include <fmt/format.h>

#include <functional>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "netlib/app/program.hpp"
#include "netlib/calc/input_error.hpp"

namespace netlab::labs {

struct report {
  nlohmann::json json = nlohmann::json::object();
  std::vector<std::pair<std::string, std::string>> rows;
  std::string explanation;

  void row(std::string label, std::string value) { rows.emplace_back(std::move(label), std::move(value)); }
};

inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size() && !text.empty()) {
    const auto end = text.find('\n', start);
    out.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return out;
}

// Prints the report: JSON (with "explanation" lines when asked), or rows then the explanation.
inline int emit(report r, bool json, bool explain) {
  if (json) {
    if (explain) r.json["explanation"] = lines_of(r.explanation);
    netlib::app::print_json(r.json);
    return netlib::app::exit_ok;
  }
  std::size_t width = 0;
  for (const auto& [label, value] : r.rows) width = std::max(width, label.size());
  for (const auto& [label, value] : r.rows) std::cout << fmt::format("{:<{}}  {}\n", label, width, value);
  if (explain && !r.explanation.empty()) {
    std::cout << "\nHow it is computed:\n";
    for (const auto& line : lines_of(r.explanation)) std::cout << "  " << line << '\n';
  }
  std::cout.flush();
  return netlib::app::exit_ok;
}

// Wraps a command action so calculator input errors are usage errors.
inline std::function<int()> calc_action(std::function<int()> body) {
  return [body = std::move(body)]() {
    try {
      return body();
    } catch (const netlib::calc::input_error& e) {
      throw netlib::app::usage_error(e.what());
    }
  };
}

// Optional JSON number: null when absent.
template <typename T>
nlohmann::json or_null(const std::optional<T>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

}  // namespace netlab::labs
