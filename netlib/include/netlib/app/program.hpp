#pragma once
// Program conventions every lab and tool follows (docs/architecture.md, "Program conventions"):
//   --help with an example and --version on every program and subcommand; --json; exit codes
//   0 success, 1 runtime failure, 2 usage error; one-line errors on stderr naming what to fix.
//
//   int main(int argc, char** argv) {
//     auto app = netlib::app::make_app("lab-delay", "Packet delay calculators", "lab-delay nodal ...");
//     auto* nodal = netlib::app::add_command(*app, "nodal", "One hop's delay", "lab-delay nodal ...");
//     ...
//     return netlib::app::run(*app, argc, argv);
//   }
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace netlib::app {

// A runtime failure (could not connect, transfer failed, check failed): exit 1.
class failure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
// A usage error found after parsing (bad combination of flags): exit 2.
class usage_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline constexpr int exit_ok = 0;
inline constexpr int exit_failure = 1;
inline constexpr int exit_usage = 2;

// A top-level program with --help (and an example in its footer) and --version.
std::unique_ptr<CLI::App> make_app(const std::string& name, const std::string& description, const std::string& example);
// A subcommand with its own --help and example. Its action runs after parsing; it returns the
// exit code.
CLI::App* add_command(CLI::App& parent, const std::string& name, const std::string& description,
                      const std::string& example, std::function<int()> action = {});
// Attach or replace the action of a command made by add_command.
void set_action(CLI::App& command, std::function<int()> action);

// Parses and runs the selected command's action, translating errors into the exit codes and one
// stderr line. For programs without subcommands, pass the action here.
int run(CLI::App& app, int argc, char** argv, std::function<int()> action = {});

// A unit-aware option: --length 1500B is parsed by `parse` (netlib::units) into `target`, and a bad
// value is a usage error naming the option. Every duration, rate and size flag goes through here:
// the unit is written (0 needs none; a bare duration is in seconds).
CLI::Option* add_quantity(CLI::App& cmd, const std::string& flag, double& target, double (*parse)(std::string_view),
                          const std::string& description);
// A duration flag (--timeout 2s, --timeout 500ms, --timeout 2) in seconds, within [min_s, max_s]
// (a value outside is a usage error that says the range).
CLI::Option* add_duration(CLI::App& cmd, const std::string& flag, double& seconds, const std::string& description,
                          double min_s = 0, double max_s = 1e9);
// A byte-count flag (--max-body 1MB, 64KiB, 1500B): a whole number of bytes.
CLI::Option* add_byte_count(CLI::App& cmd, const std::string& flag, std::uint64_t& bytes,
                            const std::string& description);

// Input files and folders named on the command line: one that does not exist is a usage error
// (exit 2, "--trace: 'x.txt': no such file"); one that exists but cannot be read or parsed is a
// runtime failure (exit 1) reported when it is opened.
const CLI::Validator& input_file();
const CLI::Validator& input_folder();
// Throws usage_error when `path` does not name an existing file (for inputs whose option is
// checked after parsing, e.g. a file given by a repeated --port N=FILE).
void require_input_file(const std::string& what, const std::string& path);

// Typo help: the candidate nearest to `word` (edit distance, a transposition counting 1), when it
// is close enough to be a likely typo; empty otherwise.
std::string nearest_name(const std::string& word, const std::vector<std::string>& candidates);

// Standard --json flag.
CLI::Option* add_json_flag(CLI::App& cmd, bool& json);
// Prints one JSON document on stdout (with tidy_numbers applied).
void print_json(const nlohmann::json& doc);
// The document with every floating-point number rounded to 15 significant digits, so that it
// prints as the shortest text that reads back (0.018, not the 0.018000000000000002 that
// 0.006 * 3 computes). Use it for every JSON a program prints (also one object per line).
nlohmann::json tidy_numbers(const nlohmann::json& doc);

// Standard --listen HOST:PORT option (default 127.0.0.1:0).
struct host_port {
  std::string host = "127.0.0.1";
  unsigned short port = 0;
};
host_port parse_host_port(const std::string& text, unsigned short default_port = 0);
CLI::Option* add_listen_option(CLI::App& cmd, host_port& target, const std::string& default_value = "127.0.0.1:0");

// True when stderr is a terminal: progress is shown only then.
bool stderr_is_terminal();

// The program's name, as given to make_app, for error lines.
const std::string& program_name();

}  // namespace netlib::app
