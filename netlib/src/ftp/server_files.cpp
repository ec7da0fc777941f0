// Theory of operation: directory and file commands (RFC 959 §4.1.1, §4.1.3; RFC 3659 §3, §4).
// Every path argument is resolved by normalize_path() against the current directory, so no
// command can name anything outside the root; the file_system answers with an fs_status that
// maps to the reply: missing/not-a-directory/denied -> 550, exists -> 550, read-only server ->
// 550 "Permission denied" (RFC 959: 550 "file unavailable, no access"). Anonymous users on a
// writable server may only create (MKD here, new files in server_transfer.cpp): DELE, RMD and
// RNFR are 550 for them unless anonymous_full_write. The file store never follows symbolic
// links (ftp_disk_file_system), so the name a rule is decided on is the file acted on.
#include <fmt/format.h>

#include "netlib/ftp/listing.hpp"
#include "netlib/ftp/server_session.hpp"

namespace netlib::ftp {

namespace {
// RFC 959 Appendix II: a quote inside a 257 path is doubled.
std::string quote_path(const std::string& path) {
  std::string out = "\"";
  for (char c : path) {
    out += c;
    if (c == '"') out += '"';
  }
  return out + "\"";
}
}  // namespace

void server_session::reply_fs_error(fs_status s, std::string_view path) {
  reply(550, fmt::format("{}: {}.", path, describe(s)));
}

bool server_session::require_writable(write_kind kind) {
  if (!config_.writable) {
    reply(550, "Permission denied: the server is read-only.");
    return false;
  }
  if (kind == write_kind::change && limited_anonymous()) {
    reply(550, "Permission denied: anonymous users may only upload new files and make folders.");
    return false;
  }
  return true;
}

// RFC 959 §4.1.1 CWD: 250 when the directory exists.
void server_session::on_cwd(const std::string& arg) {
  if (arg.empty()) return reply(501, "CWD needs a directory.");
  const std::string path = normalize_path(cwd_, arg);
  if (path.empty()) return reply(501, "Bad path.");
  file_info info;
  fs_status s = fs_.stat(path, info);
  if (s == fs_status::ok && !info.is_directory) s = fs_status::not_a_directory;
  if (s != fs_status::ok) return reply_fs_error(s, arg);
  cwd_ = path;
  reply(250, fmt::format("Directory changed to {}.", cwd_));
}

void server_session::on_cdup(const std::string&) {
  cwd_ = normalize_path(cwd_, "..");
  reply(250, fmt::format("Directory changed to {}.", cwd_));  // RFC 959 §4.1.1 CDUP (200 or 250)
}

void server_session::on_pwd(const std::string&) {
  reply(257, fmt::format("{} is the current directory.", quote_path(cwd_)));  // RFC 959 §4.1.3
}

void server_session::on_mkd(const std::string& arg) {
  if (arg.empty()) return reply(501, "MKD needs a directory name.");
  if (!require_writable(write_kind::create)) return;
  const std::string path = normalize_path(cwd_, arg);
  if (const fs_status s = fs_.make_directory(path); s != fs_status::ok) return reply_fs_error(s, arg);
  reply(257, fmt::format("{} created.", quote_path(path)));  // RFC 959 Appendix II
}

void server_session::on_rmd(const std::string& arg) {
  if (arg.empty()) return reply(501, "RMD needs a directory name.");
  if (!require_writable(write_kind::change)) return;
  const std::string path = normalize_path(cwd_, arg);
  if (path == "/" || cwd_ == path || cwd_.compare(0, path.size() + 1, path + "/") == 0)
    return reply(550, "Cannot remove the current directory or the root.");
  if (const fs_status s = fs_.remove_directory(path); s != fs_status::ok) return reply_fs_error(s, arg);
  reply(250, "Directory removed.");
}

void server_session::on_dele(const std::string& arg) {
  if (arg.empty()) return reply(501, "DELE needs a file name.");
  if (!require_writable(write_kind::change)) return;
  if (const fs_status s = fs_.remove_file(normalize_path(cwd_, arg)); s != fs_status::ok) return reply_fs_error(s, arg);
  reply(250, "File deleted.");
}

// RFC 959 §4.1.3 RNFR: 350, then RNTO must follow at once.
void server_session::on_rnfr(const std::string& arg) {
  if (arg.empty()) return reply(501, "RNFR needs a name.");
  if (!require_writable(write_kind::change)) return;
  const std::string path = normalize_path(cwd_, arg);
  file_info info;
  if (const fs_status s = fs_.stat(path, info); s != fs_status::ok || path == "/") return reply_fs_error(s, arg);
  rename_from_ = path;
  rename_pending_ = true;
  reply(350, "Ready for RNTO.");
}

void server_session::on_rnto(const std::string& arg) {
  if (!rename_pending_) return reply(503, "RNTO must follow RNFR.");  // RFC 959 §5.4
  rename_pending_ = false;
  if (arg.empty()) return reply(501, "RNTO needs a name.");
  if (const fs_status s = fs_.rename(rename_from_, normalize_path(cwd_, arg)); s != fs_status::ok) {
    return reply_fs_error(s, arg);
  }
  reply(250, "Rename successful.");
}

// RFC 3659 §4 SIZE: 213 and the size of a file; 550 for directories and missing files.
void server_session::on_size(const std::string& arg) {
  if (arg.empty()) return reply(501, "SIZE needs a file name.");
  file_info info;
  fs_status s = fs_.stat(normalize_path(cwd_, arg), info);
  if (s == fs_status::ok && info.is_directory) s = fs_status::is_a_directory;
  if (s != fs_status::ok) return reply_fs_error(s, arg);
  reply(213, fmt::format("{}", info.size));
}

// RFC 3659 §3 MDTM: 213 YYYYMMDDHHMMSS (UTC).
void server_session::on_mdtm(const std::string& arg) {
  if (arg.empty()) return reply(501, "MDTM needs a file name.");
  file_info info;
  fs_status s = fs_.stat(normalize_path(cwd_, arg), info);
  if (s == fs_status::ok && info.is_directory) s = fs_status::is_a_directory;
  if (s != fs_status::ok) return reply_fs_error(s, arg);
  reply(213, format_time_val(info.modified));
}

// RFC 959 §4.1.3 STAT: without argument the session status (211; during a transfer too); with a
// path, its listing over the control connection (213).
void server_session::on_stat(const std::string& arg) {
  if (arg.empty() || state_ == server_state::transferring) {
    return reply(
        ftp::reply(211, {"netlab FTP server status:", fmt::format(" Logged in as {}", user_),
                         fmt::format(" TYPE: {}, MODE: S, STRU: F", ascii_ ? "ASCII" : "BINARY"),
                         state_ == server_state::transferring ? " A transfer is in progress" : " No data connection",
                         "End of status"}));
  }
  const std::string path = normalize_path(cwd_, arg);
  std::vector<file_info> entries;
  file_info info;
  fs_status s = fs_.stat(path, info);
  if (s == fs_status::ok && info.is_directory)
    s = fs_.list(path, entries);
  else if (s == fs_status::ok)
    entries.push_back(info);
  if (s != fs_status::ok) return reply_fs_error(s, arg);
  std::vector<std::string> lines{fmt::format("Status of {}:", arg)};
  for (const auto& e : entries) {
    if (!listable(e)) continue;  // a CR or LF in a name would inject reply lines
    std::string l = format_list_line(e, now_.wall_seconds());
    l.resize(l.size() - 2);  // no CRLF inside a reply line
    lines.push_back(std::move(l));
  }
  lines.emplace_back("End of status");
  reply(ftp::reply(213, std::move(lines)));
}

}  // namespace netlib::ftp
