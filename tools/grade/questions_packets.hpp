#pragma once
// The question families of the textbook's IP, ICMP, TLS and TCP (second half) Wireshark labs,
// read from packets and TCP traces rather than from application sessions:
//   questions_ip.cpp    ip.*, ipv6.* (header fields, fragments), icmp.*, icmpv6.* (echo, errors
//                       and their quoted datagrams, the path traceroute found)
//   questions_tls.cpp   tls.* (records, ClientHello, ServerHello, what each record carries)
//   questions_tcp2.cpp  tcp.* RTT estimates, throughput, slow start and loss of each connection
// Each appends its questions for every item the capture holds (the first max_per_kind of each
// kind, numbered from 1 in capture order), so a selector can pick among them.
#include <string>
#include <vector>

#include "questions.hpp"

namespace netlab::grade {

void ip_questions(const std::string& capture, const key_options& options, std::vector<question>& out);
void tls_questions(const std::string& capture, const key_options& options, std::vector<question>& out);
void tcp_timing_questions(const std::string& capture, const key_options& options, std::vector<question>& out);

// Comparisons for the answer kinds these families add (questions_measures.cpp).
bool same_measure(answer_kind kind, const std::string& expected, const std::string& given);

// Canonical answers, so that every family writes a kind the same way.
std::string coded_answer(std::string_view name, std::uint64_t code,
                         bool hex = false);               // "UDP (17)", "echo request (0x08)"
std::string hex_answer(std::uint64_t value, int digits);  // "0x04d2 (1234)"
std::string duration_answer(double seconds);              // "0.412 ms"
std::string rate_answer(double bytes_per_second);         // "123456 B/s"

}  // namespace netlab::grade
