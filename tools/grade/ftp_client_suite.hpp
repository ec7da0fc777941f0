#pragma once
// netlab-grade ftp --client CMD: grade a student's FTP client against lab-ftp serve.
#include <string>

#include "check.hpp"
#include "client_run.hpp"

namespace netlab::grade {

struct ftp_client_options {
  client_options client;
  bool upload = false;  // the client must STOR {local} as {file}; otherwise RETR {file}
  std::string lab_ftp;  // the reference server binary
};

suite_result run_ftp_client_suite(ftp_client_options options);

}  // namespace netlab::grade
