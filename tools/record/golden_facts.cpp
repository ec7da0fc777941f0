#include "golden_facts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "netlib/app/process.hpp"
#include "netlib/app/program.hpp"

namespace netlab::record {
namespace {

using nlohmann::json;

struct analyzer {
  std::string protocol;
  std::vector<std::string> argv;
  std::string items;  // the key whose non-empty array means "recognised"
};

const std::vector<analyzer>& analyzers() {
  static const std::vector<analyzer> table{
      {"http", {"lab-http", "analyze", capture_placeholder, "--json"}, "transactions"},
      {"ftp", {"lab-ftp", "analyze", capture_placeholder, "--json"}, "sessions"},
      {"smtp", {"lab-smtp", "analyze", capture_placeholder, "--json"}, "sessions"},
      {"pop3", {"lab-pop3", "analyze", capture_placeholder, "--json"}, "sessions"},
  };
  return table;
}

void replace_strings(json& doc, const std::string& from, const std::string& to) {
  if (doc.is_string() && doc.get<std::string>() == from) doc = to;
  if (doc.is_structured()) {
    for (auto& item : doc) replace_strings(item, from, to);
  }
}

std::set<std::string> servers_of(const json& output) {
  std::set<std::string> out;
  for (const auto& s : output.value("sessions", json::array())) out.insert(s.value("server", ""));
  return out;
}

// FTP sessions all on servers that SMTP also recognised are SMTP (both greet with 220).
bool ftp_is_smtp(const json& ftp, const json& smtp) {
  const auto smtp_servers = servers_of(smtp);
  const auto ftp_servers = servers_of(ftp);
  return std::all_of(ftp_servers.begin(), ftp_servers.end(), [&](const auto& s) { return smtp_servers.count(s) > 0; });
}

}  // namespace

const std::vector<std::string>& known_protocols() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& a : analyzers()) out.push_back(a.protocol);
    return out;
  }();
  return names;
}

json run_check(const std::vector<std::string>& argv_template, const std::string& capture) {
  std::vector<std::string> argv;
  for (const auto& a : argv_template) argv.push_back(a == capture_placeholder ? capture : a);
  argv.front() = netlib::app::own_directory() + "/" + argv.front();
  const auto r = netlib::app::run(argv);
  const auto doc = json::parse(r.out, nullptr, false);
  if (r.exit_code != 0 || doc.is_discarded()) {
    throw netlib::app::failure(fmt::format("{} failed on {} (exit {}): {}", argv_template.front(), capture, r.exit_code,
                                           r.err.substr(0, r.err.find('\n'))));
  }
  json out = doc;
  replace_strings(out, capture, capture_placeholder);
  return out;
}

json make_facts(const std::string& name, const std::string& capture_path, const std::string& capture_file,
                const std::vector<std::string>& protocols) {
  const std::vector<std::string> ladder{"netlab-ladder", capture_placeholder, "--json"};
  json checks = json::array({{{"argv", ladder}, {"expect", run_check(ladder, capture_path)}}});
  std::map<std::string, json> outputs;
  for (const auto& a : analyzers()) outputs[a.protocol] = run_check(a.argv, capture_path);
  json recognised = json::array();
  for (const auto& a : analyzers()) {
    const bool found = !outputs[a.protocol].value(a.items, json::array()).empty() &&
                       !(a.protocol == "ftp" && ftp_is_smtp(outputs["ftp"], outputs["smtp"]));
    const bool wanted = protocols.empty() ? found : std::count(protocols.begin(), protocols.end(), a.protocol) > 0;
    if (!wanted) continue;
    recognised.push_back(a.protocol);
    checks.push_back({{"argv", a.argv}, {"expect", outputs[a.protocol]}});
  }
  return {{"name", name},
          {"capture", capture_file},
          {"recipe", name + ".recipe"},
          {"made_by", "netlab-record --golden"},
          {"packets", checks[0]["expect"].value("packets", 0)},
          {"protocols", recognised},
          {"checks", checks}};
}

}  // namespace netlab::record
