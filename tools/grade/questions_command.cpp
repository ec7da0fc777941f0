// `netlab-grade questions CAPTURE (--key | --ask | --answers FILE) [--variant SEED]`: prints the
// answer key of a capture (table or --json), the questions alone (what a student is given), or
// grades a student's answers with the outputs every netlab-grade suite has (table, --json,
// --junit FILE, --gradescope FILE; exit 0 when every answer is right, 1 otherwise, also when the
// answers file is missing or malformed: the submission scores 0). --variant SEED
// or --gradescope-metadata FILE narrows each of them to one student's variant.
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
  bool ask = false;
  std::string answers;
  std::string gradescope_metadata;
  key_options options;
  output_options out;
};

// The key (with answers) or the questions alone (`with_answers` false) as one JSON document.
nlohmann::json key_json(const std::string& capture, const std::vector<question>& key,
                        const netlib::capture::replay_stats& stats, const key_options& options, bool with_answers) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& q : key) {
    nlohmann::json item{{"id", q.id}, {"protocol", q.protocol}, {"text", q.text}, {"kind", kind_name(q.kind)}};
    if (with_answers) item["answer"] = q.answer;
    if (!q.subject.empty()) item["subject"] = q.subject;  // what variants choose among (questions.hpp)
    if (!q.slot.empty()) item["slot"] = q.slot;
    list.push_back(std::move(item));
  }
  return {{"capture", capture},
          {"variant", options.variant ? nlohmann::json(*options.variant) : nlohmann::json(nullptr)},
          {"count", key.size()},
          {"questions", list},
          {"truncated", stats.truncated_records > 0},
          {"missing_bytes", stats.missing_bytes}};
}

std::string key_table(const std::string& capture, const std::vector<question>& key, const key_options& options,
                      bool with_answers) {
  std::size_t id_width = 2, answer_width = 6;
  for (const auto& q : key) {
    id_width = std::max(id_width, q.id.size());
    answer_width = std::max(answer_width, std::min<std::size_t>(q.answer.size(), 40));
  }
  const auto variant = options.variant ? fmt::format(", variant {}", *options.variant) : std::string();
  std::string out = fmt::format("{} for {} ({} questions{})\n\n", with_answers ? "answer key" : "questions", capture,
                                key.size(), variant);
  if (!with_answers) {
    out += fmt::format("{:<{}}  {}\n", "id", id_width, "question");
    for (const auto& q : key) out += fmt::format("{:<{}}  {}\n", q.id, id_width, q.text);
    return out;
  }
  out += fmt::format("{:<{}}  {:<{}}  {}\n", "id", id_width, "answer", answer_width, "question");
  for (const auto& q : key) {
    out += fmt::format("{:<{}}  {:<{}}  {}\n", q.id, id_width, q.answer, answer_width, q.text);
  }
  return out;
}

int run_questions(questions_state& s) {
  if (static_cast<int>(s.key) + static_cast<int>(s.ask) + static_cast<int>(!s.answers.empty()) != 1) {
    throw netlib::app::usage_error("give exactly one of --key, --ask and --answers FILE");
  }
  if (s.answers.empty() && (!s.out.junit.empty() || !s.out.gradescope.empty())) {
    throw netlib::app::usage_error("--junit and --gradescope grade answers: use them with --answers FILE");
  }
  if (!s.gradescope_metadata.empty()) s.options.variant = gradescope_variant_seed(s.gradescope_metadata);
  if (s.options.variant && s.options.variant->empty())
    throw netlib::app::usage_error("--variant: give a seed (e.g. a student id)");
  // The student's file is graded whatever it holds: missing, unreadable or malformed, every
  // question fails with the reason (read_submitted_answers).
  const auto submitted = s.answers.empty() ? submitted_answers{} : read_submitted_answers(s.answers);
  const auto& answers = submitted.answers;
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
  if (s.key || s.ask) {
    if (s.out.json)
      netlib::app::print_json(key_json(s.capture, key, stats, s.options, s.key));
    else
      std::cout << key_table(s.capture, key, s.options, s.key) << std::flush;
    return netlib::app::exit_ok;
  }
  for (const auto& [id, answer] : answers) {
    const bool known = std::any_of(key.begin(), key.end(), [&](const question& q) { return q.id == id; });
    if (!known) {
      std::cerr << fmt::format("netlab-grade: {}: '{}' is not a question of this capture{} (ignored)\n", s.answers, id,
                               s.options.variant ? "'s variant " + *s.options.variant : "");
    }
  }
  if (!submitted.error.empty()) {
    std::cerr << netlib::app::program_name() << ": warning: " << submitted.error << " (every question scores 0)\n";
  }
  return emit(grade_answers(key, answers, s.capture, submitted.error), s.out);
}

}  // namespace

void add_questions_command(CLI::App& app) {
  auto s = std::make_shared<questions_state>();
  auto* cmd = netlib::app::add_command(
      app, "questions",
      "Wireshark-lab questions answered from a capture (HTTP, TCP, FTP, SMTP, POP3, ARP, DNS, UDP, DHCP, NAT, IP, "
      "ICMP, TLS): print the answer key or the questions, or grade a student's answers",
      "netlab-grade questions captures/http/serve-session.pcapng --key\n"
      "  netlab-grade questions captures/dns/resolver.pcapng --ask --variant s1234567\n"
      "  netlab-grade questions capture.pcapng --answers student.txt --variant s1234567 --gradescope results.json\n"
      "  netlab-grade questions captures/nat/outside.pcapng --nat-inside captures/nat/inside.pcapng --key --select "
      "nat\n"
      "  (answers file: one 'id: answer' line per question, e.g. 'http.status.1: 200', or a JSON object)");
  cmd->add_option("capture", s->capture, "The capture (pcap or pcapng) the questions are about")
      ->required()
      ->check(netlib::app::input_file());
  cmd->add_flag("--key", s->key, "Print the answer key: every question the capture answers, with id and answer");
  cmd->add_flag("--ask", s->ask, "Print the questions without their answers (what a student is given)");
  cmd->add_option("--answers", s->answers,
                  "Grade this answers file: 'id: answer' lines ('#' comments) or {\"id\": answer, ...}");
  auto* variant = cmd->add_option("--variant", s->options.variant,
                                  "Only the questions of this student's variant: SEED is any text (a student id, an "
                                  "e-mail address); the same seed always gives the same questions");
  cmd->add_option("--gradescope-metadata", s->gradescope_metadata,
                  "The variant of the submitting student: the e-mail address in Gradescope's "
                  "submission_metadata.json (e.g. /autograder/submission_metadata.json)")
      ->excludes(variant);
  cmd->add_option("--variant-items", s->options.variant_items,
                  "With a variant: how many items (queries, connections, exchanges...) of each protocol to ask about")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000));
  cmd->add_option("--nat-inside", s->options.nat_inside,
                  "A capture of a NAT router's inside interface recorded at the same time as CAPTURE (its outside): "
                  "adds the NAT questions")
      ->check(netlib::app::input_file());
  cmd->add_option("--select", s->options.select,
                  "Only questions whose id is or starts with this (repeat): http, tcp.client, ftp.data_mode.1")
      ->allow_extra_args(false);
  cmd->add_option("--max-per-kind", s->options.max_per_kind, "Ask about the first N items of each kind")
      ->capture_default_str()
      ->check(CLI::Range(1, 10000));
  cmd->add_option("--ftp-port", s->options.ftp_control_port, "FTP control port (a server greeting with 220 counts too)")
      ->capture_default_str();
  add_output_options(*cmd, s->out);
  netlib::app::set_action(*cmd, [s]() { return run_questions(*s); });
}

}  // namespace netlab::grade
