#pragma once
// ftp://[user[:password]@]host[:port]/path URLs (RFC 1738 §3.2), percent-decoded.
#include <string>

namespace lab_ftp {

struct ftp_url {
  std::string user = "anonymous";
  std::string password = "netlab@example.org";
  std::string host;
  unsigned short port = 21;
  std::string path;        // as sent to the server ("" for the login directory); leading '/' removed
  bool directory = false;  // the URL ends with '/'
};

// Throws netlib::app::usage_error naming what is wrong.
ftp_url parse_ftp_url(const std::string& text);

}  // namespace lab_ftp
