// lab-throughput: throughput calculators, a bounded TCP bulk transfer, and a namespace experiment.
#include "commands.hpp"
#include "netlib/app/program.hpp"

int main(int argc, char** argv) {
  auto app = netlib::app::make_app("lab-throughput", "Throughput: calculators, bulk transfer, netns experiment",
                                   "lab-throughput path --link 2Mbps --link 1Mbps --explain");
  app->require_subcommand(0, 1);
  netlab::lab_throughput::add_calculator_commands(*app);
  netlab::lab_throughput::add_live_commands(*app);
  netlab::lab_throughput::add_experiment_command(*app);
  return netlib::app::run(*app, argc, argv);
}
