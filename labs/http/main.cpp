// lab-http: the HTTP lab (docs/labs/http.md). Subcommands: serve.
#include "netlib/app/program.hpp"
#include "serve_command.hpp"

int main(int argc, char** argv) {
  auto app = netlib::app::make_app("lab-http", "HTTP/1.1 lab: web server, client with response-time model",
                                   "lab-http serve --root ./site");
  lab_http::add_serve_command(*app);
  app->require_subcommand(1);
  return netlib::app::run(*app, argc, argv);
}
