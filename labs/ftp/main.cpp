// lab-ftp: the FTP lab (docs/labs/ftp.md). Subcommands: serve, get, put, ls, client, analyze.
#include "analyze_command.hpp"
#include "client_commands.hpp"
#include "netlib/app/program.hpp"
#include "serve_command.hpp"

int main(int argc, char** argv) {
  auto app = netlib::app::make_app(
      "lab-ftp", "FTP lab: control and data connections, active and passive",
      "lab-ftp serve --root ./files --anonymous\n  lab-ftp get ftp://127.0.0.1:2121/big.bin --trace");
  lab_ftp::add_serve_command(*app);
  lab_ftp::add_client_commands(*app);
  lab_ftp::add_analyze_command(*app);
  app->require_subcommand(1);
  return netlib::app::run(*app, argc, argv);
}
