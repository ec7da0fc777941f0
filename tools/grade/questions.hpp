#pragma once
// `netlab-grade questions CAPTURE`: the textbook's Wireshark-lab questions (Kurose & Ross HTTP,
// TCP, FTP, SMTP/POP3, ARP/Ethernet, DNS, UDP, DHCP, NAT, IP, ICMP and TLS labs) answered from a
// capture by the project's analyzers and decoders, so an instructor can change the capture each
// term and still grade automatically.
//
//   --key            the answer key: every question the capture can answer, with id and answer
//   --ask            the same questions without their answers (what a student is given)
//   --answers FILE   a student's answers ("id: answer" lines, or a JSON object), graded
//   --variant SEED   (with any of the three) only this student's variant of the questions
//
// Questions exist only for what the capture holds: no HTTP questions without HTTP, no ARP
// questions without ARP replies. Numbering is from 1 in capture order.
//
// Adding a question family (a protocol's questions): write a function that appends the
// questions a capture answers to a vector (questions_dns.cpp is an example) and call it from
// make_key() in questions_key.cpp. For per-student variants (questions_variant.cpp), give each
// question:
//   - `subject`: the item it is about within its protocol, e.g. "query 3" for every question on
//     the third DNS query; empty for a question on the capture as a whole. A variant asks about
//     `variant_items` of each protocol's subjects (all of a protocol's subjects when it has no
//     more), chosen by the seed.
//   - `slot`: questions of one subject (or of the capture as a whole) that share a non-empty slot
//     are equivalent, e.g. "the query's destination port" and "the response's source port": a
//     variant asks one of them, chosen by the seed. An empty slot: always asked.
// Ids never change with the variant (dns.id.7 is always about query 7), so a variant's key is
// the full key's answers for the questions it asks.
#include <CLI/CLI.hpp>

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "check.hpp"
#include "netlib/capture/tcp_replay.hpp"

namespace netlab::grade {

// How an answer is compared with the key (after normalisation, see questions_answers.cpp).
enum class answer_kind {
  number,      // an integer; "3", "3 segments", "1,024"
  text,        // case- and whitespace-insensitive; surrounding quotes ignored
  http_date,   // any of the three HTTP-date forms of the same instant (RFC 9110 §5.6.7)
  version,     // "HTTP/1.1" or "1.1"
  ip,          // IPv4 or IPv6 in any textual form of the same address
  mac,         // aa:bb:cc:dd:ee:ff, aa-bb-..., aabb.ccdd.eeff, aabbccddeeff; any case
  endpoint,    // "IP:port", "[v6]:port" or "IP port"
  mailboxes,   // a set of mailboxes separated by commas, semicolons or spaces; <> optional
  choice,      // one of the words of a choice (ftp data mode: active/passive, with PORT/PASV...)
  hex_number,  // an integer written "0x1a2b" (as Wireshark shows ids and checksums) or in decimal
  yes_no,      // yes/no, true/false, 1/0, set/not set
  addresses,   // a set of IP addresses (any textual form), separated by commas or spaces
  names,       // a set of domain names, case-insensitive, trailing dot optional
  numbers,     // a set of integers, separated by commas or spaces ("1, 3, 6")
  // Added by the IP, ICMP, TLS and TCP timing families (questions_packets.hpp, questions_measures.cpp):
  coded,     // "NAME (CODE)": the name or the number (decimal or 0x hex); "0x04d2 (1234)" either form
  duration,  // a time: "0.412 ms", "412 us", "0.000412 s" (a bare number is in ms); within 1 %
  rate,      // bytes per second: "52000 B/s", "416 kbit/s", "52 kB/s" (a bare number is B/s); within 2 %
  list,      // items in order, separated by commas: "ServerHello, Certificate" (case, spaces, _ and - ignored)
  set,       // the same items in any order
};

struct question {
  std::string id;        // "http.status.2": protocol, what, and n
  std::string protocol;  // "http", "tcp", "ftp", "smtp", "pop3", "arp"
  std::string text;      // the question as a student reads it
  std::string answer;    // canonical answer
  answer_kind kind = answer_kind::text;
  std::string subject;  // variants: the item asked about ("query 3"); empty: the whole capture
  std::string slot;     // variants: equivalent questions of a subject share a non-empty slot
};

struct key_options {
  std::size_t max_per_kind = 20;        // at most this many numbered questions of one kind (n = 1..max)
  std::uint16_t ftp_control_port = 21;  // besides any server greeting with 220
  std::vector<std::string> select;      // id prefixes to keep ("http.", "tcp.client.1"); empty: all
  std::string nat_inside;               // a capture of the NAT router's inside, recorded with CAPTURE (outside)
  std::optional<std::string> variant;   // the seed of a per-student variant; nullopt: every question
  std::size_t variant_items = 3;        // subjects per protocol a variant asks about
};

// Reads the capture with the analyzers and returns its questions (in protocol order), only the
// variant's when options.variant is set; `stats` receives the TCP pass's counts (truncated
// records, missing bytes...).
// Throws netlib::capture::capture_error for an unreadable capture.
std::vector<question> make_key(const std::string& capture, const key_options& options,
                               netlib::capture::replay_stats* stats = nullptr);

// The questions of the variant `seed` (questions_variant.cpp): for each protocol, `items` of its
// subjects and, where questions share a slot, one of them; the same seed always gives the same
// questions, in the order of `all`.
std::vector<question> select_variant(const std::vector<question>& all, const std::string& seed, std::size_t items);
// The seed Gradescope gives a submission: the e-mail address of the user in
// /autograder/submission_metadata.json (users[].email; lower case; in a group submission the one
// that sorts first). Throws netlib::app::usage_error naming the file when it has none.
std::string gradescope_variant_seed(const std::string& metadata_path);

// A student's answers by question id. Throws netlib::app::usage_error naming the file and line
// for a malformed file (read_submitted_answers turns it into the reason every check fails with).
std::map<std::string, std::string> read_answers(const std::string& path);
// Parses the text of an answers file; `name` is used in error messages.
std::map<std::string, std::string> parse_answers(const std::string& text, const std::string& name);

// True when `given` is the same answer as `expected` for this kind of question.
bool same_answer(answer_kind kind, const std::string& expected, const std::string& given);

// A student's answers file as the graders read it (`questions --answers`, `quiz --answers`): the
// answers, or why there are none (`error`: the file is missing, unreadable or malformed, named with
// its line). The submission is graded either way, never a usage error: each check then fails with
// this reason, the score is 0 and the exit code 1, and --gradescope still writes its file
// (docs/conventions.md, "Exit codes"; as `switch --decisions` and `dc --answers` do).
struct submitted_answers {
  std::map<std::string, std::string> answers;
  std::string error;
};
submitted_answers read_submitted_answers(const std::string& path);

// One check per key question (weight 1): passed when the answer matches. `error` (from
// read_submitted_answers) is the reason every question fails when the file could not be read.
suite_result grade_answers(const std::vector<question>& key, const std::map<std::string, std::string>& answers,
                           const std::string& capture, const std::string& error = {});

std::string_view kind_name(answer_kind kind) noexcept;

// Registers the `questions` subcommand.
void add_questions_command(CLI::App& app);

}  // namespace netlab::grade
