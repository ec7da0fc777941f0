// Fuzz target: the student answers-file parser and the answer normalisation of `netlab-grade
// questions` (tools/grade/questions_answers.cpp, with questions_measures.cpp for the coded,
// duration, rate, list and set kinds, compiled in: they are part of a program, not of a library). Checks, besides
// memory safety: a parse either gives answers with valid ids or a usage error (never another exception), and for the
// kinds whose normal form is total (text, version, mailboxes, choice), every answer equals itself.
#include <cstddef>
#include <cstdint>
#include <string>

#include "../../tools/grade/questions_answers.cpp"
#include "../../tools/grade/questions_measures.cpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace netlab::grade;
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    for (const auto& [id, answer] : parse_answers(text, "fuzz")) {
      if (id.empty()) __builtin_trap();
      for (auto kind : {answer_kind::text, answer_kind::version, answer_kind::mailboxes, answer_kind::choice}) {
        if (!same_answer(kind, answer, answer)) __builtin_trap();
      }
      for (auto kind :
           {answer_kind::number, answer_kind::http_date, answer_kind::ip, answer_kind::mac, answer_kind::endpoint}) {
        (void)same_answer(kind, answer, text);
      }
    }
  } catch (const netlib::app::usage_error&) {
  }
  return 0;
}
