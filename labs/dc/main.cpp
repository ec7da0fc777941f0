// lab-dc: data-centre fabrics (leaf-spine, fat-tree), ECMP hashing and its polarization, traffic
// engineering by maximum link utilisation, modelled and measured in network namespaces.
#include "commands.hpp"
#include "netlib/app/program.hpp"

int main(int argc, char** argv) {
  auto app = netlib::app::make_app(
      "lab-dc", "Data-centre fabrics: ECMP hashing, hash polarization and traffic engineering, modelled and measured",
      "lab-dc ecmp --topology leaf-spine:4x2 --flows 200 --hash crc16 --seed per-switch");
  app->require_subcommand(1, 1);
  netlab::lab_dc::add_topology_command(*app);
  netlab::lab_dc::add_ecmp_command(*app);
  netlab::lab_dc::add_polarize_command(*app);
  netlab::lab_dc::add_te_command(*app);
  netlab::lab_dc::add_run_command(*app);
  netlab::lab_dc::add_collective_command(*app);
  netlab::lab_dc::add_quiz_command(*app);
  return netlib::app::run(*app, argc, argv);
}
