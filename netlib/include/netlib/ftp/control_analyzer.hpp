#pragma once
// Reads one FTP control dialogue from its two byte streams (as reassembled from a capture, or as
// netlab-grade's relay recorded them; the reader of lab-ftp analyze, netlab-replay and the grader) and
// records each command with its replies and each data-connection set-up (PASV/EPSV replies,
// PORT/EPRT commands), so a capture analyzer can match data connections to the commands that
// opened them. No I/O; any split of either stream gives the same records.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "netlib/core/bytes.hpp"
#include "netlib/core/clock.hpp"
#include "netlib/ftp/command.hpp"
#include "netlib/ftp/data_address.hpp"
#include "netlib/ftp/reply.hpp"

namespace netlib::ftp {

struct command_record {
  std::string verb;
  std::string argument;                // PASS arguments are kept as sent; callers mask them for display
  std::optional<int> reply_code;       // the final reply, when captured
  std::vector<int> preliminary_codes;  // 1yz replies (150 before a transfer)
  time_point sent{};
  time_point answered{};
  // Where the command line stands in the client's stream as fed (gaps are not in it), its line
  // end included: netlab-replay re-sends those bytes, netlab-grade checks them.
  std::size_t client_begin = 0;
  std::size_t client_end = 0;
};

struct data_setup {
  std::size_t command_index = 0;  // the PASV/EPSV/PORT/EPRT command in commands()
  bool passive = true;
  data_address where;  // the endpoint that will accept the data connection; host empty for EPSV
  time_point at{};     // when the address became known (reply for passive, command for active)
};

class control_analyzer {
 public:
  void client_bytes(byte_view bytes, time_point ts);
  void server_bytes(byte_view bytes, time_point ts);
  // Bytes missing from a direction (a capture gap): parsing resumes at the next line start.
  void client_gap();
  void server_gap();
  // The same in the capture feed's words (netlib/capture/session_feed.hpp).
  void gap(bool from_client, std::size_t /*size*/) { from_client ? client_gap() : server_gap(); }
  [[nodiscard]] std::size_t gaps() const noexcept { return gaps_; }

  [[nodiscard]] const std::vector<command_record>& commands() const noexcept { return commands_; }
  [[nodiscard]] const std::vector<data_setup>& setups() const noexcept { return setups_; }
  [[nodiscard]] const std::optional<reply>& greeting() const noexcept { return greeting_; }
  [[nodiscard]] std::size_t malformed_lines() const noexcept { return malformed_; }
  // True for the verbs that move data over a data connection (RFC 959 §4.1.3, RFC 3659 §7).
  static bool is_transfer_verb(std::string_view verb);
  // True for the transfer verbs whose data the client sends (STOR, STOU, APPE).
  static bool is_upload_verb(std::string_view verb);

 private:
  void on_reply(const reply& r, time_point ts);
  static bool skip_to_line_start(input_buffer& in, bool& resync);
  command_parser commands_parser_{4096};
  reply_parser replies_parser_;
  input_buffer client_in_, server_in_;
  std::vector<command_record> commands_;
  std::vector<data_setup> setups_;
  std::optional<reply> greeting_;
  std::size_t next_unanswered_ = 0;
  std::size_t malformed_ = 0;
  bool greeting_done_ = false;
  std::size_t client_fed_ = 0;  // client bytes fed so far
  bool client_resync_ = false;  // skip up to the next LF
  bool server_resync_ = false;
  std::size_t gaps_ = 0;
};

}  // namespace netlib::ftp
