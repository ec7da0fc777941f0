#pragma once
// Replaying one recorded POP3 conversation: the greeting, then each command line re-sent in order,
// each new response compared with the recorded one (see pop3_replay.cpp for what is compared).
#include "http_replay.hpp"

namespace netlab::replay {

conversation_result replay_pop3(const recorded_conversation& c, const target_options& t);

// A message (RETR/TOP body) without the header fields a delivering server adds (RFC 5321 §4.4):
// Received: (its name, id and time, folded continuation lines included), Return-Path: and
// Delivered-To: (added at final delivery; captures recorded before lab-smtp added them lack them).
std::string without_trace_fields(const std::string& message);

}  // namespace netlab::replay
