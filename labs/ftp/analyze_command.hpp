#pragma once
#include <CLI/CLI.hpp>

namespace lab_ftp {
// lab-ftp analyze CAPTURE [--json]: FTP sessions in a capture, data connections matched to the
// commands that opened them.
void add_analyze_command(CLI::App& app);
}  // namespace lab_ftp
