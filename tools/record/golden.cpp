#include "golden.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>

#include "golden_facts.hpp"
#include "netlib/app/program.hpp"
#include "recorder.hpp"
#include "session_command.hpp"

namespace netlab::record {
namespace {

namespace fs = std::filesystem;

volatile std::sig_atomic_t interrupted = 0;
void on_signal(int) {
  interrupted = 1;
}

void check_name(const std::string& name) {
  if (!std::regex_match(name, std::regex("[A-Za-z0-9][A-Za-z0-9_.-]*")) || name.ends_with(".facts")) {
    throw netlib::app::usage_error(fmt::format("--golden {}: use letters, digits, '-', '_' and '.' only", name));
  }
}

void write_text(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  if (!out.flush()) throw netlib::app::failure(fmt::format("{}: cannot write", path.string()));
}

// Records until the session exits (or the deadline / a signal stops it); returns its exit code.
int record_session(recorder& rec, const golden_options& options) {
  session_command session(options.command, options.json);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(options.seconds);
  while (!session.poll()) {
    if (interrupted || std::chrono::steady_clock::now() >= deadline) {
      session.stop();
      throw netlib::app::failure(interrupted ? "interrupted: no golden written"
                                             : fmt::format("the session ran longer than {} s: no golden written "
                                                           "(raise --seconds)",
                                                           options.seconds));
    }
    rec.poll_once();
  }
  rec.drain();
  return *session.poll();
}

std::string recipe_text(const std::vector<std::string>& invocation) {
  std::vector<std::string> argv = invocation;
  argv.front() = "netlab-record";
  return "# Made by netlab-record --golden. Re-record (as root, from the repository root, after building;\n"
         "# the session command gets BIN, the folder of the netlab binaries):\n" +
         shell_quote(argv) + "\n";
}

// Records the session into `capture`; returns the number of packets. Leaves no file on failure.
std::uint64_t record_capture(const netlib::capture::live_options& live, const golden_options& options,
                             const fs::path& capture) {
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
  int code = 0;
  std::uint64_t packets = 0;
  try {
    recorder rec(live, capture.string());
    std::cerr << "capturing on " << live.interface << (live.filter.empty() ? "" : " (" + live.filter + ")")
              << std::endl;
    code = record_session(rec, options);
    packets = rec.packets();
    if (const auto dropped = rec.dropped(); dropped > 0 && code == 0) {
      throw netlib::app::failure(
          fmt::format("the kernel dropped {} packets (the capture has holes): no golden written; "
                      "record again on a quieter machine",
                      dropped));
    }
  } catch (...) {
    fs::remove(capture);
    throw;
  }
  if (code != 0 || packets == 0) {
    fs::remove(capture);
    throw netlib::app::failure(
        code != 0 ? fmt::format("the session command exited with {}: no golden written", code)
                  : fmt::format("no packets on {} matched the filter: no golden written", live.interface));
  }
  return packets;
}

// A conversation with bytes missing (packets the capture did not see) makes no golden.
void reject_holes(const nlohmann::json& facts, const fs::path& capture) {
  for (const auto& c : facts["checks"][0]["expect"].value("conversations", nlohmann::json::array())) {
    const auto missing = c.value("client_gap_bytes", 0) + c.value("server_gap_bytes", 0);
    if (missing == 0) continue;
    fs::remove(capture);
    throw netlib::app::failure(
        fmt::format("conversation {} misses {} bytes (packets lost while recording): no golden "
                    "written; record again",
                    c.value("id", 0), missing));
  }
}

void print_summary(const golden_options& options, const fs::path& dir, const nlohmann::json& facts) {
  const auto base = (dir / options.name).string();
  if (options.json) {
    netlib::app::print_json({{"capture", base + ".pcapng"},
                             {"facts", base + ".facts.json"},
                             {"recipe", base + ".recipe"},
                             {"packets", facts["packets"]},
                             {"protocols", facts["protocols"]},
                             {"checks", facts["checks"].size()}});
    return;
  }
  auto names = facts["protocols"].get<std::vector<std::string>>();
  names.insert(names.begin(), "ladder");
  if (!options.refresh)
    std::cout << fmt::format("wrote {} packets to {}.pcapng\n", facts["packets"].get<std::uint64_t>(), base);
  std::cout << fmt::format("wrote {} checks ({}) to {}.facts.json{}\n", facts["checks"].size(), fmt::join(names, ", "),
                           base, options.refresh ? "" : fmt::format(" and the recipe to {}.recipe", base));
}

}  // namespace

int record_golden(const netlib::capture::live_options& live, const golden_options& options,
                  const std::vector<std::string>& invocation) {
  check_name(options.name);
  const fs::path dir(options.dir);
  const auto capture = dir / (options.name + ".pcapng");
  // A new recording goes to a hidden file first: a failed one leaves the previous golden as it was.
  const auto recorded = options.refresh ? capture : dir / ("." + options.name + ".recording.pcapng");
  if (options.refresh) {
    if (!fs::exists(capture))
      throw netlib::app::failure(fmt::format("{}: no such capture to refresh the facts of", capture.string()));
  } else {
    fs::create_directories(dir);
    record_capture(live, options, recorded);
  }
  auto facts = make_facts(options.name, recorded.string(), capture.filename().string(), options.protocols);
  if (!options.refresh) {
    reject_holes(facts, recorded);
    fs::rename(recorded, capture);
  }
  write_text(dir / (options.name + ".facts.json"), facts.dump(2) + "\n");
  if (!options.refresh) write_text(dir / (options.name + ".recipe"), recipe_text(invocation));
  print_summary(options, dir, facts);
  return netlib::app::exit_ok;
}

}  // namespace netlab::record
