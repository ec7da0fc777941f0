// Theory of operation. The answer kinds of the packet-level families compare what a student reads
// off Wireshark with the key, after normalising both sides:
//   coded     "NAME (CODE)": a given number (decimal or 0x hex) must equal the code, a given name
//             the name, folded (case, spaces, '_' and '-' ignored; "TLSv1.2" is "TLS 1.2");
//   duration  a number with an optional unit (s, ms, us, µs; none: ms), within 1 % or 1 µs;
//   rate      a number with an optional unit (B/s, kB/s, MB/s, bit/s, kbit/s, Mbit/s, bps...;
//             none: B/s), within 2 %;
//   list/set  items separated by commas, semicolons or new lines, each folded as a name, in order
//             (list) or as a set.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <set>

#include "questions_packets.hpp"

namespace netlab::grade {

namespace {

std::string trimmed(std::string_view s) {
  const auto b = s.find_first_not_of(" \t\r\n\"'");
  if (b == std::string_view::npos) return {};
  const auto e = s.find_last_not_of(" \t\r\n\"'");
  return std::string(s.substr(b, e - b + 1));
}

// Lower case without spaces, '_' and '-'; "tlsv" (Wireshark's protocol column) as "tls".
std::string folded_name(std::string_view s) {
  std::string out;
  for (char c : trimmed(s)) {
    if (c == ' ' || c == '_' || c == '-' || c == '\t') continue;
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  for (const char* prefix : {"tlsv", "sslv"}) {
    if (out.rfind(prefix, 0) == 0) out = out.substr(0, 3) + out.substr(4);
  }
  return out;
}

// A whole token as an unsigned number: decimal, or hex with 0x; thousands commas allowed in decimal.
std::optional<std::uint64_t> whole_number(std::string_view s) {
  std::string t = trimmed(s);
  std::uint64_t v = 0;
  if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
    const auto r = std::from_chars(t.data() + 2, t.data() + t.size(), v, 16);
    return r.ec == std::errc() && r.ptr == t.data() + t.size() ? std::optional(v) : std::nullopt;
  }
  std::erase(t, ',');
  if (t.empty()) return std::nullopt;
  const auto r = std::from_chars(t.data(), t.data() + t.size(), v, 10);
  return r.ec == std::errc() && r.ptr == t.data() + t.size() ? std::optional(v) : std::nullopt;
}

// "NAME (CODE)" -> {NAME, CODE}; anything else -> {it, ""}.
std::pair<std::string, std::string> label_and_code(std::string_view s) {
  const std::string t = trimmed(s);
  const auto open = t.rfind(" (");
  if (!t.empty() && t.back() == ')' && open != std::string::npos)
    return {t.substr(0, open), t.substr(open + 2, t.size() - open - 3)};
  return {t, ""};
}

bool same_coded(const std::string& expected, const std::string& given) {
  const auto expected_parts = label_and_code(expected);
  const std::string& label = expected_parts.first;  // not a structured binding: clang 14's lambdas cannot capture one
  const std::string& code = expected_parts.second;
  const auto matches = [&](std::string_view g) {
    if (const auto n = whole_number(g)) {
      for (const auto& side : {label, code}) {
        if (const auto c = whole_number(side); c && *c == *n) return true;
      }
      return false;
    }
    const auto f = folded_name(g);
    return !f.empty() && (f == folded_name(label) || f == folded_name(code));
  };
  const auto [g_label, g_code] = label_and_code(given);
  if (!g_code.empty()) return matches(g_label) || matches(g_code);
  return matches(given);
}

// A number and the rest of the text after it ("0.412 ms" -> {0.412, "ms"}).
std::optional<std::pair<double, std::string>> number_and_unit(std::string_view s) {
  std::string t = trimmed(s);
  std::erase(t, ',');
  double v = 0;
  const auto r = std::from_chars(t.data(), t.data() + t.size(), v);
  if (r.ec != std::errc() || !std::isfinite(v)) return std::nullopt;
  std::string unit(r.ptr, static_cast<const char*>(t.data() + t.size()));
  std::erase_if(unit, [](char c) { return c == ' ' || c == '\t'; });
  return std::pair{v, unit};
}

std::optional<double> seconds_of(std::string_view s) {
  const auto nu = number_and_unit(s);
  if (!nu) return std::nullopt;
  const auto& [v, unit] = *nu;
  if (unit.empty() || unit == "ms" || unit == "msec") return v / 1e3;
  if (unit == "s" || unit == "sec" || unit == "seconds") return v;
  if (unit == "us" || unit == "µs" || unit == "usec") return v / 1e6;
  if (unit == "ns") return v / 1e9;
  return std::nullopt;
}

std::optional<double> bytes_per_second_of(std::string_view s) {
  const auto nu = number_and_unit(s);
  if (!nu) return std::nullopt;
  const auto& [v, raw_unit] = *nu;
  std::string unit;
  for (char c : raw_unit) unit += c == 'K' ? 'k' : c;
  if (unit.empty() || unit == "B/s" || unit == "bytes/s" || unit == "Bps") return v;
  if (unit == "kB/s" || unit == "kBps") return v * 1e3;
  if (unit == "kiB/s") return v * 1024;
  if (unit == "MB/s" || unit == "MBps") return v * 1e6;
  if (unit == "MiB/s") return v * 1048576;
  if (unit == "bit/s" || unit == "bps" || unit == "b/s") return v / 8;
  if (unit == "kbit/s" || unit == "kbps" || unit == "kb/s") return v * 1e3 / 8;
  if (unit == "Mbit/s" || unit == "Mbps" || unit == "Mb/s") return v * 1e6 / 8;
  if (unit == "Gbit/s" || unit == "Gbps") return v * 1e9 / 8;
  return std::nullopt;
}

std::vector<std::string> items_of(std::string_view s) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == ',' || c == ';' || c == '\n') {
      out.push_back(folded_name(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(folded_name(cur));
  std::erase(out, std::string());
  return out;
}

}  // namespace

bool same_measure(answer_kind kind, const std::string& expected, const std::string& given) {
  switch (kind) {
    case answer_kind::coded:
      return same_coded(expected, given);
    case answer_kind::duration: {
      const auto a = seconds_of(expected), b = seconds_of(given);
      return a && b && std::abs(*a - *b) <= std::max(0.01 * std::abs(*a), 1e-6);
    }
    case answer_kind::rate: {
      const auto a = bytes_per_second_of(expected), b = bytes_per_second_of(given);
      return a && b && std::abs(*a - *b) <= 0.02 * std::abs(*a);
    }
    case answer_kind::list:
      return items_of(expected) == items_of(given);
    case answer_kind::set: {
      const auto a = items_of(expected), b = items_of(given);
      return std::set<std::string>(a.begin(), a.end()) == std::set<std::string>(b.begin(), b.end());
    }
    default:
      return false;
  }
}

std::string coded_answer(std::string_view name, std::uint64_t code, bool hex) {
  return hex ? fmt::format("{} (0x{:02x})", name, code) : fmt::format("{} ({})", name, code);
}

std::string hex_answer(std::uint64_t value, int digits) {
  return fmt::format("0x{:0{}x} ({})", value, digits, value);
}

std::string duration_answer(double seconds) {
  return fmt::format("{:.3f} ms", seconds * 1e3);
}

std::string rate_answer(double bytes_per_second) {
  return fmt::format("{:.0f} B/s", bytes_per_second);
}

}  // namespace netlab::grade
