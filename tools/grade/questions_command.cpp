// `netlab-grade questions CAPTURE (--key | --answers FILE)`: prints the answer key of a capture
// (table or --json), or grades a student's answers with the outputs every netlab-grade suite has
// (table, --json, --junit FILE, --gradescope FILE; exit 0 when every answer is right, 1 otherwise).
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <iostream>
#include <memory>

#include "netlib/app/program.hpp"
#include "netlib/capture/packet_record.hpp"
#include "output.hpp"
#include "questions.hpp"

namespace netlab::grade {

namespace {

struct questions_state {
  std::string capture;
  bool key = false;
  std::string answers;
  key_options options;
  output_options out;
};

nlohmann::json key_json(const std::string& capture, const std::vector<question>& key,
                        const netlib::capture::replay_stats& stats) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& q : key) {
    list.push_back({{"id", q.id}, {"protocol", q.protocol}, {"text", q.text}, {"answer", q.answer},
                    {"kind", kind_name(q.kind)}});
  }
  return {{"capture", capture}, {"count", key.size()}, {"questions", list},
          {"truncated", stats.truncated_records > 0}, {"missing_bytes", stats.missing_bytes}};
}

std::string key_table(const std::string& capture, const std::vector<question>& key) {
  std::size_t id_width = 2, answer_width = 6;
  for (const auto& q : key) {
    id_width = std::max(id_width, q.id.size());
    answer_width = std::max(answer_width, std::min<std::size_t>(q.answer.size(), 40));
  }
  std::string out = fmt::format("answer key for {} ({} questions)\n\n", capture, key.size());
  out += fmt::format("{:<{}}  {:<{}}  {}\n", "id", id_width, "answer", answer_width, "question");
  for (const auto& q : key) {
    out += fmt::format("{:<{}}  {:<{}}  {}\n", q.id, id_width, q.answer, answer_width, q.text);
  }
  return out;
}

int run_questions(const questions_state& s) {
  if (s.key == !s.answers.empty()) throw netlib::app::usage_error("give exactly one of --key and --answers FILE");
  if (s.key && (!s.out.junit.empty() || !s.out.gradescope.empty())) {
    throw netlib::app::usage_error("--junit and --gradescope grade answers: use them with --answers FILE");
  }
  // Read the answers first: a malformed file is a usage error whatever the capture holds.
  const auto answers = s.key ? std::map<std::string, std::string>{} : read_answers(s.answers);
  std::vector<question> key;
  netlib::capture::replay_stats stats;
  try {
    key = make_key(s.capture, s.options, &stats);
    netlib::capture::require_some_packet(s.capture, stats);
  } catch (const netlib::capture::capture_error& e) {
    throw netlib::app::failure(e.what());
  }
  // The answers hold for the capture as it is: say when it is not all there.
  if (const auto note = netlib::capture::damage_note(s.capture, stats))
    std::cerr << netlib::app::program_name() << ": warning: " << *note << '\n';
  if (key.empty()) {
    throw netlib::app::failure(fmt::format("{}: no question can be answered from this capture{}", s.capture,
                                           s.options.select.empty() ? "" : " with this --select"));
  }
  if (s.key) {
    if (s.out.json) netlib::app::print_json(key_json(s.capture, key, stats));
    else std::cout << key_table(s.capture, key) << std::flush;
    return netlib::app::exit_ok;
  }
  for (const auto& [id, answer] : answers) {
    const bool known = std::any_of(key.begin(), key.end(), [&](const question& q) { return q.id == id; });
    if (!known) std::cerr << fmt::format("netlab-grade: {}: '{}' is not a question of this capture (ignored)\n", s.answers, id);
  }
  return emit(grade_answers(key, answers, s.capture), s.out);
}

}  // namespace

void add_questions_command(CLI::App& app) {
  auto s = std::make_shared<questions_state>();
  auto* cmd = netlib::app::add_command(
      app, "questions",
      "Wireshark-lab questions answered from a capture (HTTP, TCP, FTP, SMTP, POP3, ARP): print the answer key, "
      "or grade a student's answers",
      "netlab-grade questions captures/http/serve-session.pcapng --key\n"
      "  netlab-grade questions capture.pcapng --answers student.txt --gradescope results.json\n"
      "  (answers file: one 'id: answer' line per question, e.g. 'http.status.1: 200', or a JSON object)");
  cmd->add_option("capture", s->capture, "The capture (pcap or pcapng) the questions are about")
      ->required()->check(netlib::app::input_file());
  cmd->add_flag("--key", s->key, "Print the answer key: every question the capture answers, with id and answer");
  cmd->add_option("--answers", s->answers,
                  "Grade this answers file: 'id: answer' lines ('#' comments) or {\"id\": answer, ...}");
  cmd->add_option("--select", s->options.select,
                  "Only questions whose id is or starts with this (repeat): http, tcp.client, ftp.data_mode.1")
      ->allow_extra_args(false);
  cmd->add_option("--max-per-kind", s->options.max_per_kind, "Ask about the first N items of each kind")
      ->capture_default_str()->check(CLI::Range(1, 10000));
  cmd->add_option("--ftp-port", s->options.ftp_control_port,
                  "FTP control port (a server greeting with 220 counts too)")->capture_default_str();
  add_output_options(*cmd, s->out);
  netlib::app::set_action(*cmd, [s]() { return run_questions(*s); });
}

}  // namespace netlab::grade
