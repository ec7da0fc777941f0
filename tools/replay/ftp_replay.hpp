#pragma once
// Replaying one recorded FTP session (control conversation and its data connections) against a
// live server; see ftp_replay.cpp for what is sent and compared.
#include "ftp_recorded.hpp"
#include "http_replay.hpp"

namespace netlab::replay {

conversation_result replay_ftp(const recorded_conversation& c, const ftp_dialogue& d, const target_options& t);

// LIST output with each line's date columns (month, day, time or year) removed, since they carry
// the files' modification times; other lines unchanged. MLSD's "modify=...;" facts likewise.
std::string normalise_listing(std::string_view verb, const std::string& data);

}  // namespace netlab::replay
