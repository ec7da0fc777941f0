#pragma once
// lab-delay's kinds of quiz problem: textbook-style, numbers from short lists drawn with
// netlib::calc::prng, answers from netlib::calc. netlib/app/quiz.hpp draws, seeds and prints them
// as it does lab-dc's questions.
#include "netlib/app/quiz.hpp"

namespace netlab::lab_delay {

using quiz_problem = netlib::app::quiz_question;

// Defined in quiz_more.cpp.
void switching_problem(netlib::calc::prng& g, quiz_problem& p);
void http_problem(netlib::calc::prng& g, quiz_problem& p);
void cache_problem(netlib::calc::prng& g, quiz_problem& p);

}  // namespace netlab::lab_delay
