#pragma once
// Output shared by lab-delay and lab-throughput: a result is a JSON document (for --json), a table
// of human-readable rows, and the calculator's explanation (for --explain); the two flags are
// common_flags. Calculator input errors become usage errors (exit 2).
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
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

// The flags every calculator command has: --json and --explain, emit()'s json and explain.
struct common_flags {
  bool json = false;
  bool explain = false;
  void add(CLI::App& cmd) {
    netlib::app::add_json_flag(cmd, json);
    cmd.add_flag("--explain", explain, "Print each formula with the numbers substituted");
  }
};

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

// A table whose number columns line up on their decimal points: every cell of a column is
// right-aligned to the column's widest cell, so numbers formatted with the same number of
// decimals (see time_column) have their points one above the other.
struct table {
  std::vector<std::string> headers;
  std::vector<std::vector<std::string>> rows;

  [[nodiscard]] std::string render() const {
    std::vector<std::size_t> width(headers.size(), 0);
    for (std::size_t c = 0; c < headers.size(); ++c) width[c] = headers[c].size();
    for (const auto& r : rows)
      for (std::size_t c = 0; c < r.size() && c < width.size(); ++c) width[c] = std::max(width[c], display_width(r[c]));
    std::string out;
    auto line = [&](const std::vector<std::string>& cells) {
      std::string l;
      for (std::size_t c = 0; c < width.size(); ++c) {
        const std::string cell = c < cells.size() ? cells[c] : "";
        l += (c ? "  " : "") + std::string(width[c] - std::min(width[c], display_width(cell)), ' ') + cell;
      }
      out += l + "\n";
    };
    line(headers);
    for (const auto& r : rows) line(r);
    return out;
  }

  // Characters as a terminal shows them (UTF-8 continuation bytes take no column).
  static std::size_t display_width(const std::string& s) {
    std::size_t n = 0;
    for (unsigned char ch : s) n += (ch & 0xC0) != 0x80 ? 1 : 0;
    return n;
  }
};

// A column of times in one unit, the largest of s, ms and us in which the column's largest value
// is at least 1, printed with three decimals: "12.000", " 1.200".
struct time_column {
  double scale = 1e3;
  std::string unit = "ms";

  explicit time_column(double largest_s) {
    if (largest_s >= 1) {
      scale = 1;
      unit = "s";
    } else if (largest_s >= 1e-3 || largest_s <= 0) {
      scale = 1e3;
      unit = "ms";
    } else {
      scale = 1e6;
      unit = "us";
    }
  }
  [[nodiscard]] std::string operator()(double seconds) const { return fmt::format("{:.3f}", seconds * scale); }
};

// Optional JSON number: null when absent.
template <typename T>
nlohmann::json or_null(const std::optional<T>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

}  // namespace netlab::labs
