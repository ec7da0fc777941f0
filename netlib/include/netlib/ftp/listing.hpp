#pragma once
// Directory listings and timestamps as FTP sends them: LIST lines in the "ls -l" style most
// clients parse (RFC 959 leaves LIST's format to the server), NLST names (RFC 959 §4.1.3), and
// the YYYYMMDDHHMMSS time-val of MDTM (RFC 3659 §2.3).
#include <chrono>
#include <string>
#include <vector>

#include "netlib/ftp/file_system.hpp"

namespace netlib::ftp {

// Whether a name can be listed: one holding CR or LF cannot (no command line can carry it back,
// and on the control connection it would inject reply lines: STAT). Such names are left out of
// every listing, as links are (issue 31).
bool listable(const file_info& entry);
// "-rw-r--r-- 1 ftp ftp      1234 Nov 14 22:13 name\r\n" per listable entry (date as "Mon DD  YYYY" when
// older than six months relative to now, as ls does).
std::string format_list(const std::vector<file_info>& entries, std::chrono::sys_seconds now);
std::string format_list_line(const file_info& entry, std::chrono::sys_seconds now);
// One name per line, CRLF (RFC 959 §4.1.3 NLST), listable names only.
std::string format_nlst(const std::vector<file_info>& entries);
// RFC 3659 §2.3 time-val in UTC: "20231114221320".
std::string format_time_val(std::chrono::sys_seconds t);

}  // namespace netlib::ftp
