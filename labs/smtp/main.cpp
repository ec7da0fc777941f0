// lab-smtp: the SMTP lab. serve (a mail server that delivers into Maildir folders), send (the
// textbook's mail client) and analyze (SMTP sessions in a capture).
#include "commands.hpp"
#include "netlib/app/program.hpp"

int main(int argc, char** argv) {
  auto app = netlib::app::make_app(
      "lab-smtp", "SMTP lab: a mail server delivering into Maildir folders, and a mail client",
      "lab-smtp serve --maildir mail --domain example.org --users users.txt --listen 127.0.0.1:2525");
  lab_smtp::add_serve(*app);
  lab_smtp::add_send(*app);
  lab_smtp::add_analyze(*app);
  return netlib::app::run(*app, argc, argv);
}
