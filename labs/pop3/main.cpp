// lab-pop3: the POP3 lab. serve (a POP3 server on the Maildir folders lab-smtp delivers into) and
// fetch (a POP3 client that saves the messages) and analyze (POP3 sessions in a capture).
#include "commands.hpp"
#include "netlib/app/program.hpp"

int main(int argc, char** argv) {
  auto app = netlib::app::make_app("lab-pop3", "POP3 lab: a POP3 server on Maildir folders, and a POP3 client",
                                   "lab-pop3 serve --maildir mail --users users.txt --listen 127.0.0.1:1110");
  lab_pop3::add_serve(*app);
  lab_pop3::add_fetch(*app);
  lab_pop3::add_analyze(*app);
  return netlib::app::run(*app, argc, argv);
}
