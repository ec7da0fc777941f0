// lab-http: the HTTP lab (docs/labs/http.md). Subcommands: serve, get, proxy, analyze.
#include "analyze_command.hpp"
#include "get_command.hpp"
#include "netlib/app/program.hpp"
#include "proxy_command.hpp"
#include "serve_command.hpp"

int main(int argc, char** argv) {
  auto app = netlib::app::make_app("lab-http", "HTTP/1.1 lab: web server, client with response-time model",
                                   "lab-http serve --root ./site\n  lab-http get http://127.0.0.1:8080/ --objects\n  "
                                   "lab-http proxy --listen 127.0.0.1:3128\n  lab-http analyze capture.pcapng --json");
  lab_http::add_serve_command(*app);
  lab_http::add_get_command(*app);
  lab_http::add_proxy_command(*app);
  lab_http::add_analyze_command(*app);
  app->require_subcommand(1);
  return netlib::app::run(*app, argc, argv);
}
