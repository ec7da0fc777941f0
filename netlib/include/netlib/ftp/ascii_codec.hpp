#pragma once
// TYPE A line-end conversion on the data connection (RFC 959 §3.1.1.1: NVT-ASCII lines end in
// CRLF on the wire; the server stores them with its local LF). Stateful so any chunking of the
// stream gives the same bytes.
#include <string>

#include "netlib/core/bytes.hpp"

namespace netlib::ftp {

// Local to wire: a LF not preceded by CR becomes CRLF.
class ascii_encoder {
 public:
  void encode(byte_view in, std::string& out);

 private:
  bool last_cr_ = false;
};

// Wire to local: CRLF becomes LF; a CR not followed by LF is kept. Call finish() at the end of the
// stream to flush a trailing CR.
class ascii_decoder {
 public:
  void decode(byte_view in, std::string& out);
  void finish(std::string& out);

 private:
  bool pending_cr_ = false;
};

}  // namespace netlib::ftp
