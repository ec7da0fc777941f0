// Theory of operation. A student's answers file is either a JSON object {"http.status.1": 200,
// ...} (string, number or array of strings per id) or text lines "id: answer" ('#' starts a
// comment line, blank lines are skipped). Anything else, a line without "id:", an id that is not
// [a-z0-9_.], or an id given twice is a usage error naming the file and line (exit 2). Each answer
// is then compared with the key after normalising both sides by the question's kind: numbers as
// integers, dates as instants, addresses parsed, mailboxes as sets, text case- and space-folded.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "netlib/app/program.hpp"
#include "netlib/core/ascii.hpp"
#include "netlib/http/http_date.hpp"
#include "netlib/packet/ip_address.hpp"
#include "questions.hpp"
#include "questions_packets.hpp"

namespace netlab::grade {

namespace {

constexpr std::size_t max_answers_bytes = 1 << 20;

std::string trim(std::string_view s) {
  return std::string(netlib::ascii::trim(s, " \t\r\n"));
}

bool valid_id(std::string_view id) {
  return !id.empty() && std::all_of(id.begin(), id.end(), [](char c) {
    return std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_' ||
           c == '.';
  });
}

// Lower case, runs of white space as one space, no surrounding quotes.
std::string fold(std::string_view s) {
  std::string out;
  for (char c : trim(s)) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (!out.empty() && out.back() != ' ') out += ' ';
    } else {
      out += netlib::ascii::to_lower(c);
    }
  }
  if (out.size() >= 2 && (out.front() == '"' || out.front() == '\'') && out.back() == out.front()) {
    out = out.substr(1, out.size() - 2);
  }
  return out;
}

std::vector<std::string> tokens(std::string_view s, std::string_view separators) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (separators.find(c) != std::string_view::npos) {
      if (!cur.empty()) out.push_back(std::move(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(std::move(cur));
  return out;
}

// The first token that is an integer ("1,024" allowed): "200 OK" -> 200, "3 segments" -> 3.
std::optional<std::string> first_integer(std::string_view s) {
  for (auto t : tokens(s, " \t")) {
    std::erase(t, ',');
    while (!t.empty() && (t.back() == '.' || t.back() == ';')) t.pop_back();
    if (!t.empty() &&
        std::all_of(t.begin(), t.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
      const auto nz = t.find_first_not_of('0');
      return nz == std::string::npos ? "0" : t.substr(nz);
    }
  }
  return std::nullopt;
}

std::string version_of(std::string_view s) {
  auto f = fold(s);
  if (f.starts_with("http/")) f = f.substr(5);
  return f;
}

std::optional<std::string> mac_of(std::string_view s) {
  std::string hex;
  for (char c : fold(s)) {
    if (c == ':' || c == '-' || c == '.') continue;
    if (!std::isxdigit(static_cast<unsigned char>(c))) return std::nullopt;
    hex += c;
  }
  if (hex.size() != 12) return std::nullopt;
  return hex;
}

std::optional<netlib::packet::ip_address> ip_of(std::string_view s) {
  auto t = trim(s);
  if (t.size() > 2 && t.front() == '[' && t.back() == ']') t = t.substr(1, t.size() - 2);
  return netlib::packet::ip_address::parse(t);
}

// "IP:port", "[v6]:port", "IP port", "IP, port".
std::optional<std::pair<netlib::packet::ip_address, std::string>> endpoint_of(std::string_view s) {
  auto t = trim(s);
  std::string host, port;
  if (const auto sp = t.find_first_of(" ,\t"); sp != std::string::npos) {
    host = trim(t.substr(0, sp));
    port = trim(std::string_view(t).substr(sp + 1));
    if (!port.empty() && port.front() == ',') port = trim(std::string_view(port).substr(1));
  } else if (const auto colon = t.rfind(':'); colon != std::string::npos) {
    host = t.substr(0, colon);
    port = t.substr(colon + 1);
  }
  const auto ip = ip_of(host);
  const auto p = first_integer(port);
  if (!ip || !p || *p != port) return std::nullopt;
  return std::pair{*ip, *p};
}

std::set<std::string> mailboxes_of(std::string_view s) {
  std::set<std::string> out;
  for (auto t : tokens(fold(s), ",; \t")) {
    if (t.starts_with("<")) t.erase(0, 1);
    if (t.ends_with(">")) t.pop_back();
    if (!t.empty()) out.insert(t);
  }
  return out;
}

std::string choice_of(std::string_view s) {
  const auto f = fold(s);
  const auto words = tokens(f, " ,()/");
  const auto has = [&](std::initializer_list<const char*> w) {
    return std::any_of(words.begin(), words.end(), [&](const std::string& x) {
      return std::any_of(w.begin(), w.end(), [&](const char* y) { return x == y; });
    });
  };
  const bool passive = has({"passive", "pasv", "epsv"});
  const bool active = has({"active", "port", "eprt"});
  if (passive != active) return passive ? "passive" : "active";
  return f;
}

// "0x1a2b" (any case) as hexadecimal, digits alone as decimal.
std::optional<std::uint64_t> hex_number_of(std::string_view s) {
  auto t = fold(s);
  int base = 10;
  if (t.starts_with("0x")) {
    t = t.substr(2);
    base = 16;
  }
  if (t.empty() || t.size() > 16) return std::nullopt;
  std::uint64_t v = 0;
  for (char c : t) {
    int d = -1;
    if (c >= '0' && c <= '9')
      d = c - '0';
    else if (base == 16 && c >= 'a' && c <= 'f')
      d = c - 'a' + 10;
    if (d < 0) return std::nullopt;
    v = v * static_cast<std::uint64_t>(base) + static_cast<std::uint64_t>(d);
  }
  return v;
}

std::optional<bool> yes_no_of(std::string_view s) {
  const auto words = tokens(fold(s), " ,.;()");
  const std::string first = words.empty() ? "" : words.front();
  if (first == "yes" || first == "true" || first == "1" || first == "set" || first == "y") return true;
  if (first == "no" || first == "false" || first == "0" || first == "n" || first == "not" || first == "unset")
    return false;
  return std::nullopt;
}

std::optional<std::set<netlib::packet::ip_address>> addresses_of(std::string_view s) {
  std::set<netlib::packet::ip_address> out;
  for (const auto& t : tokens(s, ",; \t")) {
    const auto ip = ip_of(t);
    if (!ip) return std::nullopt;
    out.insert(*ip);
  }
  return out;
}

std::set<std::string> names_of(std::string_view s) {
  std::set<std::string> out;
  for (auto t : tokens(fold(s), ",; \t")) {
    if (t.size() > 1 && t.back() == '.') t.pop_back();
    if (t.size() >= 2 && (t.front() == '"' || t.front() == '\'') && t.back() == t.front())
      t = t.substr(1, t.size() - 2);
    out.insert(t);
  }
  return out;
}

std::optional<std::set<std::string>> numbers_of(std::string_view s) {
  std::set<std::string> out;
  for (const auto& t : tokens(s, ",; \t")) {
    const auto n = first_integer(t);
    if (!n || *n != (t.find_first_not_of('0') == std::string::npos ? "0" : t.substr(t.find_first_not_of('0')))) {
      return std::nullopt;
    }
    out.insert(*n);
  }
  return out;
}

std::string json_answer(const nlohmann::json& v, const std::string& name, const std::string& id) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_integer()) return std::to_string(v.get<long long>());
  if (v.is_number()) return fmt::format("{}", v.get<double>());
  if (v.is_array()) {
    std::string out;
    for (const auto& e : v) {
      if (!e.is_string()) throw netlib::app::usage_error(fmt::format("{}: \"{}\": a list must hold strings", name, id));
      out += (out.empty() ? "" : ", ") + e.get<std::string>();
    }
    return out;
  }
  throw netlib::app::usage_error(fmt::format("{}: \"{}\": the answer must be a string, a number or a list", name, id));
}

std::map<std::string, std::string> parse_json_answers(const std::string& text, const std::string& name) {
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw netlib::app::usage_error(fmt::format("{}: not valid JSON ({})", name, e.what()));
  }
  if (!doc.is_object()) throw netlib::app::usage_error(name + ": the JSON must be an object {\"id\": answer, ...}");
  std::map<std::string, std::string> out;
  for (const auto& [id, v] : doc.items()) {
    if (!valid_id(id)) throw netlib::app::usage_error(fmt::format("{}: \"{}\" is not a question id", name, id));
    out[id] = json_answer(v, name, id);
  }
  return out;
}

std::map<std::string, std::string> parse_line_answers(const std::string& text, const std::string& name) {
  std::map<std::string, std::string> out;
  std::istringstream in(text);
  std::string line;
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    const auto t = trim(line);
    if (t.empty() || t.front() == '#') continue;
    const auto colon = t.find(':');
    const auto id = colon == std::string::npos ? std::string() : trim(std::string_view(t).substr(0, colon));
    if (colon == std::string::npos || !valid_id(id)) {
      throw netlib::app::usage_error(fmt::format(
          "{} line {}: expected 'id: answer' (e.g. 'http.status.1: 200'), got '{}'", name, number, t.substr(0, 60)));
    }
    if (!out.emplace(id, trim(std::string_view(t).substr(colon + 1))).second) {
      throw netlib::app::usage_error(fmt::format("{} line {}: '{}' is answered twice", name, number, id));
    }
  }
  return out;
}

}  // namespace

std::string_view kind_name(answer_kind kind) noexcept {
  switch (kind) {
    case answer_kind::number:
      return "number";
    case answer_kind::text:
      return "text";
    case answer_kind::http_date:
      return "http-date";
    case answer_kind::version:
      return "version";
    case answer_kind::ip:
      return "ip";
    case answer_kind::mac:
      return "mac";
    case answer_kind::endpoint:
      return "endpoint";
    case answer_kind::mailboxes:
      return "mailboxes";
    case answer_kind::choice:
      return "choice";
    case answer_kind::hex_number:
      return "hex-number";
    case answer_kind::yes_no:
      return "yes-no";
    case answer_kind::addresses:
      return "addresses";
    case answer_kind::names:
      return "names";
    case answer_kind::numbers:
      return "numbers";
    case answer_kind::coded:
      return "coded";
    case answer_kind::duration:
      return "duration";
    case answer_kind::rate:
      return "rate";
    case answer_kind::list:
      return "list";
    case answer_kind::set:
      return "set";
  }
  return "text";
}

bool same_answer(answer_kind kind, const std::string& expected, const std::string& given) {
  switch (kind) {
    case answer_kind::number: {
      const auto a = first_integer(expected);
      return a && a == first_integer(given);
    }
    case answer_kind::http_date: {
      const auto a = netlib::http::parse_http_date(trim(expected));  // RFC 9110 §5.6.7: three forms
      const auto b = netlib::http::parse_http_date(trim(given));
      return a && b ? *a == *b : fold(expected) == fold(given);
    }
    case answer_kind::version:
      return version_of(expected) == version_of(given);
    case answer_kind::ip: {
      const auto a = ip_of(expected);
      return a && a == ip_of(given);
    }
    case answer_kind::mac: {
      const auto a = mac_of(expected);
      return a && a == mac_of(given);
    }
    case answer_kind::endpoint: {
      const auto a = endpoint_of(expected);
      return a && a == endpoint_of(given);
    }
    case answer_kind::mailboxes:
      return mailboxes_of(expected) == mailboxes_of(given);
    case answer_kind::choice:
      return choice_of(expected) == choice_of(given);
    case answer_kind::hex_number: {
      const auto a = hex_number_of(expected);
      return a && a == hex_number_of(given);
    }
    case answer_kind::yes_no: {
      const auto a = yes_no_of(expected);
      return a && a == yes_no_of(given);
    }
    case answer_kind::addresses: {
      const auto a = addresses_of(expected);
      return a && a == addresses_of(given);
    }
    case answer_kind::names:
      return names_of(expected) == names_of(given);
    case answer_kind::numbers: {
      const auto a = numbers_of(expected);
      return a && a == numbers_of(given);
    }
    case answer_kind::text:
      return fold(expected) == fold(given);
    case answer_kind::coded:
    case answer_kind::duration:
    case answer_kind::rate:
    case answer_kind::list:
    case answer_kind::set:
      return same_measure(kind, expected, given);
  }
  return false;
}

std::map<std::string, std::string> parse_answers(const std::string& text, const std::string& name) {
  if (text.size() > max_answers_bytes) {
    throw netlib::app::usage_error(fmt::format("{}: larger than {} bytes", name, max_answers_bytes));
  }
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) throw netlib::app::usage_error(name + ": the file holds no answers");
  auto out = text[first] == '{' ? parse_json_answers(text, name) : parse_line_answers(text, name);
  if (out.empty()) throw netlib::app::usage_error(name + ": the file holds no answers");
  return out;
}

std::map<std::string, std::string> read_answers(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw netlib::app::usage_error(path + ": cannot open the answers file");
  std::string text(max_answers_bytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  return parse_answers(text, path);
}

submitted_answers read_submitted_answers(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return {{}, path + ": no such file (no answers were submitted)"};
  try {
    return {read_answers(path), {}};
  } catch (const netlib::app::usage_error& e) {
    return {{}, e.what()};
  }
}

suite_result grade_answers(const std::vector<question>& key, const std::map<std::string, std::string>& answers,
                           const std::string& capture, const std::string& error) {
  suite_result r{"questions", capture, {}};
  for (const auto& q : key) {
    auto c = make_check(q.id, fmt::format("Wireshark lab question ({}; {} answer)", q.protocol, kind_name(q.kind)),
                        q.text, 1);
    const auto it = answers.find(q.id);
    c.passed = it != answers.end() && same_answer(q.kind, q.answer, it->second);
    if (!c.passed) {
      c.reason = !error.empty() ? error : it == answers.end() ? "no answer given" : "wrong answer";
      c.received = it == answers.end() ? "" : it->second;
      c.expected = q.answer;
    }
    r.checks.push_back(std::move(c));
  }
  return r;
}

}  // namespace netlab::grade
