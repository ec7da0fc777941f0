// Fuzz target: netlib::http::proxy_session with hostile client and origin bytes. The input is a
// script: each record is one control byte and up to 31 bytes of data (its upper five bits); the control byte says who
// speaks (client or origin), what else happens (origin end of stream, origin failure, the
// deadline, the client leaving, time passing). A driver loop like netlib::io's executes the
// session's actions. Checked: the session always consumes within its input, the store never
// holds more than its budget (stored plus reserved), and all reserved room is given back when
// the session ends.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "netlib/core/bytes.hpp"
#include "netlib/http/proxy_session.hpp"

namespace {

namespace http = netlib::http;

void check(bool ok) {
  if (!ok) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  constexpr std::size_t budget = 4096;
  http::proxy_shared shared(budget, 2048);
  http::proxy_options options;
  options.origin_timeout = std::chrono::seconds(10);
  netlib::time_point now{std::chrono::seconds(1000)};
  std::int64_t wall = 1'700'000'000;
  const auto reading = [&] { return netlib::clock_reading{now, netlib::wall_time(std::chrono::seconds(wall))}; };
  {
    http::proxy_session s(shared, options);
    netlib::input_buffer client;
    std::size_t at = 0;
    bool origin_open = false;
    bool closed = false;
    for (int records = 0; records < 10000 && at < size && !closed; ++records) {
      const std::uint8_t control = data[at++];
      const std::size_t n = std::min<std::size_t>(control >> 3, size - at);
      const std::string_view bytes(reinterpret_cast<const char*>(data + at), n);
      at += n;
      switch (control & 7) {
        case 0:
        case 1:
          client.append(bytes);
          break;
        case 2:
        case 3:
          if (origin_open) s.origin_data(netlib::as_bytes(bytes), reading());
          break;
        case 4:
          if (origin_open) s.origin_eof(reading());
          break;
        case 5:
          if (origin_open) s.origin_error("refused", reading());
          break;
        case 6:
          now += std::chrono::seconds(n % 16);
          wall += static_cast<std::int64_t>(n % 16);
          if (origin_open) s.origin_deadline(reading());
          break;
        case 7:
          s.client_gone();
          break;
      }
      // Execute actions until the session waits for a party.
      for (int i = 0; i < 1000; ++i) {
        const auto before = client.size();
        auto step = s.next(client.data(), reading());
        check(step.consumed <= before);
        client.consume(step.consumed);
        if (std::holds_alternative<http::proxy_connect_origin>(step.action))
          origin_open = true;
        else if (std::holds_alternative<http::proxy_close_origin>(step.action))
          origin_open = false;
        else if (std::holds_alternative<http::proxy_send_client>(step.action))
          continue;
        else {
          if (std::holds_alternative<http::proxy_close_client>(step.action)) closed = true;
          break;
        }
      }
      check(shared.cache.bytes() + shared.cache.reserved() <= budget);
      check(origin_open == s.origin_open());
    }
  }
  check(shared.cache.reserved() == 0);
  return 0;
}
