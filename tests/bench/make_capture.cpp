// Writes the synthetic captures of tests/support/synthetic_capture.hpp for tests/bench/run (the
// analyzers' peak memory beside tshark's on the same file):
//   bench_make_capture syn-only FILE COUNT        COUNT SYN-only connections (issue 17: 1M, 70 MB)
//   bench_make_capture closed FILE COUNT [http]   COUNT connections that all close
#include <cstdlib>
#include <iostream>
#include <string>

#include "support/synthetic_capture.hpp"

int main(int argc, char** argv) {
  const std::string kind = argc > 1 ? argv[1] : "";
  if (argc < 4 || (kind != "syn-only" && kind != "closed")) {
    std::cerr << "usage: bench_make_capture syn-only|closed FILE COUNT [http]\n";
    return 2;
  }
  try {
    const auto count = std::stoull(argv[3]);
    if (kind == "syn-only")
      netlab::test::write_syn_only(argv[2], count);
    else
      netlab::test::write_closed_connections(argv[2], count, std::chrono::microseconds(500), 100,
                                             argc > 4 && std::string(argv[4]) == "http");
  } catch (const std::exception& e) {
    std::cerr << "bench_make_capture: " << e.what() << '\n';
    return 1;
  }
  return 0;
}
