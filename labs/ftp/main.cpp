// lab-ftp: the FTP lab (docs/labs/ftp.md). Subcommands: serve.
#include "netlib/app/program.hpp"
#include "serve_command.hpp"

int main(int argc, char** argv) {
  auto app = netlib::app::make_app("lab-ftp", "FTP lab: control and data connections, active and passive",
                                   "lab-ftp serve --root ./files --anonymous");
  lab_ftp::add_serve_command(*app);
  app->require_subcommand(1);
  return netlib::app::run(*app, argc, argv);
}
