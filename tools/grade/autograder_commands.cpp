// `netlab-grade variant` and `netlab-grade notice` (autograder_commands.hpp).
#include "autograder_commands.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <sstream>
#include <vector>

#include "netlib/app/program.hpp"
#include "netlib/core/sha256.hpp"
#include "output.hpp"

namespace netlab::grade {

namespace {

// An id as text whether Gradescope wrote it as a number or a string.
std::string id_text(const nlohmann::json& id) {
  if (id.is_string()) return id.get<std::string>();
  if (id.is_number_integer() || id.is_number_unsigned()) return id.dump();
  return {};
}

nlohmann::json read_metadata(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw netlib::app::failure(path + ": cannot open the submission metadata");
  std::stringstream text;
  text << in.rdbuf();
  try {
    return nlohmann::json::parse(text.str());
  } catch (const nlohmann::json::exception& e) {
    throw netlib::app::failure(fmt::format("{}: not JSON ({})", path, e.what()));
  }
}

}  // namespace

std::uint32_t variant_seed(const nlohmann::json& metadata, const std::string& salt) {
  std::vector<std::string> users;
  if (metadata.is_object() && metadata.contains("users") && metadata["users"].is_array()) {
    for (const auto& u : metadata["users"]) {
      if (u.is_object() && u.contains("id") && !id_text(u["id"]).empty()) users.push_back(id_text(u["id"]));
    }
  }
  if (users.empty()) throw netlib::app::failure("the submission metadata names no user id (users[].id)");
  std::sort(users.begin(), users.end());
  std::string assignment;
  if (metadata.contains("assignment") && metadata["assignment"].is_object() && metadata["assignment"].contains("id"))
    assignment = id_text(metadata["assignment"]["id"]);
  netlib::sha256 h;
  h.update("netlab-variant\n" + salt + "\n" + assignment + "\n");
  for (const auto& u : users) h.update(u + "\n");
  const auto d = h.finish();
  return (static_cast<std::uint32_t>(d[0]) << 24 | static_cast<std::uint32_t>(d[1]) << 16 |
          static_cast<std::uint32_t>(d[2]) << 8 | d[3]) &
         0x7fffffffu;
}

void add_variant_command(CLI::App& app) {
  struct state {
    std::string metadata, salt;
    bool json = false;
  };
  auto s = std::make_shared<state>();
  auto* cmd = netlib::app::add_command(
      app, "variant",
      "Print the per-student seed of a Gradescope submission: the same for every submission of a student (or "
      "group) to an assignment, different between students (for lab-delay quiz --seed, lab-dc quiz --seed and "
      "generated inputs)",
      "netlab-grade variant --metadata /autograder/submission_metadata.json");
  cmd->add_option("--metadata", s->metadata, "Gradescope's submission_metadata.json (users[].id, assignment.id)")
      ->required()
      ->check(netlib::app::input_file());
  cmd->add_option("--salt", s->salt,
                  "A course secret mixed in, so that students cannot work out each other's seeds (default none)");
  netlib::app::add_json_flag(*cmd, s->json);
  netlib::app::set_action(*cmd, [s]() {
    const auto metadata = read_metadata(s->metadata);
    const auto seed = variant_seed(metadata, s->salt);
    if (s->json) {
      nlohmann::json users = nlohmann::json::array();
      for (const auto& u : metadata["users"]) users.push_back(id_text(u.value("id", nlohmann::json())));
      netlib::app::print_json({{"seed", seed}, {"users", users}});
    } else {
      std::cout << seed << '\n';
    }
    return netlib::app::exit_ok;
  });
}

void add_notice_command(CLI::App& app) {
  struct state {
    std::string reason;
    double points = 1;
    output_options out;
  };
  auto s = std::make_shared<state>();
  auto* cmd = netlib::app::add_command(
      app, "notice",
      "Grade a submission that nothing can be graded in: one failed check, submission_usable, with the reason "
      "(e.g. no answers file, a build that failed), in every output format",
      "netlab-grade notice --reason 'the submission has no answers.txt' --points 10 --gradescope results.json");
  cmd->add_option("--reason", s->reason, "What the student must fix, in one sentence")->required();
  cmd->add_option("--points", s->points, "The points the submission could have had (default 1)")
      ->check(CLI::Range(0.0, 1e6));
  add_output_options(*cmd, s->out);
  netlib::app::set_action(*cmd, [s]() {
    suite_result r{"submission", "the submission", {}};
    auto c = make_check("submission_usable", "assignment instructions", "The submission has what the autograder grades",
                        s->points);
    c.reason = s->reason;
    r.checks.push_back(std::move(c));
    // What the student must fix is shown even when the assignment hides its tests until later.
    auto out = s->out;
    out.gs.check_visibility.emplace_back("submission_usable", "visible");
    return emit(r, out);
  });
}

}  // namespace netlab::grade
