// netlab-replay: re-send the client side of each recorded TCP conversation to a live server and
// compare the replies with the recorded ones at the protocol level. Exit 0 when everything
// replayed matches, 1 otherwise (a difference, a connection problem, nothing replayable), 2 on
// usage errors. HTTP and SMTP are replayed; POP3 and FTP conversations are listed as skipped.
#include <fmt/format.h>

#include <iostream>
#include <optional>

#include "http_replay.hpp"
#include "smtp_replay.hpp"
#include "netlib/app/program.hpp"
#include "report.hpp"

int main(int argc, char** argv) {
  auto app = netlib::app::make_app(
      "netlab-replay", "Re-send a capture's client side to a live server and compare the replies (HTTP, SMTP)",
      "netlab-replay captures/net/loopback-http.pcapng --target 127.0.0.1:8080");
  std::string capture;
  std::string target;
  std::optional<std::uint64_t> conversation;
  bool pace = false;
  bool json = false;
  double timeout_s = 5;
  app->add_option("capture", capture, "Capture file (.pcap or .pcapng)")->required()->check(CLI::ExistingFile);
  app->add_option("--target", target, "The live server, HOST:PORT")->required();
  app->add_option("--conversation,-c", conversation, "Replay only this conversation (id as netlab-ladder lists it)");
  app->add_flag("--pace", pace, "Keep the recorded gaps between requests");
  app->add_option("--timeout", timeout_s, "Seconds to wait for each reply")->capture_default_str()
      ->check(CLI::Range(0.1, 120.0));
  netlib::app::add_json_flag(*app, json);
  return netlib::app::run(*app, argc, argv, [&]() -> int {
    const auto hp = netlib::app::parse_host_port(target);
    if (hp.port == 0) throw netlib::app::usage_error("--target needs a port: HOST:PORT");
    const netlab::replay::target_options t{hp.host, hp.port,
                                           std::chrono::milliseconds(static_cast<long>(timeout_s * 1000)), pace};
    auto recorded = netlab::replay::load_conversations(capture);
    if (conversation && *conversation >= recorded.size()) {
      throw netlib::app::failure(fmt::format("{}: no conversation {} (it has {})", capture, *conversation, recorded.size()));
    }
    std::vector<netlab::replay::conversation_result> results;
    for (const auto& c : recorded) {
      if (conversation && c.id != *conversation) continue;
      const auto protocol = netlab::replay::guess_protocol(c);
      if (protocol == "http") {
        results.push_back(netlab::replay::replay_http(c, t));
      } else if (protocol == "smtp") {
        results.push_back(netlab::replay::replay_smtp(c, t));
      } else {
        results.push_back({c.id, c.client_endpoint, c.server_endpoint, protocol,
                           "replaying " + protocol + " conversations is not implemented (HTTP and SMTP only)", {}, {}});
      }
    }
    const auto report = netlab::replay::summarize(capture, target, results);
    if (json) {
      netlib::app::print_json(netlab::replay::to_json(report));
    } else {
      std::cout << netlab::replay::render_text(report);
    }
    return report.all_matched() ? netlib::app::exit_ok : netlib::app::exit_failure;
  });
}
