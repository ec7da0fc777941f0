#pragma once
// tshark as an oracle, field by field: `tshark -n -r FILE [-Y FILTER] -T fields -e F...` with every
// occurrence of each field (a field that occurs several times in a frame, e.g. dns.a, gives all
// of them in order), read into one row per frame.
//
//   auto rows = netlab::test::tshark_rows(file, "dns", {"frame.number", "dns.id", "dns.a"});
//   rows[0].first("dns.id") == "0x4212"; rows[0].all("dns.a") == {"10.53.0.80"}
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "support/process.hpp"

namespace netlab::test {

struct tshark_row {
  std::map<std::string, std::vector<std::string>> values;  // field -> its occurrences

  [[nodiscard]] const std::vector<std::string>& all(const std::string& field) const {
    static const std::vector<std::string> none;
    const auto it = values.find(field);
    return it == values.end() ? none : it->second;
  }
  [[nodiscard]] std::string first(const std::string& field) const {
    const auto& v = all(field);
    return v.empty() ? std::string() : v.front();
  }
  [[nodiscard]] bool has(const std::string& field) const { return !all(field).empty(); }
  [[nodiscard]] long long frame() const { return std::stoll(first("frame.number")); }
};

struct tshark_result {
  bool ok = false;
  std::string error;
  std::vector<tshark_row> rows;
};

// Occurrences are joined with the ASCII unit separator, which no field value of the captures holds.
inline tshark_result tshark_rows(const std::string& file, const std::string& filter,
                                 const std::vector<std::string>& fields, const std::vector<std::string>& extra = {}) {
  const std::string sep(1, '\x1f');
  std::vector<std::string> argv{"/usr/bin/tshark", "-n", "-r", file};
  argv.insert(argv.end(), extra.begin(), extra.end());
  if (!filter.empty()) argv.insert(argv.end(), {"-Y", filter});
  argv.insert(argv.end(), {"-T", "fields", "-E", "occurrence=a", "-E", "aggregator=" + sep});
  for (const auto& f : fields) argv.insert(argv.end(), {"-e", f});
  const auto r = run(argv);
  tshark_result out;
  if (r.exit_code != 0) {
    out.error = r.err;
    return out;
  }
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty()) continue;
    tshark_row row;
    std::size_t start = 0;
    for (std::size_t i = 0; i < fields.size(); ++i) {
      const auto tab = line.find('\t', start);
      const auto cell = line.substr(start, tab == std::string::npos ? std::string::npos : tab - start);
      start = tab == std::string::npos ? line.size() : tab + 1;
      if (cell.empty()) continue;
      auto& list = row.values[fields[i]];
      std::size_t p = 0;
      for (;;) {
        const auto q = cell.find(sep, p);
        list.push_back(cell.substr(p, q == std::string::npos ? std::string::npos : q - p));
        if (q == std::string::npos) break;
        p = q + 1;
      }
    }
    out.rows.push_back(std::move(row));
  }
  out.ok = true;
  return out;
}

// Every capture file (.pcap, .pcapng) under the checkout's captures/, sorted.
inline std::vector<std::string> project_captures() {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(source_path("captures"))) {
    const auto ext = e.path().extension();
    if (e.is_regular_file() && (ext == ".pcap" || ext == ".pcapng")) out.push_back(e.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// A test name from a capture's path: "dns_resolver_pcapng".
inline std::string capture_test_name(const std::string& path) {
  const std::filesystem::path p(path);
  std::string name = p.parent_path().filename().string() + "_" + p.filename().string();
  for (auto& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

}  // namespace netlab::test
