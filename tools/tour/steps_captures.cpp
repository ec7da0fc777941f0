// Tour steps for the capture tools: conversations and a ladder diagram of a bundled capture.
#include <fmt/format.h>

#include <filesystem>

#include "tour.hpp"

namespace netlab::tour {
namespace {

void conversations(const context& ctx) {
  const auto file = context::capture("net/loopback-http.pcapng");
  auto j = ctx.run_json({ctx.bin("netlab-ladder"), file, "--json"});
  for (const auto& c : j.at("conversations"))
    ctx.say(fmt::format("{} -> {}: {} B up, {} B down, sha256 {}...", c.at("client").get<std::string>(),
                        c.at("server").get<std::string>(), c.at("client_payload_bytes").get<long>(),
                        c.at("server_payload_bytes").get<long>(),
                        c.at("server_sha256").get<std::string>().substr(0, 12)));
  context::check(j.at("conversations").size() == 3, "expected the 3 recorded HTTP conversations");
}

void ladder(const context& ctx) {
  const auto file = context::capture("net/loopback-http.pcapng");
  const auto svg = ctx.scratch("ladder") + "/ladder.svg";
  auto r = ctx.run({ctx.bin("netlab-ladder"), file, "--conversation", "1", "--svg", svg});
  for (const std::string needle : {"SYN", "GET /numbers.txt", "200 OK", "FIN"}) {
    context::check(r.out.find(needle) != std::string::npos, "the ladder shows no " + needle);
  }
  ctx.say("ladder drawn: handshake, GET /numbers.txt, 200 OK, the body, FIN; RTTs measured from ACKs");
  context::check(std::filesystem::file_size(svg) > 1000, "the SVG ladder is empty");
  ctx.say(fmt::format("SVG written ({} bytes)", std::filesystem::file_size(svg)));
}

}  // namespace

std::vector<step> capture_steps() {
  return {
      {"netlab-ladder", "conversations of a recorded HTTP session, with payload hashes", conversations},
      {"netlab-ladder", "a ladder diagram with HTTP labels from the protocol core", ladder},
  };
}

}  // namespace netlab::tour
