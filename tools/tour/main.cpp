// netlab-tour: runs every lab end to end on embedded defaults and says what each step proved.
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <iostream>

#include <fmt/format.h>

#include "netlib/app/program.hpp"
#include "tour.hpp"

namespace {

using namespace netlab::tour;

std::vector<step> all_steps() {
  std::vector<step> steps;
  for (auto&& group : {delay_steps(), capture_steps(), switch_steps(), dc_steps(), server_steps(), instructor_steps()})
    for (auto& s : group) steps.push_back(s);
  return steps;
}

int run_tour(const std::string& only, bool verbose, bool list) {
  const auto steps = all_steps();
  if (list) {
    for (const auto& s : steps) std::cout << s.program << ": " << s.title << '\n';
    return 0;
  }
  const auto work = std::filesystem::temp_directory_path() / fmt::format("netlab-tour-{}", ::getpid());
  std::filesystem::create_directories(work);
  const context ctx(netlib::app::own_directory(), work.string(), verbose);
  std::cout << "netlab tour: every lab end to end on embedded defaults (servers on 127.0.0.1, port 0)\n";
  const auto start = std::chrono::steady_clock::now();
  int failed = 0, ran = 0, index = 0;
  for (const auto& s : steps) {
    ++index;
    if (!only.empty() && s.program != only) continue;
    ++ran;
    std::cout << fmt::format("\n[{}/{}] {}: {}\n", index, steps.size(), s.program, s.title);
    const auto t0 = std::chrono::steady_clock::now();
    try {
      s.run(ctx);
      std::cout << fmt::format("  ok ({:.2f} s)\n",
                               std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    } catch (const std::exception& e) {
      ++failed;
      std::cout << "  FAILED: " << e.what() << '\n';
    }
  }
  std::filesystem::remove_all(work);
  const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (ran == 0) throw netlib::app::usage_error("no step belongs to '" + only + "' (see --list)");
  std::cout << fmt::format("\ntour finished: {} step{}, {} in {:.1f} s\n", ran, ran == 1 ? "" : "s",
                           failed == 0 ? "all ok" : fmt::format("{} failed", failed), total);
  if (!ctx.missing_peers().empty()) {
    std::string names;
    for (const auto& p : ctx.missing_peers()) names += (names.empty() ? "" : ", ") + p;
    std::cout << fmt::format(
        "not installed: {} (the steps that use it checked the same with netlab's own clients; "
        "install it to see a real peer too)\n",
        names);
  }
  return failed == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  auto app = netlib::app::make_app("netlab-tour",
                                   "Run every netlab lab end to end on embedded defaults and show what each step did",
                                   "netlab-tour            (or: netlab-tour --only lab-http --verbose)");
  std::string only;
  bool verbose = false, list = false;
  app->add_option("--only", only, "Run only the steps of one program (e.g. lab-http)");
  app->add_flag("--verbose,-v", verbose, "Also print each command's full output");
  app->add_flag("--list", list, "List the steps and exit");
  return netlib::app::run(*app, argc, argv, [&] { return run_tour(only, verbose, list); });
}
