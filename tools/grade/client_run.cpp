// Client grading set-up shared by the four protocol suites: temp folders, the reference server
// child process, the recording relay and the student's command under a deadline.
#include "client_run.hpp"

#include <fmt/format.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <CLI/CLI.hpp>

#include "netlib/app/program.hpp"

namespace netlab::grade {

namespace fs = std::filesystem;

temp_folder::temp_folder(const std::string& tag) {
  std::string pattern = (fs::temp_directory_path() / ("netlab-grade-" + tag + "-XXXXXX")).string();
  if (::mkdtemp(pattern.data()) == nullptr) throw netlib::app::failure("cannot create a temporary folder");
  path = pattern;
}

temp_folder::~temp_folder() {
  std::error_code ec;
  fs::remove_all(path, ec);
}

std::string substitute(std::string text, const std::map<std::string, std::string>& values) {
  const auto replace_all = [&text](const std::string& key, const std::string& value) {
    for (std::size_t at = text.find(key); at != std::string::npos; at = text.find(key, at + value.size())) {
      text.replace(at, key.size(), value);
    }
  };
  for (int pass = 0; pass < 2; ++pass) {
    for (const auto& [key, value] : values) replace_all(key, value);
  }
  return text;
}

std::string read_whole_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> split_lf(const std::string& bytes) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  for (std::size_t at = bytes.find('\n'); at != std::string::npos; at = bytes.find('\n', start)) {
    lines.push_back(bytes.substr(start, at - start + 1));
    start = at + 1;
  }
  if (start < bytes.size()) lines.push_back(bytes.substr(start));
  return lines;
}

namespace {

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char ch : s) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

// {out} when the client wrote it (a file, or every file of a folder in name order), else stdout.
void collect_output(client_transcript& t, const std::string& out_path) {
  std::error_code ec;
  if (fs::is_regular_file(out_path, ec)) {
    t.output = read_whole_file(out_path);
    t.output_source = "{out}";
  } else if (fs::is_directory(out_path, ec)) {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(out_path, ec)) {
      if (e.is_regular_file()) names.push_back(e.path().string());
    }
    std::sort(names.begin(), names.end());
    for (const auto& n : names) t.output += read_whole_file(n);
    t.output_source = "{out}";
  } else {
    t.output = t.run.out;
    t.output_source = "stdout";
  }
}

}  // namespace

client_transcript run_client(const std::vector<std::string>& server_argv, std::map<std::string, std::string> values,
                             const temp_folder& client_dir, const client_options& options) {
  netlib::app::process server(server_argv);
  const auto line = server.wait_for_line("listening on ", std::chrono::seconds(20));
  if (!line)
    throw netlib::app::failure(fmt::format("the reference server {} did not start: {}", server_argv[0], server.err()));
  const auto address = line->substr(std::string("listening on ").size());
  wire_relay relay("127.0.0.1", static_cast<unsigned short>(netlib::app::process::port_of(address)));
  values["{host}"] = "127.0.0.1";
  values["{port}"] = std::to_string(relay.port());
  values["{dir}"] = client_dir.path;
  values["{out}"] = client_dir.path + "/out";
  client_transcript t;
  t.port = relay.port();
  t.command = substitute(options.command, values);
  const auto script = fmt::format("PATH={}:\"$PATH\"; export PATH; cd {} || exit 125\n{}",
                                  shell_quote(netlib::app::own_directory()), shell_quote(client_dir.path), t.command);
  const auto deadline = std::chrono::milliseconds(static_cast<long>(options.deadline_s * 1000));
  const auto started = std::chrono::steady_clock::now();
  t.run = netlib::app::run({"/bin/sh", "-c", script}, {}, deadline);
  t.timed_out = std::chrono::steady_clock::now() - started >= deadline;
  relay.stop();
  t.conversations = relay.conversations();
  collect_output(t, values["{out}"]);
  return t;
}

check_result exit_check(const client_transcript& t) {
  auto c = make_check("client_exits_0", "lab requirement: the client reports success",
                      "the command finished before the deadline with exit status 0", 1);
  c.passed = t.run.exit_code == 0 && !t.timed_out;
  if (!c.passed) {
    c.reason = t.timed_out ? "the command was killed at the deadline"
                           : fmt::format("the command exited with status {}", t.run.exit_code);
    c.sent = printable(t.command);
    c.received = printable(t.run.err.empty() ? t.run.out : t.run.err);
    c.expected = "exit status 0";
  }
  return c;
}

void add_client_options(CLI::App& cmd, client_options& o, const std::string& placeholders) {
  cmd.add_option("--client", o.command,
                 "Grade a CLIENT instead of a server: this shell command line is run against the reference "
                 "server (started by netlab-grade on 127.0.0.1 port 0, behind a recording relay). Placeholders: "
                 "{host} {port} {dir} (the command's working folder) {out} ({dir}/out: a file or folder the "
                 "client writes; stdout is graded when it is absent) " +
                     placeholders);
  netlib::app::add_duration(cmd, "--deadline", o.deadline_s,
                            "With --client: how long the command may run before it is killed, e.g. 20s, 2min "
                            "(default 20s)",
                            0.5, 600);
}

void require_target_or_client(const std::string& target, const client_options& o) {
  if (target.empty() && o.command.empty()) throw netlib::app::usage_error("give --target HOST:PORT or --client CMD");
  if (!target.empty() && !o.command.empty()) throw netlib::app::usage_error("--target and --client exclude each other");
}

std::string client_target(const client_options& o) {
  return "client: " + o.command;
}

}  // namespace netlab::grade
