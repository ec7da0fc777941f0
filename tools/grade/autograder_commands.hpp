#pragma once
// Subcommands for Gradescope autograders (tools/autograder/run_autograder):
//   netlab-grade variant --metadata /autograder/submission_metadata.json
//       the per-student seed: the same for every submission of a student (or group) to one
//       assignment, different between students, so each gets their own quiz numbers and inputs;
//   netlab-grade notice --reason TEXT --points N --gradescope FILE
//       a results.json for a submission nothing can be graded in (no answers file, a build that
//       failed), written by the same writer as every suite, with the reason for the student.
#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace netlab::grade {

// The seed of a submission: the first 31 bits of SHA-256 over the salt, the assignment id and the
// sorted ids of its users (a group shares one). Throws netlib::app::failure when the metadata has
// no user id.
std::uint32_t variant_seed(const nlohmann::json& metadata, const std::string& salt);

void add_variant_command(CLI::App& app);
void add_notice_command(CLI::App& app);

}  // namespace netlab::grade
