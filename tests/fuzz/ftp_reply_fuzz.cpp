// Fuzz the FTP reply parser, the client session, the capture control analyzer (both directions
// fed from the input, with gaps; each command's range of the client stream checked), and the
// data-address parsers.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "netlib/ftp/client_session.hpp"
#include "netlib/ftp/control_analyzer.hpp"
#include "netlib/ftp/data_address.hpp"
#include "netlib/ftp/reply.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace netlib;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  ftp::reply_parser p(ftp::reply_parser_limits{.max_line = 128, .max_lines = 16});
  std::size_t pos = 0;
  for (int i = 0; i < 10000 && pos <= input.size(); ++i) {
    auto r = p.next(as_bytes(input.substr(pos)));
    if (r.consumed > input.size() - pos) std::abort();
    pos += r.consumed;
    if (r.status != ftp::reply_status::reply) break;
    // A parsed reply serializes to something that parses back to the same code.
    ftp::reply_parser again;
    auto back = again.next(as_bytes(ftp::serialize(r.value)));
    if (back.status != ftp::reply_status::reply || back.value.code != r.value.code) std::abort();
  }
  ftp::client_session c;
  (void)c.receive(as_bytes(input));
  ftp::control_analyzer a;
  std::size_t cut = size ? data[0] % size : 0;
  a.client_bytes(as_bytes(input.substr(0, cut)), netlib::time_point{});
  a.server_bytes(as_bytes(input.substr(cut)), netlib::time_point(std::chrono::seconds(1)));
  if (size > 2 && data[1] & 1) a.server_gap();
  a.client_bytes(as_bytes(input.substr(cut / 2)), netlib::time_point(std::chrono::seconds(2)));
  a.server_bytes(as_bytes(input), netlib::time_point(std::chrono::seconds(3)));
  if (a.setups().size() > a.commands().size()) std::abort();
  // Each command's bytes lie within the client bytes fed, in order, without overlap.
  const std::size_t client_fed = cut + (input.size() - cut / 2);
  std::size_t at = 0;
  for (const auto& c : a.commands()) {
    if (c.client_begin < at || c.client_end <= c.client_begin || c.client_end > client_fed) std::abort();
    at = c.client_end;
  }
  (void)ftp::parse_pasv_reply(input);
  (void)ftp::parse_epsv_reply(input);
  (void)ftp::parse_eprt_argument(input);
  (void)ftp::parse_port_argument(input);
  return 0;
}
