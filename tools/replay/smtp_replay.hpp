#pragma once
// Replaying one recorded SMTP conversation: the greeting, then each command line (and a DATA
// message as one unit) re-sent in order, each new reply code compared with the recorded one.
#include "http_replay.hpp"

namespace netlab::replay {

conversation_result replay_smtp(const recorded_conversation& c, const target_options& t);

}  // namespace netlab::replay
