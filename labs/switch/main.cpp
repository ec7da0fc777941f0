// lab-switch: the IEEE 802.1D learning bridge, from recorded ports and on real interfaces.
#include "commands.hpp"
#include "netlib/app/program.hpp"

int main(int argc, char** argv) {
  auto app = netlib::app::make_app(
      "lab-switch", "Learning switch (IEEE 802.1D): replay recorded ports, or switch live between real interfaces",
      "lab-switch replay captures/switch/four_hosts.pcapng --table");
  app->require_subcommand(1, 1);
  netlab::lab_switch::add_replay_command(*app);
  netlab::lab_switch::add_make_captures_command(*app);
  netlab::lab_switch::add_live_commands(*app);
  return netlib::app::run(*app, argc, argv);
}
