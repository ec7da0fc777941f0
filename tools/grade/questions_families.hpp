#pragma once
// Question families that live in files of their own, each called by make_key() (questions_key.cpp)
// with the capture and the options, appending the questions the capture answers (see
// questions.hpp for what a question is and what its subject and slot mean to variants).
#include <string>
#include <vector>

#include "questions.hpp"

namespace netlab::grade {

// Appends questions of one protocol, numbered and cut at options.max_per_kind by the family.
struct question_sink {
  const key_options& options;
  std::vector<question>& out;
  std::string protocol;

  void add(std::string id, std::string text, std::string answer, answer_kind kind, std::string subject = {},
           std::string slot = {}) const {
    out.push_back(
        {std::move(id), protocol, std::move(text), std::move(answer), kind, std::move(subject), std::move(slot)});
  }
  [[nodiscard]] bool within(std::size_t n) const { return n <= options.max_per_kind; }
};

// UDP (questions_udp.cpp): every UDP datagram's header fields, the protocol number.
void udp_questions(const std::string& capture, const key_options& options, std::vector<question>& out);
// DNS (questions_dns.cpp): queries and their responses over UDP and TCP, and the iterative queries
// a resolver made to answer a recursive one.
void dns_questions(const std::string& capture, const key_options& options, std::vector<question>& out);
// DHCP (questions_dhcp.cpp): each exchange (one transaction id) and its messages.
void dhcp_questions(const std::string& capture, const key_options& options, std::vector<question>& out);
// NAT (questions_nat.cpp): the flows of `inside` matched to those of `outside`, recorded at the
// same time on the router's two sides, and what the router changed.
void nat_questions(const std::string& inside, const std::string& outside, const key_options& options,
                   std::vector<question>& out);

// Shared formatting: "0x1a2b" with at least `digits` hex digits (as Wireshark shows ids, checksums).
std::string hex(std::uint64_t value, int digits = 4);

}  // namespace netlab::grade
