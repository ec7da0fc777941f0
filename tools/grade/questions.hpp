#pragma once
// `netlab-grade questions CAPTURE`: the textbook's Wireshark-lab questions (Kurose & Ross HTTP,
// TCP, FTP, SMTP/POP3 and ARP/Ethernet labs) answered from a capture by the project's analyzers,
// so an instructor can change the capture each term and still grade automatically.
//
//   --key            the answer key: every question the capture can answer, with id and answer
//   --answers FILE   a student's answers ("id: answer" lines, or a JSON object), graded
//
// Questions exist only for what the capture holds: no HTTP questions without HTTP, no ARP
// questions without ARP replies. Numbering is from 1 in capture order.
#include <CLI/CLI.hpp>

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "check.hpp"
#include "netlib/capture/tcp_replay.hpp"

namespace netlab::grade {

// How an answer is compared with the key (after normalisation, see questions_answers.cpp).
enum class answer_kind {
  number,    // an integer; "3", "3 segments", "1,024"
  text,      // case- and whitespace-insensitive; surrounding quotes ignored
  http_date, // any of the three HTTP-date forms of the same instant (RFC 9110 §5.6.7)
  version,   // "HTTP/1.1" or "1.1"
  ip,        // IPv4 or IPv6 in any textual form of the same address
  mac,       // aa:bb:cc:dd:ee:ff, aa-bb-..., aabb.ccdd.eeff, aabbccddeeff; any case
  endpoint,  // "IP:port", "[v6]:port" or "IP port"
  mailboxes, // a set of mailboxes separated by commas, semicolons or spaces; <> optional
  choice,    // one of the words of a choice (ftp data mode: active/passive, with PORT/PASV...)
};

struct question {
  std::string id;        // "http.status.2": protocol, what, and n
  std::string protocol;  // "http", "tcp", "ftp", "smtp", "pop3", "arp"
  std::string text;      // the question as a student reads it
  std::string answer;    // canonical answer
  answer_kind kind = answer_kind::text;
};

struct key_options {
  std::size_t max_per_kind = 20;  // at most this many numbered questions of one kind (n = 1..max)
  std::uint16_t ftp_control_port = 21;  // besides any server greeting with 220
  std::vector<std::string> select;      // id prefixes to keep ("http.", "tcp.client.1"); empty: all
};

// Reads the capture with the analyzers and returns its questions (in protocol order); `stats`
// receives the TCP pass's counts (truncated records, missing bytes...).
// Throws netlib::capture::capture_error for an unreadable capture.
std::vector<question> make_key(const std::string& capture, const key_options& options,
                               netlib::capture::replay_stats* stats = nullptr);

// A student's answers by question id. Throws netlib::app::usage_error naming the file and line
// for a malformed file (exit 2).
std::map<std::string, std::string> read_answers(const std::string& path);
// Parses the text of an answers file; `name` is used in error messages.
std::map<std::string, std::string> parse_answers(const std::string& text, const std::string& name);

// True when `given` is the same answer as `expected` for this kind of question.
bool same_answer(answer_kind kind, const std::string& expected, const std::string& given);

// One check per key question (weight 1): passed when the answer matches.
suite_result grade_answers(const std::vector<question>& key, const std::map<std::string, std::string>& answers,
                           const std::string& capture);

std::string_view kind_name(answer_kind kind) noexcept;

// Registers the `questions` subcommand.
void add_questions_command(CLI::App& app);

}  // namespace netlab::grade
