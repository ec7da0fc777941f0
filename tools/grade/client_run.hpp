#pragma once
// Running a student's client against a reference server: the lab binary is started as a child
// process on 127.0.0.1 port 0 with prepared content, a wire_relay records the connections in
// front of it, and the command line (run by /bin/sh in its own working folder, with the lab
// binaries on PATH) gets its placeholders substituted and a deadline.
#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "check.hpp"
#include "netlib/app/process.hpp"
#include "wire_relay.hpp"

namespace netlab::grade {

struct client_options {
  std::string command;     // the student's command line, with {placeholders}
  double deadline_s = 20;  // seconds before the command is killed
};

// A private temporary folder, removed with everything in it.
struct temp_folder {
  std::string path;
  explicit temp_folder(const std::string& tag);
  ~temp_folder();
  temp_folder(const temp_folder&) = delete;
  temp_folder& operator=(const temp_folder&) = delete;
};

// What the client did: its exit, output and connections.
struct client_transcript {
  std::string command;      // after substitution
  unsigned short port = 0;  // the relay's port the client was given
  netlib::app::run_result run;
  bool timed_out = false;
  std::vector<conversation> conversations;
  std::string output;         // {out} (a file, or a folder's files concatenated) or else stdout
  std::string output_source;  // "{out}" or "stdout"
};

// Replaces every {name} of `values` in `text`; values may themselves hold placeholders ({url}
// holds {host} and {port}), so the replacement runs twice.
std::string substitute(std::string text, const std::map<std::string, std::string>& values);

// Starts server_argv (which must print "listening on HOST:PORT"), relays to it, runs the command
// with `values` plus {host}, {port}, {dir} (the client's working folder) and {out} ({dir}/out) and
// returns the transcript. Throws netlib::app::failure when the reference server does not start.
client_transcript run_client(const std::vector<std::string>& server_argv, std::map<std::string, std::string> values,
                             const temp_folder& client_dir, const client_options& options);

// The check every client suite starts with: the command exited 0 before the deadline.
check_result exit_check(const client_transcript& t);

// The suite's target line: the command as given.
std::string client_target(const client_options& o);

// Reads a whole file ("" when it cannot be read).
std::string read_whole_file(const std::string& path);

// The lines of a byte stream split at LF (a CR before it stays on the line).
std::vector<std::string> split_lf(const std::string& bytes);

}  // namespace netlab::grade

namespace CLI {
class App;
}

namespace netlab::grade {

// --client CMD and --deadline DURATION (20s, 2min; a bare number is seconds); `placeholders` documents the suite's own
// placeholders.
void add_client_options(CLI::App& cmd, client_options& o, const std::string& placeholders);

// Throws a usage error unless exactly one of --target and --client was given.
void require_target_or_client(const std::string& target, const client_options& o);

}  // namespace netlab::grade
