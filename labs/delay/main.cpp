// lab-delay: packet delay calculators, a queueing simulation, and a UDP pinger that measures it.
#include "commands.hpp"
#include "netlib/app/program.hpp"

int main(int argc, char** argv) {
  auto app = netlib::app::make_app("lab-delay", "Packet delay: calculators, quiz, queue simulation, UDP ping",
                                   "lab-delay nodal --length 1500B --rate 10Mbps --distance 2500km --explain");
  app->require_subcommand(0, 1);
  netlab::lab_delay::add_calculator_commands(*app);
  netlab::lab_delay::add_quiz_command(*app);
  netlab::lab_delay::add_simulate_command(*app);
  netlab::lab_delay::add_live_commands(*app);
  netlab::lab_delay::add_analyze_command(*app);
  return netlib::app::run(*app, argc, argv);
}
